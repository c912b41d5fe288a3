/* covers: target teams distribute parallel for, map(to:) map(from:) map(tofrom:) on static arrays and malloc pointers, whole-array and [0:n] sections */
#include <stdio.h>
#include <stdlib.h>

#define N 10000

static double a[N], b[N], c[N];

int main(void) {
  for (int i = 0; i < N; i++) {
    a[i] = i;
    b[i] = 2 * i + 1;
    c[i] = -1.0;
  }

  /* whole static arrays */
#pragma omp target teams distribute parallel for map(to: a, b) map(from: c)
  for (int i = 0; i < N; i++)
    c[i] = a[i] + b[i];

  long errs = 0;
  double sum = 0.0;
  for (int i = 0; i < N; i++) {
    if (c[i] != 3.0 * i + 1.0) errs++;
    sum += c[i];
  }
  printf("vec_add: sum=%.0f errors=%ld\n", sum, errs);

  /* tofrom, in place */
#pragma omp target teams distribute parallel for map(tofrom: c[0:N]) map(to: a[0:N])
  for (int i = 0; i < N; i++)
    c[i] = 2.0 * c[i] - a[i];

  errs = 0;
  sum = 0.0;
  for (int i = 0; i < N; i++) {
    if (c[i] != 5.0 * i + 2.0) errs++;
    sum += c[i];
  }
  printf("vec_axpy: sum=%.0f errors=%ld\n", sum, errs);

  /* heap arrays of int */
  int n = 4099;
  int *x = malloc(n * sizeof *x);
  int *y = malloc(n * sizeof *y);
  int *z = malloc(n * sizeof *z);
  if (!x || !y || !z) return 1;
  for (int i = 0; i < n; i++) {
    x[i] = i % 97;
    y[i] = (i * 7) % 101;
    z[i] = 0;
  }
#pragma omp target teams distribute parallel for map(to: x[0:n], y[0:n]) map(from: z[0:n])
  for (int i = 0; i < n; i++)
    z[i] = x[i] * y[i] - i;

  long isum = 0;
  errs = 0;
  for (int i = 0; i < n; i++) {
    if (z[i] != (i % 97) * ((i * 7) % 101) - i) errs++;
    isum += z[i];
  }
  printf("int_mul: sum=%ld errors=%ld\n", isum, errs);
  printf("%s\n", errs == 0 ? "PASS" : "FAIL");
  free(x);
  free(y);
  free(z);
  return 0;
}
