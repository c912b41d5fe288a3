/* jacobi, OpenMP offload (see jacobi.h): a host loop of two `target teams distribute parallel for`
 * per sweep, the first with reduction(max: err) map(tofrom: err), until err is small. Nothing else
 * happens in the loop, so ompgpu may run it as one persistent kernel (-Rpass=ompgpu says so);
 * kernel time is the whole loop's. */
#include "jacobi.h"

int main(int argc, char **argv) {
  const int side = bench_arg(argc, argv, 1, JC_SIDE), n = side * side;
  double *u = (double *)bench_alloc(sizeof(double) * n), *unew = (double *)bench_alloc(sizeof(double) * n);
  bench_warmup();
  int sweeps = 0;
  for (int rep = 0, reps = bench_reps(); rep < reps; rep++) {
    jc_init(u, side);
    jc_init(unew, side);
    double t0 = BENCH_NOW(), k0 = 0, k1 = 0;
    double err = 1;
#pragma omp target data map(tofrom: u[0:n]) map(to: unew[0:n])
    {
      k0 = BENCH_NOW();
      for (sweeps = 0; err > JC_TOL && sweeps < JC_MAXIT; sweeps++) {
        err = 0;
#pragma omp target teams distribute parallel for collapse(2) reduction(max: err) map(tofrom: err)
        for (int i = 1; i < side - 1; i++)
          for (int j = 1; j < side - 1; j++) {
            unew[i * side + j] = 0.25 * (u[(i - 1) * side + j] + u[(i + 1) * side + j] + u[i * side + j - 1] + u[i * side + j + 1]);
            err = fmax(err, fabs(unew[i * side + j] - u[i * side + j]));
          }
#pragma omp target teams distribute parallel for collapse(2)
        for (int i = 1; i < side - 1; i++)
          for (int j = 1; j < side - 1; j++) u[i * side + j] = unew[i * side + j];
      }
      k1 = BENCH_NOW();
    }
    bench_report("jacobi", rep, k1 - k0, BENCH_NOW() - t0);
  }
  return bench_finish(jc_check(u, side, sweeps));
}
