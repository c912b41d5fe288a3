/* Session 14, run 4: what a synchronous target region costs ompgpu beside the floor
 * (s14-launch-sync.cu): 2000 empty `target teams distribute parallel for` regions over mapped
 * data inside a target data region, each timed by the host. */
#include <omp.h>
#include <stdio.h>
int main(void) {
  static float a[1024];
  const int n = 2000;
#pragma omp target data map(tofrom: a)
  {
    for (int i = 0; i < 100; i++) {
#pragma omp target teams distribute parallel for
      for (int k = 0; k < 1024; k++) a[k] += 1.0f;
    }
    double t0 = omp_get_wtime();
    for (int i = 0; i < n; i++) {
#pragma omp target teams distribute parallel for
      for (int k = 0; k < 1024; k++) a[k] += 1.0f;
    }
    double t1 = omp_get_wtime();
    for (int i = 0; i < n; i++) {
#pragma omp target teams distribute thread_limit(128)
      for (int k = 0; k < 64; k++) {
        float d = 0;
#pragma omp parallel for reduction(+: d)
        for (int j = 0; j < 128; j++) d += a[(k * 16 + j) % 1024];
        if (d < 0) a[k] = d;
      }
    }
    double t2 = omp_get_wtime();
    printf("flat region %.2f us each, nested region %.2f us each\n", (t1 - t0) * 1e6 / n, (t2 - t1) * 1e6 / n);
  }
  return a[0] != 2100.0f;
}
