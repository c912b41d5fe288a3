/* imghisto, OpenMP offload (see imghisto.h).
 * Nested (default): one team per band of IH_ROWS_PER_TEAM rows; the team's bins live in the
 * master's frame (team-shared); a parallel region zeroes them, meets at a barrier, counts
 * with atomics, meets again and adds the band's counts to the global histogram.
 * -DSPMD: `target teams distribute parallel for collapse(2)` over the pixels, each pixel
 * an atomic increment of the global histogram. */
#include "imghisto.h"

int main(int argc, char **argv) {
  int side = bench_arg(argc, argv, 1, 4096), nbins = bench_arg(argc, argv, 2, 256);
  if (nbins > IH_MAX_BINS) nbins = IH_MAX_BINS;
  side = (side + IH_ROWS_PER_TEAM - 1) / IH_ROWS_PER_TEAM * IH_ROWS_PER_TEAM;
  const long n = (long)side * side;
  unsigned short *img = (unsigned short *)bench_alloc(sizeof(unsigned short) * n);
  unsigned *hist = (unsigned *)bench_alloc(sizeof(unsigned) * nbins);
  ih_make_image(img, side);
  bench_warmup();
  int reps = bench_reps();
  for (int rep = 0; rep < reps; rep++) {
    memset(hist, 0, sizeof(unsigned) * nbins);
    double kernel, t0 = BENCH_NOW();
#pragma omp target data map(to: img[0:n]) map(tofrom: hist[0:nbins])
    {
      double k0 = BENCH_NOW();
#ifndef SPMD
#pragma omp target teams distribute thread_limit(256)
      for (int band = 0; band < side / IH_ROWS_PER_TEAM; band++) {
        unsigned bins[IH_MAX_BINS]; /* the team's private histogram */
        const long first = (long)band * IH_ROWS_PER_TEAM * side, count = (long)IH_ROWS_PER_TEAM * side;
#pragma omp parallel
        {
          int t = omp_get_thread_num(), nt = omp_get_num_threads();
          for (int b = t; b < nbins; b += nt) bins[b] = 0;
#pragma omp barrier
          for (long i = t; i < count; i += nt) {
            int b = img[first + i] * nbins / 4096;
#pragma omp atomic
            bins[b]++;
          }
#pragma omp barrier
          for (int b = t; b < nbins; b += nt)
            if (bins[b]) {
#pragma omp atomic
              hist[b] += bins[b];
            }
        }
      }
#else
#pragma omp target teams distribute parallel for collapse(2)
      for (int r = 0; r < side; r++)
        for (int c = 0; c < side; c++) {
          int b = img[(long)r * side + c] * nbins / 4096;
#pragma omp atomic
          hist[b]++;
        }
#endif
      kernel = BENCH_NOW() - k0;
    }
    bench_report("imghisto", rep, kernel, BENCH_NOW() - t0);
  }
  return bench_finish(ih_check(img, side, nbins, hist));
}
