/* streamcluster: the pgain step of online k-median clustering, for a sequence of candidate
 * centres. For candidate x and every point i (dimension 128): d = w_i |p_i - x|^2; if
 * d < cost_i the point would switch to x (gain += cost_i - d), otherwise its current
 * centre's closing cost grows (lower[assign_i] += d - cost_i, an atomic update). Shared by
 * streamcluster.c (OpenMP) and streamcluster.cu.
 *     ./streamcluster [points=65536] [candidates=8] */
#ifndef STREAMCLUSTER_H
#define STREAMCLUSTER_H
#include "../common/bench.h"

#define SC_DIM 128
#define SC_CENTRES 32

static void sc_make(float *p, float *w, float *cost, int *assign, int n) {
  for (long k = 0; k < (long)n * SC_DIM; k++) p[k] = bench_unit((unsigned)k, 41);
  for (int i = 0; i < n; i++) {
    w[i] = 1.0f + (bench_hash(i + 5) % 3);
    cost[i] = 10.0f + 20.0f * bench_unit(i, 42);
    assign[i] = (int)(bench_hash(i + 6) % SC_CENTRES);
  }
}

static int sc_candidate(int c, int n) { return (int)(bench_hash(c + 1000) % (unsigned)n); }

static int sc_check(const float *p, const float *w, const float *cost, const int *assign, int n, int ncand,
                    const float *gain, const float *lower, const int *switches) {
  double worst = 0;
  int bad = 0;
  for (int c = 0; c < ncand; c++) {
    const float *x = p + (long)sc_candidate(c, n) * SC_DIM;
    double g = 0, low[SC_CENTRES] = {0};
    int sw = 0;
    for (int i = 0; i < n; i++) {
      double d = 0;
      for (int k = 0; k < SC_DIM; k++) {
        double t = p[(long)i * SC_DIM + k] - x[k];
        d += t * t;
      }
      d *= w[i];
      if (d < cost[i]) {
        g += cost[i] - d;
        sw++;
      } else
        low[assign[i]] += d - cost[i];
    }
    double e = fabs(g - gain[c]) / (1 + fabs(g));
    for (int k = 0; k < SC_CENTRES; k++) {
      double el = fabs(low[k] - lower[c * SC_CENTRES + k]) / (1 + fabs(low[k]));
      if (el > e) e = el;
    }
    if (!(e <= worst)) worst = e;
    bad += abs(sw - switches[c]) > n / 10000; /* a distance rounded differently may flip a near-tie */
  }
  printf("streamcluster: %d points, %d candidates, largest relative error %.3g, %d candidates with wrong switch counts\n",
         n, ncand, worst, bad);
  return worst < 1e-3 && bad == 0;
}
#endif
