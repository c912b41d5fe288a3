/* OpenMP 5.0 allocators in device code: the allocate clause and directive and uses_allocators
   with predefined allocators (the variables are the device code's own private or local
   storage), and the allocate directive in host code (which gcc 12 does not implement: left
   out of the host code). */
#include <stdio.h>
#include <omp.h>
int g[4] = {1, 2, 3, 4};
#pragma omp allocate(g) allocator(omp_default_mem_alloc)
int main(void) {
  int r = 0, s = 0, t[8];
  #pragma omp allocate(t) allocator(omp_low_lat_mem_alloc)
  for (int i = 0; i < 8; i++) t[i] = i;
  #pragma omp target map(tofrom: r) uses_allocators(omp_pteam_mem_alloc)
  {
    int x[4];
    #pragma omp allocate(x) allocator(omp_pteam_mem_alloc)
    x[0] = 3;
    int sum = 0;
    #pragma omp parallel num_threads(32) private(s) allocate(omp_pteam_mem_alloc: s) reduction(+: sum)
    { s = omp_get_thread_num(); sum += s; }
    r = x[0] * 1000 + sum;
  }
  printf("r=%d t[7]=%d g[3]=%d\n", r, t[7], g[3]);
  return 0;
}
