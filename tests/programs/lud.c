/* covers: LU decomposition (Doolittle, no pivoting) two ways: a host k-loop launching target teams distribute parallel for kernels inside target data (incl. collapse(2) with a k-dependent lower bound), and a single target region with one team whose threads sweep k with barriers between phases; reconstruction check */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <omp.h>

#define N 48

static void make_matrix(double *a) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) a[i * N + j] = (i == j) ? 4.0 * N : (double)((i * 7 + j * 13) % 11) - 5.0;
}

static double recon_error(const double *lu, const double *orig) {
  double err = 0.0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double s = 0.0;
      for (int k = 0; k <= (i < j ? i : j); k++) {
        double l = (k == i) ? 1.0 : lu[i * N + k];
        s += l * lu[k * N + j];
      }
      double e = fabs(s - orig[i * N + j]);
      if (e > err) err = e;
    }
  return err;
}

int main(void) {
  double *a = malloc(N * N * sizeof *a);
  double *b = malloc(N * N * sizeof *b);
  double *orig = malloc(N * N * sizeof *orig);
  make_matrix(orig);
  make_matrix(a);
  make_matrix(b);

  /* version 1: kernels per step */
#pragma omp target data map(tofrom: a[0:N * N])
  for (int k = 0; k < N - 1; k++) {
#pragma omp target teams distribute parallel for
    for (int i = k + 1; i < N; i++) a[i * N + k] /= a[k * N + k];
#pragma omp target teams distribute parallel for collapse(2)
    for (int i = k + 1; i < N; i++)
      for (int j = k + 1; j < N; j++) a[i * N + j] -= a[i * N + k] * a[k * N + j];
  }

  /* version 2: one team, barriers between phases */
#pragma omp target map(tofrom: b[0:N * N])
#pragma omp parallel num_threads(64)
  {
    for (int k = 0; k < N - 1; k++) {
#pragma omp for
      for (int i = k + 1; i < N; i++) b[i * N + k] /= b[k * N + k];
      /* implicit barrier */
#pragma omp for collapse(2)
      for (int i = k + 1; i < N; i++)
        for (int j = k + 1; j < N; j++) b[i * N + j] -= b[i * N + k] * b[k * N + j];
    }
  }

  double e1 = recon_error(a, orig), e2 = recon_error(b, orig);
  double d1 = 1.0, d2 = 1.0, agree = 0.0;
  for (int i = 0; i < N; i++) {
    d1 *= a[i * N + i] / (4.0 * N);
    d2 *= b[i * N + i] / (4.0 * N);
  }
  for (int i = 0; i < N * N; i++) {
    double e = fabs(a[i] - b[i]);
    if (e > agree) agree = e;
  }
  printf("lud kernels: u[47][47]=%.6f l[47][0]=%.6f scaled det=%.6f\n", a[N * N - 1], a[(N - 1) * N], d1);
  printf("lud one team: u[47][47]=%.6f scaled det=%.6f\n", b[N * N - 1], d2);
  printf("reconstruction small: %s %s, versions agree: %s\n", e1 < 1e-10 ? "yes" : "no", e2 < 1e-10 ? "yes" : "no",
         agree < 1e-12 ? "yes" : "no");
  printf("%s\n", e1 < 1e-10 && e2 < 1e-10 && agree < 1e-12 ? "PASS" : "FAIL");
  free(a);
  free(b);
  free(orig);
  return 0;
}
