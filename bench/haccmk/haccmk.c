/* haccmk, OpenMP offload (see haccmk.h).
 * Nested (default): `target teams distribute` over the particles; the master loads its
 * particle, the team sums the force over the neighbours (`parallel for reduction`), the
 * master kicks the velocity.
 * -DSPMD: `target teams distribute parallel for` over the particles, each thread summing
 * over all neighbours alone. */
#include "haccmk.h"

int main(int argc, char **argv) {
  const int n = bench_arg(argc, argv, 1, 16384), nn = bench_arg(argc, argv, 2, 4096);
  float *x = (float *)bench_alloc(sizeof(float) * n), *y = (float *)bench_alloc(sizeof(float) * n);
  float *z = (float *)bench_alloc(sizeof(float) * n);
  float *vx = (float *)bench_alloc(sizeof(float) * n), *vy = (float *)bench_alloc(sizeof(float) * n);
  float *vz = (float *)bench_alloc(sizeof(float) * n);
  float *nx = (float *)bench_alloc(sizeof(float) * nn), *ny = (float *)bench_alloc(sizeof(float) * nn);
  float *nz = (float *)bench_alloc(sizeof(float) * nn), *nm = (float *)bench_alloc(sizeof(float) * nn);
  hm_make(x, y, z, NULL, n, 20);
  hm_make(nx, ny, nz, nm, nn, 30);
  bench_warmup();
  for (int rep = 0, reps = bench_reps(); rep < reps; rep++) {
    double kernel, t0 = BENCH_NOW();
#pragma omp target data map(to: x[0:n], y[0:n], z[0:n], nx[0:nn], ny[0:nn], nz[0:nn], nm[0:nn]) \
    map(from: vx[0:n], vy[0:n], vz[0:n])
    {
      double k0 = BENCH_NOW();
#ifndef SPMD
#pragma omp target teams distribute thread_limit(128)
      for (int i = 0; i < n; i++) {
        const float xi = x[i], yi = y[i], zi = z[i];
        float fx = 0, fy = 0, fz = 0;
#pragma omp parallel for reduction(+: fx, fy, fz)
        for (int j = 0; j < nn; j++) {
          float dx = nx[j] - xi, dy = ny[j] - yi, dz = nz[j] - zi;
          float f = hm_force(dx * dx + dy * dy + dz * dz, nm[j]);
          fx += f * dx;
          fy += f * dy;
          fz += f * dz;
        }
        vx[i] = fx * HM_DT;
        vy[i] = fy * HM_DT;
        vz[i] = fz * HM_DT;
      }
#else
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; i++) {
        const float xi = x[i], yi = y[i], zi = z[i];
        float fx = 0, fy = 0, fz = 0;
        for (int j = 0; j < nn; j++) {
          float dx = nx[j] - xi, dy = ny[j] - yi, dz = nz[j] - zi;
          float f = hm_force(dx * dx + dy * dy + dz * dz, nm[j]);
          fx += f * dx;
          fy += f * dy;
          fz += f * dz;
        }
        vx[i] = fx * HM_DT;
        vy[i] = fy * HM_DT;
        vz[i] = fz * HM_DT;
      }
#endif
      kernel = BENCH_NOW() - k0;
    }
    bench_report("haccmk", rep, kernel, BENCH_NOW() - t0);
  }
  return bench_finish(hm_check(x, y, z, n, nx, ny, nz, nm, nn, vx, vy, vz));
}
