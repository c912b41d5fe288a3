/* gaussjordan, OpenMP offload (see gaussjordan.h).
 * Nested (default): `target teams distribute` over the matrices; per pivot the master reads
 * the pivot, the team scales the pivot row, saves the column of factors (team-shared
 * array) and eliminates (`parallel for collapse(2)`).
 * -DSPMD: `target teams distribute parallel for` over the matrices, each thread inverting
 * its matrix alone. */
#include "gaussjordan.h"

int main(int argc, char **argv) {
  const int batch = bench_arg(argc, argv, 1, 8192);
  const long n = (long)batch * GJ_SIZE;
  float *aug0 = (float *)bench_alloc(sizeof(float) * n), *aug = (float *)bench_alloc(sizeof(float) * n);
  gj_make(aug0, batch);
  bench_warmup();
  for (int rep = 0, reps = bench_reps(); rep < reps; rep++) {
    memcpy(aug, aug0, sizeof(float) * n);
    double kernel, t0 = BENCH_NOW();
#pragma omp target data map(tofrom: aug[0:n])
    {
      double k0 = BENCH_NOW();
#ifndef SPMD
#pragma omp target teams distribute thread_limit(128)
      for (int b = 0; b < batch; b++) {
        float *m = aug + (long)b * GJ_SIZE;
        float f[GJ_M]; /* shared by the team */
        for (int k = 0; k < GJ_M; k++) {
          const float piv = m[k * GJ_W + k];
#pragma omp parallel for
          for (int j = 0; j < GJ_W; j++) m[k * GJ_W + j] /= piv;
#pragma omp parallel for
          for (int i = 0; i < GJ_M; i++) f[i] = m[i * GJ_W + k];
#pragma omp parallel for collapse(2)
          for (int i = 0; i < GJ_M; i++)
            for (int j = 0; j < GJ_W; j++)
              if (i != k) m[i * GJ_W + j] -= f[i] * m[k * GJ_W + j];
        }
      }
#else
#pragma omp target teams distribute parallel for
      for (int b = 0; b < batch; b++) {
        float *m = aug + (long)b * GJ_SIZE;
        float f[GJ_M];
        for (int k = 0; k < GJ_M; k++) {
          const float piv = m[k * GJ_W + k];
          for (int j = 0; j < GJ_W; j++) m[k * GJ_W + j] /= piv;
          for (int i = 0; i < GJ_M; i++) f[i] = m[i * GJ_W + k];
          for (int i = 0; i < GJ_M; i++)
            if (i != k)
              for (int j = 0; j < GJ_W; j++) m[i * GJ_W + j] -= f[i] * m[k * GJ_W + j];
        }
      }
#endif
      kernel = BENCH_NOW() - k0;
    }
    bench_report("gaussjordan", rep, kernel, BENCH_NOW() - t0);
  }
  return bench_finish(gj_check(aug0, aug, batch));
}
