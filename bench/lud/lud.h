/* lud: LU decomposition without pivoting (Doolittle, right-looking, in place) of a
 * diagonally dominant n x n float matrix: for each k, l(i) = a[i][k] / a[k][k] and
 * a[i][j] -= l(i) * a[k][j] for i, j > k. Shared by lud.c (OpenMP) and lud.cu.
 *     ./lud [n=1024] */
#ifndef LUD_H
#define LUD_H
#include "../common/bench.h"

static void lud_make(float *a, int n) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) a[(long)i * n + j] = bench_unit(i * n + j, 7) - 0.5f + (i == j ? (float)n * 0.5f : 0.0f);
}

static int lud_check(const float *a0, const float *lu, int n) {
  float *ref = (float *)bench_alloc(sizeof(float) * n * n);
  memcpy(ref, a0, sizeof(float) * n * n);
  for (int k = 0; k < n; k++)
    for (int i = k + 1; i < n; i++) {
      float l = ref[(long)i * n + k] / ref[(long)k * n + k];
      ref[(long)i * n + k] = l;
      for (int j = k + 1; j < n; j++) ref[(long)i * n + j] -= l * ref[(long)k * n + j];
    }
  double worst = 0;
  for (long i = 0; i < (long)n * n; i++) {
    double e = fabs((double)lu[i] - ref[i]) / (1.0 + fabs((double)ref[i]));
    if (!(e <= worst)) worst = e;
  }
  printf("lud: n=%d, largest relative difference from the CPU reference %.3g\n", n, worst);
  free(ref);
  return worst < 1e-4;
}
#endif
