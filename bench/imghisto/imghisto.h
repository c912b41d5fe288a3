/* imghisto: histogram of a 12-bit image (values 0..4095) into N bins, bin = v * N / 4096.
 * The image is a smooth gradient plus noise, so some bins are hot (realistic contention).
 * Problem definition shared by imghisto.c (OpenMP) and imghisto.cu.
 *     ./imghisto [side=4096] [bins=256]      (side x side pixels, bins <= IH_MAX_BINS) */
#ifndef IMGHISTO_H
#define IMGHISTO_H
#include "../common/bench.h"

#define IH_MAX_BINS 4096
#define IH_ROWS_PER_TEAM 16

static void ih_make_image(unsigned short *img, int side) {
  for (int r = 0; r < side; r++)
    for (int c = 0; c < side; c++) {
      double g = 2048.0 + 1200.0 * sin(r * 0.003) * cos(c * 0.002);
      int v = (int)g + (int)(bench_hash((unsigned)(r * side + c)) % 512) - 256;
      img[(long)r * side + c] = (unsigned short)(v < 0 ? 0 : v > 4095 ? 4095 : v);
    }
}

static int ih_check(const unsigned short *img, int side, int nbins, const unsigned *hist) {
  unsigned *ref = (unsigned *)bench_alloc(sizeof(unsigned) * nbins);
  for (long i = 0; i < (long)side * side; i++) ref[img[i] * nbins / 4096]++;
  int bad = 0, hot = 0;
  for (int b = 0; b < nbins; b++) {
    if (ref[b] != hist[b]) {
      if (bad < 5) printf("bin %d: got %u, expected %u\n", b, hist[b], ref[b]);
      bad++;
    }
    if (ref[b] > ref[hot]) hot = b;
  }
  printf("imghisto: %dx%d pixels, %d bins, hottest bin %d (%u), %d wrong bins\n", side, side, nbins, hot, ref[hot], bad);
  free(ref);
  return bad == 0;
}
#endif
