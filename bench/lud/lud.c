/* lud, OpenMP offload (see lud.h); one target region per elimination step k.
 * Nested (default): `target teams distribute` over the rows below the pivot; the master
 * computes the row's multiplier (serial), the team updates the row (`parallel for`).
 * -DSPMD: `target teams distribute parallel for collapse(2)` over (row, column) of the
 * trailing matrix, each element recomputing its row's multiplier, then a second flat
 * kernel stores the multipliers. */
#include "lud.h"

int main(int argc, char **argv) {
  const int n = bench_arg(argc, argv, 1, 1024);
  const long nn = (long)n * n;
  float *a0 = (float *)bench_alloc(sizeof(float) * nn), *a = (float *)bench_alloc(sizeof(float) * nn);
  lud_make(a0, n);
  bench_warmup();
  for (int rep = 0, reps = bench_reps(); rep < reps; rep++) {
    memcpy(a, a0, sizeof(float) * nn);
    double kernel = 0, t0 = BENCH_NOW();
#pragma omp target data map(tofrom: a[0:nn])
    for (int k = 0; k < n - 1; k++) {
      double k0 = BENCH_NOW();
#ifndef SPMD
#pragma omp target teams distribute thread_limit(128) firstprivate(k)
      for (int i = k + 1; i < n; i++) {
        float l = a[(long)i * n + k] / a[(long)k * n + k];
        a[(long)i * n + k] = l;
#pragma omp parallel for
        for (int j = k + 1; j < n; j++) a[(long)i * n + j] -= l * a[(long)k * n + j];
      }
#else
#pragma omp target teams distribute parallel for collapse(2) firstprivate(k)
      for (int i = k + 1; i < n; i++)
        for (int j = k + 1; j < n; j++) {
          float l = a[(long)i * n + k] / a[(long)k * n + k];
          a[(long)i * n + j] -= l * a[(long)k * n + j];
        }
#pragma omp target teams distribute parallel for firstprivate(k)
      for (int i = k + 1; i < n; i++) a[(long)i * n + k] /= a[(long)k * n + k];
#endif
      kernel += BENCH_NOW() - k0;
    }
    bench_report("lud", rep, kernel, BENCH_NOW() - t0);
  }
  return bench_finish(lud_check(a0, a, n));
}
