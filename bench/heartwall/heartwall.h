/* heartwall: track 51 points on the wall of a beating heart through a frame sequence.
 * Problem definition shared by heartwall.c (OpenMP, nested or -DSPMD) and heartwall.cu.
 *
 * Sizes are those of the Rodinia benchmark: 609 x 590 frames, 51 points (20 on the inner
 * wall, 31 on the outer), a 51 x 51 template (half size 25) matched inside an 81 x 81 search
 * window (half size 40), so 31 x 31 candidate positions per point and frame.
 *
 * Per point and frame: copy the search window, build integral images of the window and of
 * its square (row scans, then column scans), sum the template, score every candidate
 * position by normalised cross-correlation (numerator over the 51 x 51 template, local sums
 * from the integral images), find the best score and its first position, move the point
 * there, and blend the matched patch into the template.
 *
 * The frames are integers and every sum is an exact integer, and the score uses only
 * correctly rounded double operations, so every compiler and the CPU reference pick the
 * same positions: the check is exact. */
#ifndef HEARTWALL_H
#define HEARTWALL_H
#include "../common/bench.h"

/* the two helpers the kernels call are device functions in the CUDA version too */
#ifdef BENCH_CUDA
#define HW_HD __host__ __device__
#else
#define HW_HD
#endif

#define HW_ROWS 609
#define HW_COLS 590
#define HW_POINTS 51
#define HW_TH 25                        /* template half size */
#define HW_TS (2 * HW_TH + 1)           /* 51 */
#define HW_TN (HW_TS * HW_TS)           /* 2601 template pixels */
#define HW_SH 40                        /* search window half size */
#define HW_WS (2 * HW_SH + 1)           /* 81 */
#define HW_WN (HW_WS * HW_WS)           /* 6561 window pixels */
#define HW_IS (HW_WS + 1)               /* integral image side, with a zero row and column */
#define HW_IN (HW_IS * HW_IS)
#define HW_CS (HW_WS - HW_TS + 1)       /* 31 candidate offsets per axis */
#define HW_CN (HW_CS * HW_CS)           /* 961 candidates */
#define HW_DEFAULT_FRAMES 20

/* smooth value noise on an 8-pixel lattice, 0..255 */
static double hw_noise(double y, double x) {
  double fy = floor(y / 8.0), fx = floor(x / 8.0);
  double ty = y / 8.0 - fy, tx = x / 8.0 - fx;
  int iy = (int)fy + 1000, ix = (int)fx + 1000;
  double v00 = bench_hash((unsigned)(iy * 7919 + ix)) & 255, v01 = bench_hash((unsigned)(iy * 7919 + ix + 1)) & 255;
  double v10 = bench_hash((unsigned)((iy + 1) * 7919 + ix)) & 255, v11 = bench_hash((unsigned)((iy + 1) * 7919 + ix + 1)) & 255;
  ty = ty * ty * (3 - 2 * ty);
  tx = tx * tx * (3 - 2 * tx);
  return (v00 * (1 - tx) + v01 * tx) * (1 - ty) + (v10 * (1 - tx) + v11 * tx) * ty;
}

/* frame f: the texture scaled about the centre of the heart (it beats) and drifting */
static void hw_make_frames(int *frames, int nframes) {
  for (int f = 0; f < nframes; f++) {
    double scale = 1.0 + 0.05 * sin(6.283185307179586 * f / 16.0);
    double dy = 0.6 * f, dx = 0.3 * f;
    int *img = frames + (size_t)f * HW_ROWS * HW_COLS;
    for (int r = 0; r < HW_ROWS; r++)
      for (int c = 0; c < HW_COLS; c++) {
        double y = 304.0 + (r - 304.0) / scale - dy, x = 295.0 + (c - 295.0) / scale - dx;
        double v = 0.7 * hw_noise(y, x) + 0.3 * hw_noise(y * 0.5 + 500.0, x * 0.5);
        img[r * HW_COLS + c] = (int)v;
      }
  }
}

/* 20 points on an inner ellipse (endocardium), 31 on an outer one (epicardium) */
static void hw_initial_points(int *row, int *col) {
  for (int p = 0; p < HW_POINTS; p++) {
    int inner = p < 20;
    double a = 6.283185307179586 * (inner ? p / 20.0 : (p - 20) / 31.0);
    double ry = inner ? 90.0 : 170.0, rx = inner ? 70.0 : 150.0;
    row[p] = 304 + (int)(ry * sin(a));
    col[p] = 295 + (int)(rx * cos(a));
  }
}

/* top-left corner of the search window, kept inside the frame */
HW_HD static int hw_window_origin(int center, int size) {
  int o = center - HW_SH;
  if (o < 0) o = 0;
  if (o > size - HW_WS) o = size - HW_WS;
  return o;
}

/* normalised cross-correlation from exact integer sums; only +, *, / and sqrt on doubles,
 * each correctly rounded, so the device and the host agree bit for bit */
HW_HD static double hw_score(long long sxy, long long sx, long long sxx, long long ty, long long tyy) {
  long long num = (long long)HW_TN * sxy - sx * ty;
  long long dw = (long long)HW_TN * sxx - sx * sx;
  long long dt = (long long)HW_TN * tyy - ty * ty;
  double den = (double)dw * (double)dt;
  if (den <= 0.0) return -2.0;
  return (double)num / sqrt(den);
}

/* the serial algorithm, one point through one frame */
static void hw_reference_step(const int *img, int *tmpl, int *prow, int *pcol) {
  static int win[HW_WN];
  static long long ii[HW_IN], ii2[HW_IN];
  int wr = hw_window_origin(*prow, HW_ROWS), wc = hw_window_origin(*pcol, HW_COLS);
  for (int i = 0; i < HW_WN; i++) win[i] = img[(wr + i / HW_WS) * HW_COLS + wc + i % HW_WS];
  for (int i = 0; i < HW_IN; i++) ii[i] = ii2[i] = 0;
  for (int r = 0; r < HW_WS; r++)
    for (int c = 0; c < HW_WS; c++) {
      long long v = win[r * HW_WS + c];
      ii[(r + 1) * HW_IS + c + 1] = v + ii[r * HW_IS + c + 1] + ii[(r + 1) * HW_IS + c] - ii[r * HW_IS + c];
      ii2[(r + 1) * HW_IS + c + 1] = v * v + ii2[r * HW_IS + c + 1] + ii2[(r + 1) * HW_IS + c] - ii2[r * HW_IS + c];
    }
  long long ty = 0, tyy = 0;
  for (int k = 0; k < HW_TN; k++) {
    ty += tmpl[k];
    tyy += (long long)tmpl[k] * tmpl[k];
  }
  double best = -3.0;
  int bi = 0;
  for (int q = 0; q < HW_CN; q++) {
    int a = q / HW_CS, b = q % HW_CS;
    int sxy = 0;
    for (int i = 0; i < HW_TS; i++)
      for (int j = 0; j < HW_TS; j++) sxy += win[(a + i) * HW_WS + b + j] * tmpl[i * HW_TS + j];
    int a2 = a + HW_TS, b2 = b + HW_TS;
    long long sx = ii[a2 * HW_IS + b2] - ii[a * HW_IS + b2] - ii[a2 * HW_IS + b] + ii[a * HW_IS + b];
    long long sxx = ii2[a2 * HW_IS + b2] - ii2[a * HW_IS + b2] - ii2[a2 * HW_IS + b] + ii2[a * HW_IS + b];
    double s = hw_score(sxy, sx, sxx, ty, tyy);
    if (s > best) {
      best = s;
      bi = q;
    }
  }
  int nr = wr + bi / HW_CS + HW_TH, nc = wc + bi % HW_CS + HW_TH;
  for (int k = 0; k < HW_TN; k++)
    tmpl[k] = (7 * tmpl[k] + img[(nr - HW_TH + k / HW_TS) * HW_COLS + nc - HW_TH + k % HW_TS] + 4) / 8;
  *prow = nr;
  *pcol = nc;
}

static void hw_initial_templates(const int *frame0, const int *row, const int *col, int *tmpl) {
  for (int p = 0; p < HW_POINTS; p++)
    for (int k = 0; k < HW_TN; k++)
      tmpl[p * HW_TN + k] = frame0[(row[p] - HW_TH + k / HW_TS) * HW_COLS + col[p] - HW_TH + k % HW_TS];
}

/* runs the reference over all frames and compares the trajectories and final templates */
static int hw_check(const int *frames, int nframes, const int *traj_row, const int *traj_col, const int *tmpl_out) {
  int *row = (int *)bench_alloc(sizeof(int) * HW_POINTS), *col = (int *)bench_alloc(sizeof(int) * HW_POINTS);
  int *tmpl = (int *)bench_alloc(sizeof(int) * HW_POINTS * HW_TN);
  hw_initial_points(row, col);
  hw_initial_templates(frames, row, col, tmpl);
  int bad = 0;
  long long moved = 0;
  for (int f = 1; f < nframes; f++)
    for (int p = 0; p < HW_POINTS; p++) {
      int r0 = row[p], c0 = col[p];
      hw_reference_step(frames + (size_t)f * HW_ROWS * HW_COLS, tmpl + p * HW_TN, &row[p], &col[p]);
      moved += abs(row[p] - r0) + abs(col[p] - c0);
      int t = f * HW_POINTS + p;
      if (traj_row[t] != row[p] || traj_col[t] != col[p]) {
        if (bad < 5) printf("frame %d point %d: got (%d,%d), expected (%d,%d)\n", f, p, traj_row[t], traj_col[t], row[p], col[p]);
        bad++;
      }
    }
  for (int i = 0; i < HW_POINTS * HW_TN; i++)
    if (tmpl[i] != tmpl_out[i]) {
      if (bad < 5) printf("template value %d: got %d, expected %d\n", i, tmpl_out[i], tmpl[i]);
      bad++;
      break;
    }
  printf("heartwall: %d frames of %dx%d, %d points, %d mismatches, total motion %lld pixels\n", nframes, HW_ROWS,
         HW_COLS, HW_POINTS, bad, moved);
  free(row);
  free(col);
  free(tmpl);
  return bad == 0;
}
#endif
