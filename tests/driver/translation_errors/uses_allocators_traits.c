// expect-error: 7:37: uses_allocators(my_alloc(traits)): allocators made from traits in device code are not supported yet
#include <omp.h>
int main(void) {
  int r = 0;
  omp_alloctrait_t traits[1] = {{omp_atk_alignment, 64}};
  omp_allocator_handle_t my_alloc;
  #pragma omp target map(tofrom: r) uses_allocators(my_alloc(traits))
  { r = 1; }
  return r;
}
