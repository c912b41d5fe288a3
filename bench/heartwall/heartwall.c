/* heartwall, OpenMP offload. See heartwall.h for the algorithm and the sizes.
 *
 *     ompgpu cc heartwall.c -o heartwall && ./heartwall [frames]      (default 20 frames)
 *
 * Default (nested) version: one team per tracked point (`target teams distribute`); the
 * team's master runs the per-point serial code (window bounds, the chosen position) and
 * forks the team for each step (window copy, row and column scans, template sums, the
 * 961 correlation scores, the max and argmax reductions, the template update).
 * -DSPMD: the flat version, a chain of `target teams distribute parallel for collapse(2)`
 * kernels over (point, element) per frame, with the per-point reductions as
 * one-thread-per-point loops. */
#include "heartwall.h"

#ifndef HW_THREADS
#define HW_THREADS 256
#endif

int main(int argc, char **argv) {
  int nframes = bench_arg(argc, argv, 1, HW_DEFAULT_FRAMES);
  if (nframes < 2) nframes = 2;
  const long fsize = (long)HW_ROWS * HW_COLS;
  int *frames = (int *)bench_alloc(sizeof(int) * fsize * nframes);
  hw_make_frames(frames, nframes);
  int *row = (int *)bench_alloc(sizeof(int) * HW_POINTS), *col = (int *)bench_alloc(sizeof(int) * HW_POINTS);
  int *tmpl = (int *)bench_alloc(sizeof(int) * HW_POINTS * HW_TN);
  int *traj_row = (int *)bench_alloc(sizeof(int) * HW_POINTS * nframes);
  int *traj_col = (int *)bench_alloc(sizeof(int) * HW_POINTS * nframes);
  /* per-point scratch on the device: search window, integral images, scores */
  int *win = (int *)bench_alloc(sizeof(int) * HW_POINTS * HW_WN);
  long long *ii = (long long *)bench_alloc(sizeof(long long) * HW_POINTS * HW_IN);
  long long *ii2 = (long long *)bench_alloc(sizeof(long long) * HW_POINTS * HW_IN);
  double *score = (double *)bench_alloc(sizeof(double) * HW_POINTS * HW_CN);
  long long *tsum = (long long *)bench_alloc(sizeof(long long) * HW_POINTS * 2);
  const long nall = fsize * nframes;

  bench_warmup();
  int reps = bench_reps();
  for (int rep = 0; rep < reps; rep++) {
    hw_initial_points(row, col);
    hw_initial_templates(frames, row, col, tmpl);
    double kernel = 0, t0 = BENCH_NOW();
#pragma omp target data map(to: frames[0:nall], row[0:HW_POINTS], col[0:HW_POINTS]) map(tofrom: tmpl[0:HW_POINTS * HW_TN]) \
    map(from: traj_row[0:HW_POINTS * nframes], traj_col[0:HW_POINTS * nframes])                                          \
    map(alloc: win[0:HW_POINTS * HW_WN], ii[0:HW_POINTS * HW_IN], ii2[0:HW_POINTS * HW_IN], score[0:HW_POINTS * HW_CN], \
        tsum[0:HW_POINTS * 2])
    for (int f = 1; f < nframes; f++) {
      double k0 = BENCH_NOW();
#ifndef SPMD
#pragma omp target teams distribute num_teams(HW_POINTS) thread_limit(HW_THREADS) firstprivate(f)
      for (int p = 0; p < HW_POINTS; p++) {
        /* serial: this point's slices and search window */
        const int *img = frames + (long)f * HW_ROWS * HW_COLS;
        int *w = win + p * HW_WN, *tp = tmpl + p * HW_TN;
        long long *s1 = ii + p * HW_IN, *s2 = ii2 + p * HW_IN;
        double *sc = score + p * HW_CN;
        int wr = hw_window_origin(row[p], HW_ROWS), wc = hw_window_origin(col[p], HW_COLS);

#pragma omp parallel for
        for (int i = 0; i < HW_WN; i++) w[i] = img[(wr + i / HW_WS) * HW_COLS + wc + i % HW_WS];

        /* integral images: scan each row, then each column (row 0 and column 0 stay zero) */
#pragma omp parallel for
        for (int r = 0; r < HW_IS; r++) {
          long long a1 = 0, a2 = 0;
          s1[r * HW_IS] = 0;
          s2[r * HW_IS] = 0;
          for (int c = 1; c < HW_IS; c++) {
            long long v = r ? w[(r - 1) * HW_WS + c - 1] : 0;
            a1 += v;
            a2 += v * v;
            s1[r * HW_IS + c] = a1;
            s2[r * HW_IS + c] = a2;
          }
        }
#pragma omp parallel for
        for (int c = 1; c < HW_IS; c++) {
          long long a1 = 0, a2 = 0;
          for (int r = 1; r < HW_IS; r++) {
            a1 += s1[r * HW_IS + c];
            a2 += s2[r * HW_IS + c];
            s1[r * HW_IS + c] = a1;
            s2[r * HW_IS + c] = a2;
          }
        }

        long long ty = 0, tyy = 0;
#pragma omp parallel for reduction(+: ty, tyy)
        for (int k = 0; k < HW_TN; k++) {
          ty += tp[k];
          tyy += (long long)tp[k] * tp[k];
        }

        /* the correlation of the template with every candidate position */
#pragma omp parallel for
        for (int q = 0; q < HW_CN; q++) {
          int a = q / HW_CS, b = q % HW_CS;
          int sxy = 0;
          for (int i = 0; i < HW_TS; i++)
            for (int j = 0; j < HW_TS; j++) sxy += w[(a + i) * HW_WS + b + j] * tp[i * HW_TS + j];
          int a2 = a + HW_TS, b2 = b + HW_TS;
          long long sx = s1[a2 * HW_IS + b2] - s1[a * HW_IS + b2] - s1[a2 * HW_IS + b] + s1[a * HW_IS + b];
          long long sxx = s2[a2 * HW_IS + b2] - s2[a * HW_IS + b2] - s2[a2 * HW_IS + b] + s2[a * HW_IS + b];
          sc[q] = hw_score(sxy, sx, sxx, ty, tyy);
        }

        double best = -3.0;
#pragma omp parallel for reduction(max: best)
        for (int q = 0; q < HW_CN; q++)
          if (sc[q] > best) best = sc[q];
        int bi = HW_CN;
#pragma omp parallel for reduction(min: bi)
        for (int q = 0; q < HW_CN; q++)
          if (sc[q] == best && q < bi) bi = q;

        /* serial: move the point */
        int nr = wr + bi / HW_CS + HW_TH, nc = wc + bi % HW_CS + HW_TH;
        row[p] = nr;
        col[p] = nc;
        traj_row[f * HW_POINTS + p] = nr;
        traj_col[f * HW_POINTS + p] = nc;

#pragma omp parallel for
        for (int k = 0; k < HW_TN; k++)
          tp[k] = (7 * tp[k] + img[(nr - HW_TH + k / HW_TS) * HW_COLS + nc - HW_TH + k % HW_TS] + 4) / 8;
      }
#else
#pragma omp target teams distribute parallel for collapse(2) firstprivate(f)
      for (int p = 0; p < HW_POINTS; p++)
        for (int i = 0; i < HW_WN; i++) {
          int wr = hw_window_origin(row[p], HW_ROWS), wc = hw_window_origin(col[p], HW_COLS);
          win[p * HW_WN + i] = frames[(long)f * HW_ROWS * HW_COLS + (wr + i / HW_WS) * HW_COLS + wc + i % HW_WS];
        }
#pragma omp target teams distribute parallel for collapse(2)
      for (int p = 0; p < HW_POINTS; p++)
        for (int r = 0; r < HW_IS; r++) {
          long long a1 = 0, a2 = 0;
          long long *s1 = ii + p * HW_IN + r * HW_IS, *s2 = ii2 + p * HW_IN + r * HW_IS;
          s1[0] = 0;
          s2[0] = 0;
          for (int c = 1; c < HW_IS; c++) {
            long long v = r ? win[p * HW_WN + (r - 1) * HW_WS + c - 1] : 0;
            a1 += v;
            a2 += v * v;
            s1[c] = a1;
            s2[c] = a2;
          }
        }
#pragma omp target teams distribute parallel for collapse(2)
      for (int p = 0; p < HW_POINTS; p++)
        for (int c = 1; c < HW_IS; c++) {
          long long a1 = 0, a2 = 0;
          long long *s1 = ii + p * HW_IN + c, *s2 = ii2 + p * HW_IN + c;
          for (int r = 1; r < HW_IS; r++) {
            a1 += s1[r * HW_IS];
            a2 += s2[r * HW_IS];
            s1[r * HW_IS] = a1;
            s2[r * HW_IS] = a2;
          }
        }
#pragma omp target teams distribute parallel for
      for (int p = 0; p < HW_POINTS; p++) {
        long long ty = 0, tyy = 0;
        for (int k = 0; k < HW_TN; k++) {
          ty += tmpl[p * HW_TN + k];
          tyy += (long long)tmpl[p * HW_TN + k] * tmpl[p * HW_TN + k];
        }
        tsum[2 * p] = ty;
        tsum[2 * p + 1] = tyy;
      }
#pragma omp target teams distribute parallel for collapse(2)
      for (int p = 0; p < HW_POINTS; p++)
        for (int q = 0; q < HW_CN; q++) {
          const int *w = win + p * HW_WN, *tp = tmpl + p * HW_TN;
          const long long *s1 = ii + p * HW_IN, *s2 = ii2 + p * HW_IN;
          int a = q / HW_CS, b = q % HW_CS;
          int sxy = 0;
          for (int i = 0; i < HW_TS; i++)
            for (int j = 0; j < HW_TS; j++) sxy += w[(a + i) * HW_WS + b + j] * tp[i * HW_TS + j];
          int a2 = a + HW_TS, b2 = b + HW_TS;
          long long sx = s1[a2 * HW_IS + b2] - s1[a * HW_IS + b2] - s1[a2 * HW_IS + b] + s1[a * HW_IS + b];
          long long sxx = s2[a2 * HW_IS + b2] - s2[a * HW_IS + b2] - s2[a2 * HW_IS + b] + s2[a * HW_IS + b];
          score[p * HW_CN + q] = hw_score(sxy, sx, sxx, tsum[2 * p], tsum[2 * p + 1]);
        }
#pragma omp target teams distribute parallel for firstprivate(f)
      for (int p = 0; p < HW_POINTS; p++) {
        double best = -3.0;
        int bi = 0;
        for (int q = 0; q < HW_CN; q++)
          if (score[p * HW_CN + q] > best) {
            best = score[p * HW_CN + q];
            bi = q;
          }
        int nr = hw_window_origin(row[p], HW_ROWS) + bi / HW_CS + HW_TH;
        int nc = hw_window_origin(col[p], HW_COLS) + bi % HW_CS + HW_TH;
        row[p] = nr;
        col[p] = nc;
        traj_row[f * HW_POINTS + p] = nr;
        traj_col[f * HW_POINTS + p] = nc;
      }
#pragma omp target teams distribute parallel for collapse(2) firstprivate(f)
      for (int p = 0; p < HW_POINTS; p++)
        for (int k = 0; k < HW_TN; k++) {
          int v = frames[(long)f * HW_ROWS * HW_COLS + (row[p] - HW_TH + k / HW_TS) * HW_COLS + col[p] - HW_TH + k % HW_TS];
          tmpl[p * HW_TN + k] = (7 * tmpl[p * HW_TN + k] + v + 4) / 8;
        }
#endif
      kernel += BENCH_NOW() - k0;
    }
    bench_report("heartwall", rep, kernel, BENCH_NOW() - t0);
  }
  return bench_finish(hw_check(frames, nframes, traj_row, traj_col, tmpl));
}
