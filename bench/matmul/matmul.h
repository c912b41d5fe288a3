/* matmul: C = A B for n x n matrices of doubles (2048 by default), the textbook loop nest:
 * the (i, j) loops collapsed and parallel, the k loop serial in each thread. The entries
 * are small integers, so every sum is exact and the check is exact: a sample of 4096
 * entries (and every entry when n <= 256) against a serial dot product.
 *     ./matmul [n=2048] */
#ifndef MATMUL_H
#define MATMUL_H
#include "../common/bench.h"

static double mm_a(long i, long k) { return (double)((int)(bench_hash((unsigned)(i * 65537 + k)) % 5) - 2); }
static double mm_b(long k, long j) { return (double)((int)(bench_hash((unsigned)(k * 40503 + j + 17)) % 7) - 3); }

static void mm_fill(double *a, double *b, int n) {
  for (long i = 0; i < n; i++)
    for (long j = 0; j < n; j++) {
      a[i * n + j] = mm_a(i, j);
      b[i * n + j] = mm_b(i, j);
    }
}

static int mm_check(const double *a, const double *b, const double *c, int n) {
  const long samples = n <= 256 ? (long)n * n : 4096;
  long bad = 0;
  for (long s = 0; s < samples; s++) {
    const long ij = n <= 256 ? s : (long)(bench_hash((unsigned)s + 99u) % ((unsigned)n * (unsigned)n));
    const long i = ij / n, j = ij % n;
    double ref = 0;
    for (long k = 0; k < n; k++) ref += a[i * n + k] * b[k * n + j];
    bad += c[ij] != ref;
  }
  printf("matmul: %d x %d, %ld of %ld sampled entries wrong\n", n, n, bad, samples);
  return bad == 0;
}
#endif
