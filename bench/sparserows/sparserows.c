/* sparserows, OpenMP offload (see sparserows.h).
 * Nested (default): `target teams distribute` over the rows, each row's nonzeros summed by the
 * team (`parallel for reduction(+:)`): a row of 2 nonzeros and a row of 65536 get the same team.
 * -DSPMD: `target teams distribute parallel for` over the rows, each thread summing its row alone. */
#include "sparserows.h"

int main(int argc, char **argv) {
  sr_matrix m = SR_MATRIX(argc, argv);
  const int rows = m.rows;
  const long nnz = m.nnz;
  long *start = m.start;
  int *col = m.col;
  float *val = m.val;
  float *x = (float *)bench_alloc(sizeof(float) * rows), *y = (float *)bench_alloc(sizeof(float) * rows);
  sr_vector(x, rows);
  bench_warmup();
  for (int rep = 0, reps = bench_reps(); rep < reps; rep++) {
    double kernel, t0 = BENCH_NOW();
#pragma omp target data map(to: start[0:rows + 1], col[0:nnz], val[0:nnz], x[0:rows]) map(from: y[0:rows])
    {
      double k0 = BENCH_NOW();
#ifndef SPMD
#pragma omp target teams distribute thread_limit(256)
      for (int r = 0; r < rows; r++) {
        const long begin = start[r], end = start[r + 1];
        float s = 0;
#pragma omp parallel for reduction(+: s)
        for (long k = begin; k < end; k++) s += val[k] * x[col[k]];
        y[r] = s;
      }
#else
#pragma omp target teams distribute parallel for
      for (int r = 0; r < rows; r++) {
        float s = 0;
        for (long k = start[r]; k < start[r + 1]; k++) s += val[k] * x[col[k]];
        y[r] = s;
      }
#endif
      kernel = BENCH_NOW() - k0;
    }
    bench_report(SR_NAME, rep, kernel, BENCH_NOW() - t0);
  }
  return bench_finish(sr_check(&m, x, y));
}
