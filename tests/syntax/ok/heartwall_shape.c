/* a larger kernel in the heartwall shape: teams distribute over points, serial bounds, a sequence of parallel for regions with reductions and serial code between them, master-stack arrays, declare target helpers, target data around a frame loop */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define NPOINTS 51
#define TSIZE 11
#define SRAD 8
#define IMG_H 200
#define IMG_W 240

typedef struct {
  int row, col;
  float score;
} track_t;

#pragma omp declare target
static inline int clampi(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }
static float pixel(const float *img, int r, int c) { return img[clampi(r, 0, IMG_H - 1) * IMG_W + clampi(c, 0, IMG_W - 1)]; }
#pragma omp end declare target

static void track_frame(const float *prev, const float *cur, track_t *pts) {
#pragma omp target teams distribute map(to: prev[0:IMG_H * IMG_W], cur[0:IMG_H * IMG_W]) map(tofrom: pts[0:NPOINTS]) thread_limit(128)
  for (int p = 0; p < NPOINTS; p++) {
    const int r0 = pts[p].row, c0 = pts[p].col;
    const int half = TSIZE / 2;
    const int rlo = clampi(r0 - SRAD, half, IMG_H - 1 - half), rhi = clampi(r0 + SRAD, half, IMG_H - 1 - half);
    const int clo = clampi(c0 - SRAD, half, IMG_W - 1 - half), chi = clampi(c0 + SRAD, half, IMG_W - 1 - half);
    const int nr = rhi - rlo + 1, nc = chi - clo + 1;
    float tmpl[TSIZE * TSIZE];
    float corr[(2 * SRAD + 1) * (2 * SRAD + 1)];
    float mean = 0.0f, var = 0.0f;

#pragma omp parallel for reduction(+: mean)
    for (int k = 0; k < TSIZE * TSIZE; k++) {
      tmpl[k] = pixel(prev, r0 - half + k / TSIZE, c0 - half + k % TSIZE);
      mean += tmpl[k];
    }
    mean /= (float)(TSIZE * TSIZE);

#pragma omp parallel for reduction(+: var)
    for (int k = 0; k < TSIZE * TSIZE; k++) {
      tmpl[k] -= mean;
      var += tmpl[k] * tmpl[k];
    }
    const float inv = var > 0.0f ? 1.0f / sqrtf(var) : 0.0f;

#pragma omp parallel for collapse(2) schedule(static, 1)
    for (int a = 0; a < nr; a++)
      for (int b = 0; b < nc; b++) {
        float s = 0.0f;
        for (int k = 0; k < TSIZE * TSIZE; k++) s += tmpl[k] * pixel(cur, rlo + a - half + k / TSIZE, clo + b - half + k % TSIZE);
        corr[a * nc + b] = s * inv;
      }

    float best = -INFINITY;
#pragma omp parallel for reduction(max: best)
    for (int q = 0; q < nr * nc; q++) best = fmaxf(best, corr[q]);

    int where = nr * nc;
#pragma omp parallel for reduction(min: where)
    for (int q = 0; q < nr * nc; q++)
      if (corr[q] == best && q < where) where = q;

    pts[p].row = rlo + where / nc;
    pts[p].col = clo + where % nc;
    pts[p].score = best;
  }
}

int main(void) {
  float *frames = malloc(3 * (size_t)IMG_H * IMG_W * sizeof *frames);
  for (int f = 0; f < 3; f++)
    for (int r = 0; r < IMG_H; r++)
      for (int c = 0; c < IMG_W; c++)
        frames[(size_t)f * IMG_H * IMG_W + r * IMG_W + c] = sinf(0.1f * (r - 2 * f)) * cosf(0.07f * (c - f));
  track_t pts[NPOINTS];
  for (int p = 0; p < NPOINTS; p++) pts[p] = (track_t){20 + (p % 10) * 16, 20 + (p / 10) * 40, 0.0f};
#pragma omp target data map(to: frames[0:3 * IMG_H * IMG_W])
  for (int f = 1; f < 3; f++) track_frame(frames + (size_t)(f - 1) * IMG_H * IMG_W, frames + (size_t)f * IMG_H * IMG_W, pts);
  printf("%d %d %f\n", pts[0].row, pts[0].col, pts[0].score);
  free(frames);
  return 0;
}
