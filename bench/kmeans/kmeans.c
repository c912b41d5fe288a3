/* kmeans, OpenMP offload (see kmeans.h). Each iteration: an assignment kernel (the same
 * flat `target teams distribute parallel for` over points in both versions: its inner loops
 * over 5 centres x 34 features are too short to share) and a centre update.
 * Update, nested (default): `target teams distribute` over the K x F centre coordinates;
 * each team reduces over all points (`parallel for reduction`), the master divides.
 * Update, -DSPMD: `target teams distribute parallel for collapse(2)` over (centre,
 * feature): 170 threads, each summing over all points alone. */
#include "kmeans.h"

int main(int argc, char **argv) {
  const int n = bench_arg(argc, argv, 1, 494020), iters = bench_arg(argc, argv, 2, 5);
  float *x = (float *)bench_alloc(sizeof(float) * n * KM_F);
  double *centre0 = (double *)bench_alloc(sizeof(double) * KM_K * KM_F);
  double *centre = (double *)bench_alloc(sizeof(double) * KM_K * KM_F);
  int *member = (int *)bench_alloc(sizeof(int) * n);
  km_make(x, n, centre0);
  const long nx = (long)n * KM_F;
  bench_warmup();
  for (int rep = 0, reps = bench_reps(); rep < reps; rep++) {
    memcpy(centre, centre0, sizeof(double) * KM_K * KM_F);
    double kernel = 0, t0 = BENCH_NOW();
#pragma omp target data map(to: x[0:nx]) map(tofrom: centre[0:KM_K * KM_F]) map(from: member[0:n])
    for (int it = 0; it < iters; it++) {
      double k0 = BENCH_NOW();
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; i++) member[i] = km_nearest(x, n, i, centre);
#ifndef SPMD
#pragma omp target teams distribute thread_limit(256)
      for (int cf = 0; cf < KM_K * KM_F; cf++) {
        const int c = cf / KM_F, f = cf % KM_F;
        double sum = 0;
        int cnt = 0;
#pragma omp parallel for reduction(+: sum, cnt)
        for (int i = 0; i < n; i++)
          if (member[i] == c) {
            sum += x[(long)f * n + i];
            cnt++;
          }
        if (cnt) centre[cf] = sum / cnt;
      }
#else
#pragma omp target teams distribute parallel for collapse(2)
      for (int c = 0; c < KM_K; c++)
        for (int f = 0; f < KM_F; f++) {
          double sum = 0;
          int cnt = 0;
          for (int i = 0; i < n; i++)
            if (member[i] == c) {
              sum += x[(long)f * n + i];
              cnt++;
            }
          if (cnt) centre[c * KM_F + f] = sum / cnt;
        }
#endif
      kernel += BENCH_NOW() - k0;
    }
    bench_report("kmeans", rep, kernel, BENCH_NOW() - t0);
  }
  return bench_finish(km_check(x, n, iters, centre, member));
}
