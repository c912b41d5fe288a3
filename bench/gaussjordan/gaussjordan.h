/* gaussjordan: invert a batch of small diagonally dominant matrices by Gauss-Jordan
 * elimination on the augmented matrix [A | I], in place, without pivoting.
 * Shared by gaussjordan.c (OpenMP) and gaussjordan.cu.
 *     ./gaussjordan [matrices=8192] (each GJ_M x GJ_M, GJ_M = 32) */
#ifndef GAUSSJORDAN_H
#define GAUSSJORDAN_H
#include "../common/bench.h"

#define GJ_M 32
#define GJ_W (2 * GJ_M)
#define GJ_SIZE (GJ_M * GJ_W)

static void gj_make(float *aug, int batch) {
  for (long b = 0; b < batch; b++)
    for (int i = 0; i < GJ_M; i++)
      for (int j = 0; j < GJ_W; j++)
        aug[b * GJ_SIZE + i * GJ_W + j] =
            j < GJ_M ? bench_unit((unsigned)(b * GJ_M * GJ_M + i * GJ_M + j), 11) - 0.5f + (i == j ? GJ_M * 0.5f : 0.0f)
                     : (j - GJ_M == i ? 1.0f : 0.0f);
}

static void gj_reference(float *m) {
  float f[GJ_M];
  for (int k = 0; k < GJ_M; k++) {
    float piv = m[k * GJ_W + k];
    for (int j = 0; j < GJ_W; j++) m[k * GJ_W + j] /= piv;
    for (int i = 0; i < GJ_M; i++) f[i] = m[i * GJ_W + k];
    for (int i = 0; i < GJ_M; i++)
      if (i != k)
        for (int j = 0; j < GJ_W; j++) m[i * GJ_W + j] -= f[i] * m[k * GJ_W + j];
  }
}

static int gj_check(const float *aug0, const float *aug, int batch) {
  float m[GJ_SIZE];
  double worst = 0;
  for (long b = 0; b < batch; b++) {
    memcpy(m, aug0 + b * GJ_SIZE, sizeof m);
    gj_reference(m);
    for (int k = 0; k < GJ_SIZE; k++) {
      double e = fabs((double)m[k] - aug[b * GJ_SIZE + k]);
      if (!(e <= worst)) worst = e;
    }
  }
  printf("gaussjordan: %d matrices of %dx%d, largest difference from the CPU reference %.3g\n", batch, GJ_M, GJ_M, worst);
  return worst < 1e-5;
}
#endif
