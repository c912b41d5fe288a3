// Macros in the arguments of directives that the host's preprocessor does not expand (gcc 12:
// tile, unroll, metadirective, assume, interop; gcc 11 also masked): ompgpu expands them as
// clang's preprocessor would, where they stand (issue 46: SOLLVE 5.1 test_interop_target).
#include <stdio.h>
#include <omp.h>

#define N 64
#define TILE 8
#define UNROLL 4
#define BIG 1
#define FILTER 0
#define HOLDS (N % TILE == 0)

int main(void) {
  int a[N], b[N];
  for (int i = 0; i < N; i++) { a[i] = 0; b[i] = 0; }
  #pragma omp target teams distribute parallel for map(tofrom: a)
  #pragma omp tile sizes(TILE)
  for (int i = 0; i < N; i++) a[i] = 2 * i;
  #pragma omp target map(tofrom: b)
  {
    #pragma omp unroll partial(UNROLL)
    for (int i = 0; i < N; i++) b[i] = i + 1;
  }
  int used_parallel = 0;
  #pragma omp target map(tofrom: a, used_parallel)
  {
    #pragma omp metadirective when(user = {condition(BIG)}: parallel num_threads(4)) default(nothing)
    {
      #pragma omp masked filter(FILTER)
      used_parallel = omp_get_num_threads() > 1 || omp_get_max_threads() >= 1;
    }
  }
  #pragma omp target map(tofrom: a)
  {
    #pragma omp assume holds(HOLDS)
    for (int i = 0; i < N; i++) a[i] += 1;
  }
  long s = 0;
  for (int i = 0; i < N; i++) s += a[i] + b[i];
  printf("sum %ld, masked ran %d\n", s, used_parallel);
  return 0;
}
