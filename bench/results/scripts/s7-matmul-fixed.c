/* Issue 48's first case: the textbook matrix product with a constant order (1536, doubles), the
 * (i, j) nest collapsed, k serial. Times the kernel alone (data mapped once), 5 runs, prints the
 * median and checks 4096 sampled entries against a serial dot product (small integers: exact). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#define N 1536

static int cmp(const void *x, const void *y) { double a = *(const double *)x, b = *(const double *)y; return (a > b) - (a < b); }

int main(void) {
  double *a = malloc(sizeof(double) * N * N), *b = malloc(sizeof(double) * N * N), *c = malloc(sizeof(double) * N * N);
  for (long i = 0; i < (long)N * N; i++) { a[i] = (double)(i * 7 % 11) - 5; b[i] = (double)(i * 5 % 9) - 4; }
  double t[6];
#pragma omp target data map(to: a[0:N*N], b[0:N*N]) map(from: c[0:N*N])
  for (int rep = 0; rep < 6; rep++) {
    double t0 = omp_get_wtime();
#pragma omp target teams distribute parallel for collapse(2)
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++) {
        double sum = 0;
        for (int k = 0; k < N; k++) sum += a[i * N + k] * b[k * N + j];
        c[i * N + j] = sum;
      }
    t[rep] = omp_get_wtime() - t0;
  }
  long bad = 0;
  for (long s = 0; s < 4096; s++) {
    long i = (s * 2654435761u) % N, j = (s * 40503u + 17) % N;
    double ref = 0;
    for (int k = 0; k < N; k++) ref += a[i * N + k] * b[(long)k * N + j];
    bad += c[i * N + j] != ref;
  }
  qsort(t + 1, 5, sizeof(double), cmp);   /* the first run warms up */
  printf("matmul-fixed %d: kernel median %.3f ms (min %.3f, max %.3f), %ld of 4096 sampled entries wrong: %s\n", N,
         t[3] * 1e3, t[1] * 1e3, t[5] * 1e3, bad, bad ? "FAIL" : "PASS");
  return bad != 0;
}
