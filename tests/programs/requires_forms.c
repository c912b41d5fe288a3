/* requires (OpenMP 5.0): unified_address holds (the host code leaves it out: gcc 12 says
   "sorry, unimplemented"), atomic_default_mem_order gives atomics without a memory-order clause
   their order, dynamic_allocators lets device code allocate. */
#include <omp.h>
#include <stdio.h>
#pragma omp requires unified_address
#pragma omp requires atomic_default_mem_order(seq_cst), dynamic_allocators

int main(void) {
  int n = 1000, hits = 0, flag = 0, data = 0;
  #pragma omp target teams distribute parallel for map(tofrom: hits)
  for (int i = 0; i < n; i++) {
    #pragma omp atomic
    hits += i % 3 == 0;
  }
  /* release / acquire on a flag: the write of data is seen by the reader */
  #pragma omp target parallel num_threads(64) map(tofrom: flag, data)
  {
    if (omp_get_thread_num() == 0) {
      data = 42;
      #pragma omp atomic write release
      flag = 1;
    }
    int seen = 0;
    while (!seen) {
      #pragma omp atomic read acquire
      seen = flag;
    }
    if (data != 42) data = -1;
  }
  int *buf = 0;
  int sum = 0;
  #pragma omp target map(tofrom: sum)
  {
    int *p = (int *)omp_alloc(16 * sizeof(int), omp_default_mem_alloc);
    for (int i = 0; i < 16; i++) p[i] = i;
    for (int i = 0; i < 16; i++) sum += p[i];
    omp_free(p, omp_default_mem_alloc);
  }
  (void)buf;
  printf("hits %d data %d sum %d\n", hits, data, sum);
  return 0;
}
