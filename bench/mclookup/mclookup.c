/* mclookup, OpenMP offload (see mclookup.h): `target teams distribute parallel for` over the
 * lookups, the data mapped once by `target data`. */
#ifdef MC_LARGE
#define BENCH_VARIANT "large"
#else
#define BENCH_VARIANT "small"
#endif
#include "mclookup.h"

int main(int argc, char **argv) {
  mc_problem p = mc_make(argc, argv);
  const long g = p.gridpoints, ne = MC_NUCLIDES * g, nx = ne * MC_XS, nm = MC_MATERIALS * MC_MAX_PER_MATERIAL;
  const int lookups = p.lookups;
  double *energy = p.energy, *xs = p.xs, *conc = p.conc, *result = p.result;
  int *count = p.count, *nuclide = p.nuclide;
  bench_warmup();
  for (int rep = 0, reps = bench_reps(); rep < reps; rep++) {
    double kernel, t0 = BENCH_NOW();
#pragma omp target data map(to: energy[0:ne], xs[0:nx], count[0:MC_MATERIALS], nuclide[0:nm], conc[0:nm]) \
    map(from: result[0:lookups])
    {
      double k0 = BENCH_NOW();
#pragma omp target teams distribute parallel for
      for (int l = 0; l < lookups; l++) MC_LOOKUP_BODY(energy, xs, count, nuclide, conc, g, l, result[l]);
      kernel = BENCH_NOW() - k0;
    }
    bench_report("mclookup", rep, kernel, BENCH_NOW() - t0);
  }
  return bench_finish(mc_check(&p));
}
