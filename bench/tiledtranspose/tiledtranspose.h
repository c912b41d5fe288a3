/* tiledtranspose: B = A^T for an n x n matrix of doubles (8192 by default), the
 * cache-blocked way: the loops over 32 x 32 tiles are collapsed and parallel, each tile is
 * copied by serial loops (as in the Parallel Research Kernels' OpenMP-target transpose).
 * SWEEPS transposes per repetition, each adding into B so that no sweep is dead code.
 *     ./tiledtranspose [n=8192] (a multiple of the tile) */
#ifndef TILEDTRANSPOSE_H
#define TILEDTRANSPOSE_H
#include "../common/bench.h"

#define TT_TILE 32
#define TT_SWEEPS 4

static int tt_order(int argc, char **argv) {
  const int n = bench_arg(argc, argv, 1, 8192);
  if (n % TT_TILE) {
    fprintf(stderr, "n must be a multiple of %d\n", TT_TILE);
    exit(2);
  }
  return n;
}

static double tt_a(long i, long j, int n) { return (double)(i * n + j); }

static void tt_fill(double *a, int n) {
  for (long i = 0; i < n; i++)
    for (long j = 0; j < n; j++) a[i * n + j] = tt_a(i, j, n);
}

/* B[j][i] = SWEEPS * A[i][j] exactly (the values are integers below 2^53) */
static int tt_check(const double *b, int n) {
  long bad = 0;
  for (long i = 0; i < n; i++)
    for (long j = 0; j < n; j++) bad += b[j * n + i] != TT_SWEEPS * tt_a(i, j, n);
  printf("tiledtranspose: %d x %d, %ld wrong elements\n", n, n, bad);
  return bad == 0;
}
#endif
