// Tasks and taskloops inside parallel regions of target regions: a variable shared by the
// enclosing parallel region (an array mapped to the device, explicitly shared or by default)
// is shared by the task, so the task's writes reach it (SOLLVE 5.0 parallel_master_device,
// 5.1 taskloop_simd_order_*_device; issue 46).
#include <stdio.h>
#include <omp.h>

#define N 1024

int main(void) {
  int x[N], y[N], z[N];
  for (int i = 0; i < N; i++) { x[i] = 1; y[i] = i + 1; z[i] = 2 * (i + 1); }
  int num_threads = -1;
  // parallel master (explicit shared), taskloop
  #pragma omp target map(tofrom: x, num_threads) map(to: y, z)
  {
    #pragma omp parallel master num_threads(8) shared(x, y, z, num_threads)
    {
      #pragma omp taskloop
      for (int i = 0; i < N; i++) x[i] += y[i] * z[i];
      num_threads = omp_get_num_threads();
    }
  }
  int errors = 0;
  for (int i = 0; i < N; i++) errors += x[i] != 1 + y[i] * z[i];
  printf("parallel master taskloop: %d errors, threads > 0: %d\n", errors, num_threads > 0);

  // parallel (shared by default), single, taskloop simd, twice in a row
  int a[24], b[24];
  for (int i = 0; i < 24; i++) { a[i] = i; b[i] = i; }
  #pragma omp target map(tofrom: a, b)
  {
    #pragma omp parallel
    {
      #pragma omp single
      #pragma omp taskloop simd order(reproducible: concurrent)
      for (int i = 0; i < 24; i++) a[i] = a[i] + 2;
      #pragma omp single
      #pragma omp taskloop simd order(unconstrained: concurrent)
      for (int i = 0; i < 24; i++) b[i] = a[i] + 2;
    }
  }
  errors = 0;
  for (int i = 0; i < 24; i++) errors += b[i] != i + 4;
  printf("parallel single taskloop simd: %d errors\n", errors);

  // taskloop simd with grainsize, and a plain task, under parallel + single in teams
  int c[N], d[N];
  for (int i = 0; i < N; i++) { c[i] = 0; d[i] = 0; }
  int sum = 0;
  #pragma omp target teams num_teams(1) map(tofrom: c, d, sum)
  {
    #pragma omp parallel
    {
      #pragma omp single
      {
        #pragma omp taskloop simd grainsize(16)
        for (int i = 0; i < N; i++) c[i] = 3 * i;
        #pragma omp task
        {
          for (int i = 0; i < N; i++) d[i] = c[i] + 1;
          sum = d[N - 1];
        }
        #pragma omp taskwait
      }
    }
  }
  errors = 0;
  for (int i = 0; i < N; i++) errors += c[i] != 3 * i || d[i] != 3 * i + 1;
  printf("grainsize and task: %d errors, sum %d\n", errors, sum);

  // parallel with default(shared) explicitly; masked taskloop reduction over a shared array
  long total = 0;
  #pragma omp target map(to: y) map(tofrom: total, x)
  {
    #pragma omp parallel default(shared) num_threads(4)
    {
      #pragma omp masked
      {
        #pragma omp taskloop reduction(+: total)
        for (int i = 0; i < N; i++) { total += y[i]; x[i] = -y[i]; }
      }
    }
  }
  errors = 0;
  for (int i = 0; i < N; i++) errors += x[i] != -(i + 1);
  printf("masked taskloop reduction: total %ld, %d errors\n", total, errors);
  return 0;
}
