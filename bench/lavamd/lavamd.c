/* lavamd, OpenMP offload (see lavamd.h).
 * Nested (default): `target teams distribute` over the boxes; the master walks the 27
 * neighbour boxes (serial), the team handles the home box's 100 particles (`parallel for`),
 * each looping over the neighbour box's particles.
 * -DSPMD: `target teams distribute parallel for collapse(2)` over (box, particle), each
 * thread walking the neighbour boxes itself. */
#include "lavamd.h"

int main(int argc, char **argv) {
  const int b = bench_arg(argc, argv, 1, 10), nb = b * b * b;
  const long np = (long)nb * LM_NPB;
  lm_particle *p = (lm_particle *)bench_alloc(sizeof(lm_particle) * np);
  lm_force *fv = (lm_force *)bench_alloc(sizeof(lm_force) * np);
  lm_make(p, b);
  bench_warmup();
  for (int rep = 0, reps = bench_reps(); rep < reps; rep++) {
    double kernel, t0 = BENCH_NOW();
#pragma omp target data map(to: p[0:np]) map(from: fv[0:np])
    {
      double k0 = BENCH_NOW();
#ifndef SPMD
#pragma omp target teams distribute thread_limit(128)
      for (int box = 0; box < nb; box++) {
#pragma omp parallel for
        for (int i = 0; i < LM_NPB; i++) {
          lm_force z = {0, 0, 0, 0};
          fv[box * LM_NPB + i] = z;
        }
        for (int n = 0; n < 27; n++) {
          const int nbx = lm_neighbour(box, n, b);
          if (nbx < 0) continue;
#pragma omp parallel for
          for (int i = 0; i < LM_NPB; i++) {
            const lm_particle pi = p[box * LM_NPB + i];
            lm_force f = fv[box * LM_NPB + i];
            for (int j = 0; j < LM_NPB; j++) {
              const lm_particle pj = p[nbx * LM_NPB + j];
              float dx = pi.x - pj.x, dy = pi.y - pj.y, dz = pi.z - pj.z;
              float e = expf(-LM_A2 * (dx * dx + dy * dy + dz * dz));
              f.v += pj.q * e;
              f.x += pj.q * 2 * e * dx;
              f.y += pj.q * 2 * e * dy;
              f.z += pj.q * 2 * e * dz;
            }
            fv[box * LM_NPB + i] = f;
          }
        }
      }
#else
#pragma omp target teams distribute parallel for collapse(2)
      for (int box = 0; box < nb; box++)
        for (int i = 0; i < LM_NPB; i++) {
          const lm_particle pi = p[box * LM_NPB + i];
          lm_force f = {0, 0, 0, 0};
          for (int n = 0; n < 27; n++) {
            const int nbx = lm_neighbour(box, n, b);
            if (nbx < 0) continue;
            for (int j = 0; j < LM_NPB; j++) {
              const lm_particle pj = p[nbx * LM_NPB + j];
              float dx = pi.x - pj.x, dy = pi.y - pj.y, dz = pi.z - pj.z;
              float e = expf(-LM_A2 * (dx * dx + dy * dy + dz * dz));
              f.v += pj.q * e;
              f.x += pj.q * 2 * e * dx;
              f.y += pj.q * 2 * e * dy;
              f.z += pj.q * 2 * e * dz;
            }
          }
          fv[box * LM_NPB + i] = f;
        }
#endif
      kernel = BENCH_NOW() - k0;
    }
    bench_report("lavamd", rep, kernel, BENCH_NOW() - t0);
  }
  return bench_finish(lm_check(p, b, fv));
}
