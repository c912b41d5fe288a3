// expect-error: 7:37: uses_allocators(my_alloc): an allocator without traits must be a predefined one
#include <omp.h>
int main(void) {
  int r = 0;
  omp_allocator_handle_t my_alloc = omp_default_mem_alloc;
  int *p = 0;
  #pragma omp target map(tofrom: r) uses_allocators(my_alloc)
  { p = omp_alloc(4, my_alloc); r = p != 0; omp_free(p, my_alloc); }
  return r;
}
