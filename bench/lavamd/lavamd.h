/* lavamd: particle potentials and forces in a 3-D grid of boxes (B^3 boxes of 100
 * particles, default B = 10); each particle interacts with the particles of its own box
 * and of the (up to 26) adjacent boxes: v = exp(-a2 r2), fv += q_j (v, 2v dx, 2v dy, 2v dz).
 * Shared by lavamd.c (OpenMP) and lavamd.cu.     ./lavamd [boxes per side=10] */
#ifndef LAVAMD_H
#define LAVAMD_H
#include "../common/bench.h"

#define LM_NPB 100
#define LM_A2 0.5f

typedef struct {
  float x, y, z, q;
} lm_particle;
typedef struct {
  float v, x, y, z;
} lm_force;

static void lm_make(lm_particle *p, int b) {
  for (int box = 0; box < b * b * b; box++) {
    int bx = box % b, by = box / b % b, bz = box / (b * b);
    for (int i = 0; i < LM_NPB; i++) {
      unsigned k = (unsigned)(box * LM_NPB + i);
      p[k].x = bx + bench_unit(k, 1);
      p[k].y = by + bench_unit(k, 2);
      p[k].z = bz + bench_unit(k, 3);
      p[k].q = bench_unit(k, 4) * 0.9f + 0.1f;
    }
  }
}

/* the index of neighbour n (0..26) of box, or -1 outside the grid */
#ifdef BENCH_CUDA
__host__ __device__
#endif
static inline int lm_neighbour(int box, int n, int b) {
  int x = box % b + n % 3 - 1, y = box / b % b + n / 3 % 3 - 1, z = box / (b * b) + n / 9 - 1;
  return (x < 0 || y < 0 || z < 0 || x >= b || y >= b || z >= b) ? -1 : (z * b + y) * b + x;
}

static int lm_check(const lm_particle *p, int b, const lm_force *fv) {
  double worst = 0;
  const int nb = b * b * b;
  for (int box = 0; box < nb; box += (nb > 200 ? 7 : 1)) /* a sample of the boxes when large */
    for (int i = 0; i < LM_NPB; i++) {
      double v = 0, x = 0, y = 0, z = 0;
      const lm_particle pi = p[box * LM_NPB + i];
      for (int n = 0; n < 27; n++) {
        int nbx = lm_neighbour(box, n, b);
        if (nbx < 0) continue;
        for (int j = 0; j < LM_NPB; j++) {
          const lm_particle pj = p[nbx * LM_NPB + j];
          double dx = pi.x - pj.x, dy = pi.y - pj.y, dz = pi.z - pj.z;
          double e = exp(-LM_A2 * (dx * dx + dy * dy + dz * dz));
          v += pj.q * e;
          x += pj.q * 2 * e * dx;
          y += pj.q * 2 * e * dy;
          z += pj.q * 2 * e * dz;
        }
      }
      const lm_force f = fv[box * LM_NPB + i];
      double err = fabs(f.v - v) / (1 + fabs(v)) + fabs(f.x - x) / (1 + fabs(x)) + fabs(f.y - y) / (1 + fabs(y)) +
                   fabs(f.z - z) / (1 + fabs(z));
      if (!(err <= worst)) worst = err;
    }
  printf("lavamd: %d boxes of %d particles, largest relative error %.3g\n", nb, LM_NPB, worst);
  return worst < 1e-3;
}
#endif
