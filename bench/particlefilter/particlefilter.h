/* particlefilter: one step of a particle filter tracking a bright disk in a noisy 128x128
 * frame: each particle's likelihood sums, over the 69 pixels of a radius-5 disk around the
 * particle, ((I - 100)^2 - (I - 228)^2) / 50; the host normalises the weights
 * (exp(likelihood)) into a CDF; then systematic resampling finds, for each particle j, the
 * first i with cdf[i] >= (j + u) / N. Shared by particlefilter.c (OpenMP) and .cu.
 *     ./particlefilter [particles=16384] */
#ifndef PARTICLEFILTER_H
#define PARTICLEFILTER_H
#include "../common/bench.h"

#define PF_SIDE 128
#define PF_RADIUS 5
#define PF_MAXDISK 128

static int pf_disk(int *dy, int *dx) {
  int n = 0;
  for (int y = -PF_RADIUS; y <= PF_RADIUS; y++)
    for (int x = -PF_RADIUS; x <= PF_RADIUS; x++)
      if (y * y + x * x <= PF_RADIUS * PF_RADIUS - 4) { /* 69 offsets, as in the classic disk */
        dy[n] = y;
        dx[n] = x;
        n++;
      }
  return n;
}

static void pf_make(unsigned char *img, float *px, float *py, int n) {
  for (int r = 0; r < PF_SIDE; r++)
    for (int c = 0; c < PF_SIDE; c++) {
      int in = (r - 64) * (r - 64) + (c - 60) * (c - 60) <= 36;
      int v = (in ? 228 : 100) + (int)(bench_hash(r * PF_SIDE + c) % 41) - 20;
      img[r * PF_SIDE + c] = (unsigned char)v;
    }
  for (int i = 0; i < n; i++) {
    px[i] = 60.0f + (bench_unit(i, 1) - 0.5f) * 24.0f;
    py[i] = 64.0f + (bench_unit(i, 2) - 0.5f) * 24.0f;
  }
}

#ifdef BENCH_CUDA
__host__ __device__
#endif
static inline float pf_pixel_term(const unsigned char *img, float x, float y, int dy, int dx) {
  int r = (int)y + dy, c = (int)x + dx;
  r = r < 0 ? 0 : r >= PF_SIDE ? PF_SIDE - 1 : r;
  c = c < 0 ? 0 : c >= PF_SIDE ? PF_SIDE - 1 : c;
  float v = img[r * PF_SIDE + c];
  return ((v - 100.0f) * (v - 100.0f) - (v - 228.0f) * (v - 228.0f)) / 50.0f;
}

/* host: weights from the likelihoods, then their running sum */
static void pf_cdf(const float *like, int n, int ndisk, double *cdf) {
  double maxl = -1e300, total = 0;
  for (int i = 0; i < n; i++)
    if (like[i] > maxl) maxl = like[i];
  for (int i = 0; i < n; i++) {
    total += exp((like[i] - maxl) / ndisk);
    cdf[i] = total;
  }
  for (int i = 0; i < n; i++) cdf[i] /= total;
  cdf[n - 1] = 1.0;
}

static int pf_check(const unsigned char *img, const float *px, const float *py, int n, const float *like,
                    const double *cdf, const int *pick) {
  int dy[PF_MAXDISK], dx[PF_MAXDISK], nd = pf_disk(dy, dx);
  double worst = 0;
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int k = 0; k < nd; k++) s += pf_pixel_term(img, px[i], py[i], dy[k], dx[k]);
    double e = fabs(s - like[i]) / (1 + fabs(s));
    if (!(e <= worst)) worst = e;
  }
  int bad = 0;
  for (int j = 0; j < n; j++) { /* resampling is checked on the run's own CDF: exact */
    double u = (j + 0.5) / n;
    int i = 0;
    while (i < n - 1 && cdf[i] < u) i++;
    bad += pick[j] != i;
  }
  printf("particlefilter: %d particles, %d disk pixels, likelihood error %.3g, %d wrong resamples\n", n, nd, worst, bad);
  return worst < 1e-4 && bad == 0;
}
#endif
