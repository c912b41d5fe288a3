// expect-error: 8:*: allocator 'al' in device code is not supported yet
#include <omp.h>
int main(void) {
  int s = 0, r = 0;
  omp_alloctrait_t traits[1] = {{omp_atk_alignment, 64}};
  omp_allocator_handle_t al;
  #pragma omp target map(tofrom: r) uses_allocators(al(traits))
  #pragma omp parallel num_threads(4) private(s) allocate(al: s)
  { s = 1; r = s; }
  return r;
}
