/* tiledtranspose, OpenMP offload (see tiledtranspose.h): `collapse(2)` over the tiles, each
 * thread copies one tile with serial loops. -DTT_FLAT: `collapse(2)` over the elements. */
#ifdef TT_FLAT
#define BENCH_VARIANT "flat"
#else
#define BENCH_VARIANT "tiled"
#endif
#include "tiledtranspose.h"

int main(int argc, char **argv) {
  const int n = tt_order(argc, argv);
  const long nn = (long)n * n;
  double *a = (double *)bench_alloc(sizeof(double) * nn), *b = (double *)bench_alloc(sizeof(double) * nn);
  tt_fill(a, n);
  bench_warmup();
  for (int rep = 0, reps = bench_reps(); rep < reps; rep++) {
    double kernel, t0 = BENCH_NOW();
#pragma omp target data map(to: a[0:nn]) map(tofrom: b[0:nn])
    {
#pragma omp target teams distribute parallel for
      for (long i = 0; i < nn; i++) b[i] = 0.0;
      double k0 = BENCH_NOW();
      for (int sweep = 0; sweep < TT_SWEEPS; sweep++) {
#ifdef TT_FLAT
#pragma omp target teams distribute parallel for collapse(2)
        for (int i = 0; i < n; i++)
          for (int j = 0; j < n; j++) b[(long)j * n + i] += a[(long)i * n + j];
#else
#pragma omp target teams distribute parallel for collapse(2)
        for (int it = 0; it < n; it += TT_TILE)
          for (int jt = 0; jt < n; jt += TT_TILE)
            for (int i = it; i < it + TT_TILE; i++)
              for (int j = jt; j < jt + TT_TILE; j++) b[(long)j * n + i] += a[(long)i * n + j];
#endif
      }
      kernel = BENCH_NOW() - k0;
    }
    bench_report("tiledtranspose", rep, kernel, BENCH_NOW() - t0);
  }
  return bench_finish(tt_check(b, n));
}
