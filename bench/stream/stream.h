/* stream: the STREAM triad a[i] = b[i] + s * c[i] over n doubles (2^26 by default: 1.5 GiB
 * moved per sweep), STREAM_SWEEPS sweeps per repetition. Shared by stream.c (OpenMP) and
 * stream.cu.
 *     ./stream [log2(n)=26] */
#ifndef STREAM_H
#define STREAM_H
#include "../common/bench.h"

#define STREAM_SWEEPS 10
#define STREAM_SCALAR 3.0

static double stream_b(long i) { return (double)(i % 1000); }
static double stream_c(long i) { return 0.5 + (double)(i % 7); }

static void stream_fill(double *b, double *c, long n) {
  for (long i = 0; i < n; i++) {
    b[i] = stream_b(i);
    c[i] = stream_c(i);
  }
}

static long stream_length(int argc, char **argv) {
  const int log2n = bench_arg(argc, argv, 1, 26);
  if (log2n > 32) {
    fprintf(stderr, "log2(n) must be at most 32\n");
    exit(2);
  }
  return 1L << log2n;
}

/* every element is exact (small integers and halves times 3); the bandwidth counts the three
 * arrays of every sweep */
static int stream_check(const double *a, long n, double kernel_s) {
  long bad = 0;
  for (long i = 0; i < n; i++) bad += a[i] != stream_b(i) + STREAM_SCALAR * stream_c(i);
  printf("stream: n = %ld, %.1f GB/s, %ld wrong elements\n", n,
         kernel_s > 0 ? 3.0 * (double)n * sizeof(double) * STREAM_SWEEPS / kernel_s * 1e-9 : 0.0, bad);
  return bad == 0;
}
#endif
