/* stencil: the star stencil of radius R (1 to 4, chosen at compile time with -DSTENCIL_R)
 * over an n x n grid of doubles (4096 by default), out += S(in) on the interior, SWEEPS
 * times per repetition. Each of the 4R terms is written out, weight w_k = 1 / (2 k R), as
 * the Parallel Research Kernels' generated stencils do: long unrolled expressions.
 *     ./stencil [n=4096] */
#ifndef STENCIL_H
#define STENCIL_H
#include "../common/bench.h"

#ifndef STENCIL_R
#define STENCIL_R 2
#endif
#define STENCIL_SWEEPS 20

#define ST_IN(i, j) in[(long)(i) * n + (j)]
#define ST_W(k) (1.0 / (2.0 * (k) * STENCIL_R))
#define ST_RING(k) \
  + ST_IN(i, j - (k)) * -ST_W(k) + ST_IN(i, j + (k)) * ST_W(k) + ST_IN(i - (k), j) * -ST_W(k) + ST_IN(i + (k), j) * ST_W(k)
#if STENCIL_R == 1
#define ST_STAR ST_RING(1)
#elif STENCIL_R == 2
#define ST_STAR ST_RING(1) ST_RING(2)
#elif STENCIL_R == 3
#define ST_STAR ST_RING(1) ST_RING(2) ST_RING(3)
#elif STENCIL_R == 4
#define ST_STAR ST_RING(1) ST_RING(2) ST_RING(3) ST_RING(4)
#else
#error "STENCIL_R must be 1, 2, 3 or 4"
#endif

static int st_order(int argc, char **argv) {
  const int n = bench_arg(argc, argv, 1, 4096);
  if (n <= 2 * STENCIL_R) {
    fprintf(stderr, "n must be larger than %d\n", 2 * STENCIL_R);
    exit(2);
  }
  return n;
}

static double st_in(long i, long j) { return (double)(bench_hash((unsigned)(i * 7919 + j)) % 1024) / 64.0; }

static void st_fill(double *in, int n) {
  for (long i = 0; i < n; i++)
    for (long j = 0; j < n; j++) in[i * n + j] = st_in(i, j);
}

/* the serial reference: the same expression, SWEEPS times */
static int st_check(const double *in, const double *out, int n) {
  double worst = 0;
  for (int i = STENCIL_R; i < n - STENCIL_R; i++)
    for (int j = STENCIL_R; j < n - STENCIL_R; j++) {
      double ref = 0;
      for (int s = 0; s < STENCIL_SWEEPS; s++) ref += 0.0 ST_STAR;
      const double err = fabs(out[(long)i * n + j] - ref);
      if (!(err <= worst)) worst = err;
    }
  long edge = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      if (i < STENCIL_R || j < STENCIL_R || i >= n - STENCIL_R || j >= n - STENCIL_R) edge += out[(long)i * n + j] != 0.0;
  printf("stencil: radius %d, %d x %d, largest error %.3g, %ld boundary points written\n", STENCIL_R, n, n, worst, edge);
  return worst <= 1e-9 && edge == 0;
}
#endif
