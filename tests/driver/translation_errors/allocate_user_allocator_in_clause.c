// expect-error: 9:*: 'v' in a clause of '#pragma omp parallel for' after an allocate directive
#include <omp.h>
int main(void) {
  omp_alloctrait_t traits[1] = {{omp_atk_alignment, 64}};
  omp_allocator_handle_t al = omp_init_allocator(omp_default_mem_space, 1, traits);
  {
    int v[4];
    #pragma omp allocate(v) allocator(al)
    #pragma omp parallel for private(v)
    for (int i = 0; i < 4; ++i) v[0] = i;
  }
  return 0;
}
