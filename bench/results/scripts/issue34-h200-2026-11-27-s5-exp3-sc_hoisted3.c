/* streamcluster, OpenMP offload (see streamcluster.h); one target region per candidate.
 * Nested (default): `target teams distribute` over the points; the team computes the
 * distance over the 128 coordinates (`parallel for reduction`), the master applies the
 * decision (atomics on the candidate's totals).
 * -DSPMD: `target teams distribute parallel for` over the points, each thread summing its
 * 128 coordinates alone. */
#include "../../bench/streamcluster/streamcluster.h"

int main(int argc, char **argv) {
  const int n = bench_arg(argc, argv, 1, 65536), ncand = bench_arg(argc, argv, 2, 8);
  const long np = (long)n * SC_DIM;
  float *p = (float *)bench_alloc(sizeof(float) * np), *w = (float *)bench_alloc(sizeof(float) * n);
  float *cost = (float *)bench_alloc(sizeof(float) * n);
  int *assign = (int *)bench_alloc(sizeof(int) * n);
  float *gain = (float *)bench_alloc(sizeof(float) * ncand), *lower = (float *)bench_alloc(sizeof(float) * ncand * SC_CENTRES);
  int *switches = (int *)bench_alloc(sizeof(int) * ncand);
  sc_make(p, w, cost, assign, n);
  bench_warmup();
  for (int rep = 0, reps = bench_reps(); rep < reps; rep++) {
    memset(gain, 0, sizeof(float) * ncand);
    memset(lower, 0, sizeof(float) * ncand * SC_CENTRES);
    memset(switches, 0, sizeof(int) * ncand);
    double kernel = 0, t0 = BENCH_NOW();
#pragma omp target data map(to: p[0:np], w[0:n], cost[0:n], assign[0:n]) \
    map(tofrom: gain[0:ncand], lower[0:ncand * SC_CENTRES], switches[0:ncand])
    for (int c = 0; c < ncand; c++) {
      const long xo = (long)sc_candidate(c, n) * SC_DIM;
      double k0 = BENCH_NOW();
#ifndef SPMD
#pragma omp target teams distribute thread_limit(128) firstprivate(c, xo)
      for (int i = 0; i < n; i++) {
        float d = 0;
        const float wi = w[i], ci = cost[i]; const int ai = assign[i];
#pragma omp parallel for reduction(+: d)
        for (int k = 0; k < SC_DIM; k++) {
          float t = p[(long)i * SC_DIM + k] - p[xo + k];
          d += t * t;
        }
        d *= wi;
        if (d < ci) {
#pragma omp atomic
          gain[c] += ci - d;
#pragma omp atomic
          switches[c]++;
        } else {
#pragma omp atomic
          lower[c * SC_CENTRES + ai] += d - ci;
        }
      }
#else
#pragma omp target teams distribute parallel for firstprivate(c, xo)
      for (int i = 0; i < n; i++) {
        float d = 0;
        for (int k = 0; k < SC_DIM; k++) {
          float t = p[(long)i * SC_DIM + k] - p[xo + k];
          d += t * t;
        }
        d *= w[i];
        if (d < cost[i]) {
#pragma omp atomic
          gain[c] += cost[i] - d;
#pragma omp atomic
          switches[c]++;
        } else {
#pragma omp atomic
          lower[c * SC_CENTRES + assign[i]] += d - cost[i];
        }
      }
#endif
      kernel += BENCH_NOW() - k0;
    }
    bench_report("streamcluster", rep, kernel, BENCH_NOW() - t0);
  }
  return bench_finish(sc_check(p, w, cost, assign, n, ncand, gain, lower, switches));
}
