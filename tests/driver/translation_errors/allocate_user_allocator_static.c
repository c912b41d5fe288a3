// expect-error: 7:*: 'v' has static storage: its allocate directive needs a predefined allocator
#include <omp.h>
int main(void) {
  omp_alloctrait_t traits[1] = {{omp_atk_alignment, 64}};
  omp_allocator_handle_t al = omp_init_allocator(omp_default_mem_space, 1, traits);
  static int v[4];
  #pragma omp allocate(v) allocator(al)
  v[0] = 1;
  return v[0];
}
