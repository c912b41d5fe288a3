/* jacobi: the Laplace equation on a side x side grid by Jacobi sweeps until the largest change of
 * a sweep is below JC_TOL (or JC_MAXIT sweeps): two kernels a sweep, one computing the new values
 * and the largest change (a max reduction into a scalar copied back), one copying them back. A host
 * loop of short kernels, the shape of issue 50. Shared by jacobi.c (OpenMP) and jacobi.cu.
 *     ./jacobi [side=256]      (-DJC_LARGE: side 1024, at most 1000 sweeps) */
#ifndef JACOBI_H
#define JACOBI_H
#include <math.h>
/* the variant's name in the results (bench/run.py PROBLEM_VARIANTS); CUDA builds say "cuda" */
#ifdef JC_LARGE
#define BENCH_VARIANT "large"
#else
#define BENCH_VARIANT "small"
#endif
#include "../common/bench.h"

#ifdef JC_LARGE
#define JC_SIDE 1024
#define JC_MAXIT 1000
#else
#define JC_SIDE 256
#define JC_MAXIT 20000
#endif
#define JC_TOL 1e-4

/* boundary: the top edge at 1, the others at 0; the inside starts at 0 */
static void jc_init(double *u, int side) {
  for (int i = 0; i < side; i++)
    for (int j = 0; j < side; j++) u[i * side + j] = i == 0 ? 1.0 : 0.0;
}

/* the same sweeps on the host: the sweep count must agree and the grid to 1e-9 */
static int jc_check(const double *u, int side, int sweeps) {
  double *a = (double *)bench_alloc(sizeof(double) * side * side), *b = (double *)bench_alloc(sizeof(double) * side * side);
  jc_init(a, side);
  jc_init(b, side);
  double err = 1;
  int it = 0;
  while (err > JC_TOL && it < JC_MAXIT) {
    err = 0;
    for (int i = 1; i < side - 1; i++)
      for (int j = 1; j < side - 1; j++) {
        b[i * side + j] = 0.25 * (a[(i - 1) * side + j] + a[(i + 1) * side + j] + a[i * side + j - 1] + a[i * side + j + 1]);
        err = fmax(err, fabs(b[i * side + j] - a[i * side + j]));
      }
    for (int i = 1; i < side - 1; i++)
      for (int j = 1; j < side - 1; j++) a[i * side + j] = b[i * side + j];
    it++;
  }
  int wrong = 0;
  for (int i = 0; i < side * side; i++) wrong += fabs(u[i] - a[i]) > 1e-9;
  if (wrong || it != sweeps) fprintf(stderr, "jacobi: %d sweeps (host %d), %d values wrong\n", sweeps, it, wrong);
  free(a);
  free(b);
  return wrong == 0 && it == sweeps;
}
#endif
