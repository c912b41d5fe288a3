/* covers: particle-filter-like step: likelihood weights with exp on the device, + reduction for normalisation, weighted-mean estimate printed to 4 digits, integer-quantised weights, cumulative sum on the device (single team serial code), systematic resampling with target teams distribute parallel for and a serial search per particle, several time steps in target data with target update */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define NP 2048
#define STEPS 4

int main(void) {
  double *x = malloc(NP * sizeof *x), *w = malloc(NP * sizeof *w);
  long *q = malloc(NP * sizeof *q), *cdf = malloc(NP * sizeof *cdf);
  int *idx = malloc(NP * sizeof *idx);
  double *xn = malloc(NP * sizeof *xn);
  unsigned s = 99u;
  for (int i = 0; i < NP; i++) {
    s = s * 1664525u + 1013904223u;
    x[i] = ((s >> 9) % 20000) / 1000.0; /* positions in [0, 20) on a 0.001 grid */
  }
  double estimates[STEPS];
  long total_q[STEPS];
  int distinct[STEPS];

#pragma omp target data map(tofrom: x[0:NP]) map(alloc: w[0:NP], q[0:NP], cdf[0:NP], xn[0:NP]) map(from: idx[0:NP])
  for (int t = 0; t < STEPS; t++) {
    double obs = 6.0 + 0.5 * t;
    double wsum = 0.0, wx = 0.0;
    long qsum = 0;
    /* likelihood, quantised weights */
#pragma omp target teams distribute parallel for reduction(+: wsum, wx, qsum) map(tofrom: wsum, wx, qsum) firstprivate(obs)
    for (int i = 0; i < NP; i++) {
      double d = x[i] - obs;
      w[i] = exp(-d * d / 2.0);
      wsum += w[i];
      wx += w[i] * x[i];
      long d1000 = lround(fabs(d) * 1000.0); /* x is on a 0.001 grid, so d1000 is exact */
      q[i] = 1000000 / (1 + d1000 * d1000 / 1000);
      qsum += q[i];
    }
    estimates[t] = wx / wsum;
    total_q[t] = qsum;
    /* cumulative sum: serial on the device */
#pragma omp target
    {
      long c = 0;
      for (int i = 0; i < NP; i++) {
        c += q[i];
        cdf[i] = c;
      }
    }
    /* systematic resampling: u_j = (j * total + total / 2) / NP, exact integers */
#pragma omp target teams distribute parallel for firstprivate(qsum)
    for (int j = 0; j < NP; j++) {
      long u = ((long)j * qsum + qsum / 2) / NP;
      int lo = 0, hi = NP - 1;
      while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (cdf[mid] > u)
          hi = mid;
        else
          lo = mid + 1;
      }
      idx[j] = lo;
      xn[j] = x[lo];
    }
    /* move: copy back and jitter deterministically */
#pragma omp target teams distribute parallel for
    for (int j = 0; j < NP; j++) x[j] = xn[j] + ((j % 11) - 5) * 0.2;
#pragma omp target update from(idx[0:NP])
    int d = 1;
    for (int j = 1; j < NP; j++) d += idx[j] != idx[j - 1];
    distinct[t] = d;
  }
  for (int t = 0; t < STEPS; t++)
    printf("step %d: estimate=%.4f quantised total=%ld distinct parents=%d\n", t, estimates[t], total_q[t], distinct[t]);
  double mean = 0.0;
  for (int i = 0; i < NP; i++) mean += x[i];
  mean /= NP;
  printf("final mean position=%.4f\n", mean);
  printf("%s\n", fabs(estimates[STEPS - 1] - (6.0 + 0.5 * (STEPS - 1))) < 1.0 ? "PASS" : "FAIL");
  free(x);
  free(w);
  free(q);
  free(cdf);
  free(idx);
  free(xn);
  return 0;
}
