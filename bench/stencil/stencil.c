/* stencil, OpenMP offload (see stencil.h): `collapse(2)` over the interior points. */
#if STENCIL_R == 1
#define BENCH_VARIANT "r1"
#elif STENCIL_R == 3
#define BENCH_VARIANT "r3"
#elif STENCIL_R == 4
#define BENCH_VARIANT "r4"
#else
#define BENCH_VARIANT "r2"
#endif
#include "stencil.h"

int main(int argc, char **argv) {
  const int n = st_order(argc, argv);
  const long nn = (long)n * n;
  double *in = (double *)bench_alloc(sizeof(double) * nn), *out = (double *)bench_alloc(sizeof(double) * nn);
  st_fill(in, n);
  bench_warmup();
  for (int rep = 0, reps = bench_reps(); rep < reps; rep++) {
    double kernel, t0 = BENCH_NOW();
#pragma omp target data map(to: in[0:nn]) map(tofrom: out[0:nn])
    {
#pragma omp target teams distribute parallel for
      for (long i = 0; i < nn; i++) out[i] = 0.0;
      double k0 = BENCH_NOW();
      for (int sweep = 0; sweep < STENCIL_SWEEPS; sweep++) {
#pragma omp target teams distribute parallel for collapse(2)
        for (int i = STENCIL_R; i < n - STENCIL_R; i++)
          for (int j = STENCIL_R; j < n - STENCIL_R; j++) out[(long)i * n + j] += 0.0 ST_STAR;
      }
      kernel = BENCH_NOW() - k0;
    }
    bench_report("stencil", rep, kernel, BENCH_NOW() - t0);
  }
  return bench_finish(st_check(in, out, n));
}
