/* STREAM triad a = b + s*c on device memory from omp_target_alloc (is_device_ptr), with the
   loop schedule chosen at compile time: -DSCHED_STATIC for schedule(static), else none.
   Prints the best bandwidth of REPS runs and checks the result. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#ifndef N
#define N (1L << 26)
#endif
#define REPS 20

int main(void) {
  int dev = omp_get_default_device();
  double *a = omp_target_alloc(N * sizeof(double), dev);
  double *b = omp_target_alloc(N * sizeof(double), dev);
  double *c = omp_target_alloc(N * sizeof(double), dev);
  const double s = 3.0;
#pragma omp target teams distribute parallel for is_device_ptr(a, b, c)
  for (long i = 0; i < N; i++) {
    a[i] = 0.0;
    b[i] = (double)(i % 1000);
    c[i] = 0.5;
  }
  double best = 1e30;
  for (int r = 0; r < REPS; r++) {
    double t0 = omp_get_wtime();
#ifdef SCHED_STATIC
#pragma omp target teams distribute parallel for schedule(static) is_device_ptr(a, b, c)
#else
#pragma omp target teams distribute parallel for is_device_ptr(a, b, c)
#endif
    for (long i = 0; i < N; i++) a[i] = b[i] + s * c[i];
    double t = omp_get_wtime() - t0;
    if (t < best) best = t;
  }
  long bad = 0;
#pragma omp target teams distribute parallel for is_device_ptr(a) reduction(+: bad)
  for (long i = 0; i < N; i++) bad += a[i] != (double)(i % 1000) + 1.5;
  printf("triad %s: %.1f GB/s (best of %d, n=%ld) %s\n",
#ifdef SCHED_STATIC
         "schedule(static)",
#else
         "default schedule",
#endif
         3.0 * N * sizeof(double) / best * 1e-9, REPS, (long)N, bad ? "FAIL" : "PASS");
  omp_target_free(a, dev);
  omp_target_free(b, dev);
  omp_target_free(c, dev);
  return bad != 0;
}
