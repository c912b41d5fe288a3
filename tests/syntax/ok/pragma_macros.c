/* _Pragma operators inside macros, macros expanding to directives, macro arguments in clauses, directives produced inside macro expansions of whole loops */
#include <stdio.h>
#include <stdlib.h>

#define N 512
#define TEAMS 16
#define THREADS 128
#define STR(x) #x
#define PRAGMA(x) _Pragma(STR(x))
#define OMP(x) PRAGMA(omp x)

#define OFFLOAD_FOR _Pragma("omp target teams distribute parallel for")
#define OFFLOAD_FOR_MAP(arr, n) PRAGMA(omp target teams distribute parallel for map(tofrom: arr[0:n]))
#define PARALLEL_FOR PRAGMA(omp parallel for schedule(static))

#define SCALE_KERNEL(arr, n, factor)                                         \
  do {                                                                     \
    PRAGMA(omp target teams distribute parallel for map(tofrom: arr[0:n]))    \
    for (int i_ = 0; i_ < (n); i_++) (arr)[i_] *= (factor);               \
  } while (0)

#define SUM_KERNEL(arr, n, result)                                              \
  OMP(target teams distribute parallel for reduction(+: result) map(tofrom: result) map(to: arr[0:n])) \
  for (int i_ = 0; i_ < (n); i_++) result += (arr)[i_];

#define LAUNCH_CFG num_teams(TEAMS) thread_limit(THREADS)

int main(void) {
  double *x = malloc(N * sizeof *x);
  for (int i = 0; i < N; i++) x[i] = i;
  double s = 0.0;

  OFFLOAD_FOR_MAP(x, N)
  for (int i = 0; i < N; i++) x[i] += 1.0;

  SCALE_KERNEL(x, N, 0.5);
  SUM_KERNEL(x, N, s)

  OMP(target data map(tofrom: x[0:N]))
  {
    OFFLOAD_FOR
    for (int i = 0; i < N; i++) x[i] -= 1.0;

    PRAGMA(omp target teams distribute parallel for LAUNCH_CFG)
    for (int i = 0; i < N; i++) x[i] += 2.0;

#pragma omp target teams LAUNCH_CFG
    {
#pragma omp distribute parallel for
      for (int i = 0; i < N; i++) x[i] *= 1.0;
    }

    OMP(target)
    OMP(parallel num_threads(THREADS / 2))
    {
      PRAGMA(omp for)
      for (int i = 0; i < N; i++) x[i] += 0.0;
      OMP(barrier)
      OMP(single)
      x[0] = -1.0;
    }
  }

#pragma omp target map(tofrom: x[0:N])
  {
    PARALLEL_FOR
    for (int i = 0; i < N; i++) x[i] += 1.0;
  }

  printf("%f %f\n", s, x[N - 1]);
  free(x);
  return 0;
}
