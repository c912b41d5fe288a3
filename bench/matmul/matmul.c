/* matmul, OpenMP offload (see matmul.h): `collapse(2)` over (i, j), serial k. */
#define BENCH_VARIANT "naive"
#include "matmul.h"

int main(int argc, char **argv) {
  const int n = bench_arg(argc, argv, 1, 2048);
  const long nn = (long)n * n;
  double *a = (double *)bench_alloc(sizeof(double) * nn), *b = (double *)bench_alloc(sizeof(double) * nn),
         *c = (double *)bench_alloc(sizeof(double) * nn);
  mm_fill(a, b, n);
  bench_warmup();
  for (int rep = 0, reps = bench_reps(); rep < reps; rep++) {
    double kernel, t0 = BENCH_NOW();
#pragma omp target data map(to: a[0:nn], b[0:nn]) map(from: c[0:nn])
    {
      double k0 = BENCH_NOW();
#pragma omp target teams distribute parallel for collapse(2)
      for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
          double sum = 0;
          for (int k = 0; k < n; k++) sum += a[(long)i * n + k] * b[(long)k * n + j];
          c[(long)i * n + j] = sum;
        }
      kernel = BENCH_NOW() - k0;
    }
    bench_report("matmul", rep, kernel, BENCH_NOW() - t0);
  }
  return bench_finish(mm_check(a, b, c, n));
}
