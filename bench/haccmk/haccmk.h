/* haccmk: the short-range force loop of a HACC-like N-body code. Every particle i sums, over
 * a common list of neighbour particles j, the force f(r2) = m_j (1/(r2+s)^1.5 - poly5(r2))
 * (zero beyond the cut-off radius) times the separation, then kicks its velocity.
 * Shared by haccmk.c (OpenMP) and haccmk.cu.
 *     ./haccmk [particles=16384] [neighbours=4096] */
#ifndef HACCMK_H
#define HACCMK_H
#include "../common/bench.h"

#define HM_CUT2 0.25f
#define HM_SOFT 0.01f
#define HM_DT 0.001f

#ifdef BENCH_CUDA
__host__ __device__
#endif
static inline float hm_force(float r2, float m) {
  const float a0 = 0.269327f, a1 = -0.0750978f, a2 = 0.0114808f, a3 = -0.00109313f, a4 = 5.64403e-5f, a5 = -1.2303e-6f;
  float s = r2 + HM_SOFT;
  float f = 1.0f / (s * sqrtf(s)) - (a0 + r2 * (a1 + r2 * (a2 + r2 * (a3 + r2 * (a4 + r2 * a5)))));
  return (r2 < HM_CUT2 && r2 > 0.0f) ? m * f : 0.0f;
}

static void hm_make(float *x, float *y, float *z, float *m, int n, unsigned seed) {
  for (int i = 0; i < n; i++) {
    x[i] = bench_unit(i, seed);
    y[i] = bench_unit(i, seed + 1);
    z[i] = bench_unit(i, seed + 2);
    if (m) m[i] = 0.5f + bench_unit(i, seed + 3);
  }
}

static int hm_check(const float *x, const float *y, const float *z, int n, const float *nx, const float *ny,
                    const float *nz, const float *nm, int nn, const float *vx, const float *vy, const float *vz) {
  double worst = 0, scale = 0;
  for (int i = 0; i < n; i++) {
    double fx = 0, fy = 0, fz = 0;
    for (int j = 0; j < nn; j++) {
      float dx = nx[j] - x[i], dy = ny[j] - y[i], dz = nz[j] - z[i];
      float f = hm_force(dx * dx + dy * dy + dz * dz, nm[j]);
      fx += f * dx;
      fy += f * dy;
      fz += f * dz;
    }
    double e = fabs(fx * HM_DT - vx[i]) + fabs(fy * HM_DT - vy[i]) + fabs(fz * HM_DT - vz[i]);
    double s = fabs(fx * HM_DT) + fabs(fy * HM_DT) + fabs(fz * HM_DT);
    if (!(e <= worst)) worst = e;
    if (s > scale) scale = s;
  }
  printf("haccmk: %d particles x %d neighbours, largest velocity error %.3g (largest kick %.3g)\n", n, nn, worst, scale);
  return worst <= 1e-3 * scale;
}
#endif
