/* particlefilter, OpenMP offload (see particlefilter.h).
 * Nested (default): likelihood = `target teams distribute` over the particles, the team
 * summing the disk pixels (`parallel for reduction`); resampling = `target teams
 * distribute` over the new particles, the team searching the CDF (`parallel for
 * reduction(min:)`), the master copying the chosen particle.
 * -DSPMD: both as `target teams distribute parallel for` over the particles, each thread
 * summing its disk / scanning the CDF alone (stopping at the first hit). */
#include "particlefilter.h"

int main(int argc, char **argv) {
  const int n = bench_arg(argc, argv, 1, 16384);
  unsigned char *img = (unsigned char *)bench_alloc(PF_SIDE * PF_SIDE);
  float *px = (float *)bench_alloc(sizeof(float) * n), *py = (float *)bench_alloc(sizeof(float) * n);
  float *nx = (float *)bench_alloc(sizeof(float) * n), *ny = (float *)bench_alloc(sizeof(float) * n);
  float *like = (float *)bench_alloc(sizeof(float) * n);
  double *cdf = (double *)bench_alloc(sizeof(double) * n);
  int *pick = (int *)bench_alloc(sizeof(int) * n);
  int dy[PF_MAXDISK], dx[PF_MAXDISK];
  const int nd = pf_disk(dy, dx);
  pf_make(img, px, py, n);
  bench_warmup();
  for (int rep = 0, reps = bench_reps(); rep < reps; rep++) {
    double kernel = 0, t0 = BENCH_NOW();
#pragma omp target data map(to: img[0:PF_SIDE * PF_SIDE], px[0:n], py[0:n], dy, dx) \
    map(from: like[0:n], nx[0:n], ny[0:n], pick[0:n]) map(alloc: cdf[0:n])
    {
      double k0 = BENCH_NOW();
#ifndef SPMD
#pragma omp target teams distribute thread_limit(64)
      for (int i = 0; i < n; i++) {
        const float x = px[i], y = py[i];
        float s = 0;
#pragma omp parallel for reduction(+: s)
        for (int k = 0; k < nd; k++) s += pf_pixel_term(img, x, y, dy[k], dx[k]);
        like[i] = s;
      }
#else
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; i++) {
        float s = 0;
        for (int k = 0; k < nd; k++) s += pf_pixel_term(img, px[i], py[i], dy[k], dx[k]);
        like[i] = s;
      }
#endif
      kernel += BENCH_NOW() - k0;
#pragma omp target update from(like[0:n])
      pf_cdf(like, n, nd, cdf);
#pragma omp target update to(cdf[0:n])
      k0 = BENCH_NOW();
#ifndef SPMD
#pragma omp target teams distribute thread_limit(256)
      for (int j = 0; j < n; j++) {
        const double u = (j + 0.5) / n;
        int first = n - 1;
#pragma omp parallel for reduction(min: first)
        for (int i = 0; i < n - 1; i++)
          if (cdf[i] >= u && i < first) first = i;
        pick[j] = first;
        nx[j] = px[first];
        ny[j] = py[first];
      }
#else
#pragma omp target teams distribute parallel for
      for (int j = 0; j < n; j++) {
        const double u = (j + 0.5) / n;
        int i = 0;
        while (i < n - 1 && cdf[i] < u) i++;
        pick[j] = i;
        nx[j] = px[i];
        ny[j] = py[i];
      }
#endif
      kernel += BENCH_NOW() - k0;
    }
    bench_report("particlefilter", rep, kernel, BENCH_NOW() - t0);
  }
  int moved_ok = 1;
  for (int j = 0; j < n; j++) moved_ok &= nx[j] == px[pick[j]] && ny[j] == py[pick[j]];
  return bench_finish(moved_ok && pf_check(img, px, py, n, like, cdf, pick));
}
