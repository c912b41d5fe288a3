/* mclookup: the macroscopic cross-section lookup of a Monte Carlo neutron transport code
 * (the XSBench kernel, written here from its description). Each nuclide has a sorted grid
 * of G energies with 5 cross sections per point; each of 12 materials holds a list of
 * nuclides with concentrations. A lookup draws an energy and a material, and for every
 * nuclide of the material binary-searches the nuclide's grid, interpolates the 5 cross
 * sections and adds them, weighted, into the 5 macroscopic ones: serial loops and
 * data-dependent memory accesses in every thread.
 *     ./mclookup [lookups=1048576] [gridpoints=5000]
 * -DMC_LARGE: 355 nuclides, 321 of them in the fuel (else 68 and 34). */
#ifndef MCLOOKUP_H
#define MCLOOKUP_H
#include "../common/bench.h"

#define MC_MATERIALS 12
#define MC_XS 5
#ifdef MC_LARGE
#define MC_NUCLIDES 355
#define MC_FUEL 321
#else
#define MC_NUCLIDES 68
#define MC_FUEL 34
#endif
#define MC_MAX_PER_MATERIAL MC_FUEL

typedef struct {
  int lookups, gridpoints;
  double *energy;  /* [nuclide][point], ascending per nuclide */
  double *xs;      /* [nuclide][point][MC_XS] */
  int *count;      /* nuclides per material */
  int *nuclide;    /* [material][MC_MAX_PER_MATERIAL] */
  double *conc;    /* [material][MC_MAX_PER_MATERIAL] */
  double *result;  /* [lookup]: the sum of the 5 macroscopic cross sections */
} mc_problem;

static const int mc_counts[MC_MATERIALS] = {MC_FUEL, 5, 4, 4, 27, 21, 11, 8, 9, 9, 16, 13};

/* each lookup draws its energy and material from its index, on the device */
#ifdef BENCH_CUDA
#define MC_DEVICE __host__ __device__
#else
#define MC_DEVICE
#pragma omp declare target
#endif
static MC_DEVICE unsigned mc_hash(unsigned x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}
static MC_DEVICE double mc_lookup_energy(long l) { return (double)(mc_hash((unsigned)l * 2654435761u + 1u) >> 8) * (1.0 / 16777216.0); }
static MC_DEVICE int mc_lookup_material(long l) { return (int)(mc_hash((unsigned)l * 3u + 7u) % MC_MATERIALS); }
#ifndef BENCH_CUDA
#pragma omp end declare target
#endif

static mc_problem mc_make(int argc, char **argv) {
  mc_problem p;
  p.lookups = bench_arg(argc, argv, 1, 1 << 20);
  p.gridpoints = bench_arg(argc, argv, 2, 5000);
  const long g = p.gridpoints;
  p.energy = (double *)bench_alloc(sizeof(double) * MC_NUCLIDES * g);
  p.xs = (double *)bench_alloc(sizeof(double) * MC_NUCLIDES * g * MC_XS);
  p.count = (int *)bench_alloc(sizeof(int) * MC_MATERIALS);
  p.nuclide = (int *)bench_alloc(sizeof(int) * MC_MATERIALS * MC_MAX_PER_MATERIAL);
  p.conc = (double *)bench_alloc(sizeof(double) * MC_MATERIALS * MC_MAX_PER_MATERIAL);
  p.result = (double *)bench_alloc(sizeof(double) * p.lookups);
  for (long u = 0; u < MC_NUCLIDES; u++) {
    /* ascending energies in (0, 1): cumulative positive steps, normalised */
    double e = 0;
    for (long k = 0; k < g; k++) {
      e += 0.5 + bench_unit((unsigned)(u * g + k), 3u);
      p.energy[u * g + k] = e;
    }
    for (long k = 0; k < g; k++) p.energy[u * g + k] /= e + 1.0;
    for (long k = 0; k < g * MC_XS; k++) p.xs[u * g * MC_XS + k] = bench_unit((unsigned)(u * g * MC_XS + k), 5u);
  }
  for (int m = 0; m < MC_MATERIALS; m++) {
    p.count[m] = mc_counts[m];
    for (int k = 0; k < MC_MAX_PER_MATERIAL; k++) {
      /* the fuel holds the first MC_FUEL nuclides; the others a hashed choice */
      p.nuclide[m * MC_MAX_PER_MATERIAL + k] = m == 0 ? k : (int)(bench_hash((unsigned)(m * 1000 + k)) % MC_NUCLIDES);
      p.conc[m * MC_MAX_PER_MATERIAL + k] = bench_unit((unsigned)(m * 1000 + k), 9u);
    }
  }
  return p;
}

/* the lookup itself, shared by every version: binary search for the interval holding e,
 * linear interpolation of the 5 cross sections */
#define MC_LOOKUP_BODY(energy, xs, count, nuclide, conc, g, l, out)                         \
  do {                                                                                      \
    const double e_ = mc_lookup_energy(l);                                                  \
    const int m_ = mc_lookup_material(l);                                                   \
    double macro_[MC_XS] = {0, 0, 0, 0, 0};                                                 \
    for (int k_ = 0; k_ < (count)[m_]; k_++) {                                              \
      const long u_ = (nuclide)[m_ * MC_MAX_PER_MATERIAL + k_];                             \
      const double *grid_ = (energy) + u_ * (g);                                            \
      long lo_ = 0, hi_ = (g) - 1;                                                          \
      if (e_ <= grid_[0]) hi_ = 1;                                                          \
      else if (e_ >= grid_[hi_]) lo_ = hi_ - 1;                                             \
      else                                                                                  \
        while (hi_ - lo_ > 1) {                                                             \
          const long mid_ = (lo_ + hi_) / 2;                                                \
          if (grid_[mid_] > e_) hi_ = mid_;                                                 \
          else lo_ = mid_;                                                                  \
        }                                                                                   \
      const double f_ = (e_ - grid_[lo_]) / (grid_[hi_] - grid_[lo_]);                      \
      const double *lx_ = (xs) + (u_ * (g) + lo_) * MC_XS, *hx_ = lx_ + MC_XS;              \
      const double c_ = (conc)[m_ * MC_MAX_PER_MATERIAL + k_];                              \
      for (int x_ = 0; x_ < MC_XS; x_++) macro_[x_] += c_ * (lx_[x_] + f_ * (hx_[x_] - lx_[x_])); \
    }                                                                                       \
    (out) = macro_[0] + macro_[1] + macro_[2] + macro_[3] + macro_[4];                      \
  } while (0)

static int mc_check(const mc_problem *p) {
  long bad = 0;
  double worst = 0;
  for (long l = 0; l < p->lookups; l++) {
    double ref;
    MC_LOOKUP_BODY(p->energy, p->xs, p->count, p->nuclide, p->conc, (long)p->gridpoints, l, ref);
    const double err = fabs(p->result[l] - ref) / (fabs(ref) + 1e-300);
    if (!(err <= 1e-10)) bad++;
    if (err > worst) worst = err;
  }
  printf("mclookup: %d nuclides, %d lookups x %d grid points, largest relative error %.3g, %ld wrong\n", MC_NUCLIDES,
         p->lookups, p->gridpoints, worst, bad);
  return bad == 0;
}
#endif
