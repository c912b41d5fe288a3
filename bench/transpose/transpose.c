/* transpose, OpenMP offload (see transpose.h).
 * Nested (default): `target teams distribute` over the middle axis j; the master computes
 * the plane's offsets, the team copies the (i, k) plane (`parallel for collapse(2)`).
 * -DSPMD: `target teams distribute parallel for collapse(3)` over (j, i, k). */
#include "transpose.h"

int main(int argc, char **argv) {
  const int s = bench_arg(argc, argv, 1, 256);
  const long n = (long)s * s * s;
  float *a = (float *)bench_alloc(sizeof(float) * n), *b = (float *)bench_alloc(sizeof(float) * n);
  for (long i = 0; i < n; i++) a[i] = (float)i;
  bench_warmup();
  for (int rep = 0, reps = bench_reps(); rep < reps; rep++) {
    double kernel, t0 = BENCH_NOW();
#pragma omp target data map(to: a[0:n]) map(from: b[0:n])
    {
      double k0 = BENCH_NOW();
#ifndef SPMD
#pragma omp target teams distribute thread_limit(256)
      for (int j = 0; j < s; j++) {
        const long in_plane = (long)j * s, out_plane = (long)j * s;
#pragma omp parallel for collapse(2)
        for (int i = 0; i < s; i++)
          for (int k = 0; k < s; k++) b[((long)k * s * s) + out_plane + i] = a[(long)i * s * s + in_plane + k];
      }
#else
#pragma omp target teams distribute parallel for collapse(3)
      for (int j = 0; j < s; j++)
        for (int i = 0; i < s; i++)
          for (int k = 0; k < s; k++) b[((long)k * s + j) * s + i] = a[((long)i * s + j) * s + k];
#endif
      kernel = BENCH_NOW() - k0;
    }
    bench_report("transpose", rep, kernel, BENCH_NOW() - t0);
  }
  return bench_finish(tr_check(a, b, s));
}
