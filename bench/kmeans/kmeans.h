/* kmeans: Lloyd iterations on N points with F = 34 features (the size of Rodinia's
 * kdd_cup input, 494020 points), K = 5 clusters, a fixed number of iterations. Features
 * are stored feature-major (x[f * N + i]) and hold small integers, so the centre sums
 * (doubles) are exact in any order. Shared by kmeans.c (OpenMP) and kmeans.cu.
 *     ./kmeans [points=494020] [iterations=5] */
#ifndef KMEANS_H
#define KMEANS_H
#include "../common/bench.h"

#define KM_F 34
#define KM_K 5

static void km_make(float *x, int n, double *centre) {
  for (int i = 0; i < n; i++) {
    int blob = bench_hash(i) % KM_K;
    for (int f = 0; f < KM_F; f++) {
      int base = 40 + 40 * ((blob * 7 + f * 3) % KM_K);
      x[(long)f * n + i] = (float)(base + (int)(bench_hash(i * KM_F + f + 17) % 61) - 30);
    }
  }
  for (int c = 0; c < KM_K; c++) /* the first K points start as centres */
    for (int f = 0; f < KM_F; f++) centre[c * KM_F + f] = x[(long)f * n + c];
}

/* the assignment rule all versions share: nearest centre, lowest index on ties */
#ifdef BENCH_CUDA
__host__ __device__
#endif
static int km_nearest(const float *x, long n, long i, const double *centre) {
  int best = 0;
  double bd = 0;
  for (int c = 0; c < KM_K; c++) {
    double d = 0;
    for (int f = 0; f < KM_F; f++) {
      double t = x[f * n + i] - centre[c * KM_F + f];
      d += t * t;
    }
    if (c == 0 || d < bd) {
      bd = d;
      best = c;
    }
  }
  return best;
}

static int km_check(const float *x, int n, int iters, const double *centre, const int *member) {
  double *ref = (double *)bench_alloc(sizeof(double) * KM_K * KM_F);
  double *sum = (double *)bench_alloc(sizeof(double) * KM_K * KM_F);
  int *rm = (int *)bench_alloc(sizeof(int) * n), cnt[KM_K];
  for (int c = 0; c < KM_K; c++)
    for (int f = 0; f < KM_F; f++) ref[c * KM_F + f] = x[(long)f * n + c];
  for (int it = 0; it < iters; it++) {
    for (int i = 0; i < n; i++) rm[i] = km_nearest(x, n, i, ref);
    memset(sum, 0, sizeof(double) * KM_K * KM_F);
    memset(cnt, 0, sizeof cnt);
    for (int i = 0; i < n; i++) {
      cnt[rm[i]]++;
      for (int f = 0; f < KM_F; f++) sum[rm[i] * KM_F + f] += x[(long)f * n + i];
    }
    for (int c = 0; c < KM_K; c++)
      for (int f = 0; f < KM_F; f++)
        if (cnt[c]) ref[c * KM_F + f] = sum[c * KM_F + f] / cnt[c];
  }
  int wrong = 0;
  double worst = 0;
  for (int i = 0; i < n; i++) wrong += rm[i] != member[i];
  for (int k = 0; k < KM_K * KM_F; k++) {
    double e = fabs(ref[k] - centre[k]);
    if (!(e <= worst)) worst = e;
  }
  /* a distance computed with a fused multiply-add may break a near-tie the other way */
  printf("kmeans: %d points, %d iterations, %d memberships differ, largest centre difference %.3g\n", n, iters, wrong, worst);
  free(ref);
  free(sum);
  free(rm);
  return wrong <= n / 100000 && worst < 1e-3;
}
#endif
