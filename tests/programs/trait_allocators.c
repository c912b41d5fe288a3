/* covers: uses_allocators(a(traits)) on target and combined target constructs, the omp_alloc family with allocators made from traits in device code (alignment, pool_size, fallback null_fb / default_mem_fb / allocator_fb with fb_data), omp_init_allocator / omp_destroy_allocator in device code (requires dynamic_allocators), an allocator named like a map type */
/* Allocators made from traits (OpenMP 5.0) in device code. Everything printed holds on the
   host too (the host fallback makes the same allocators with the host's omp_init_allocator). */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>

#pragma omp requires dynamic_allocators

#define N 256

int main(void) {
  int failures = 0;

  /* 1. alignment */
  omp_alloctrait_t aligned_traits[1] = {{omp_atk_alignment, 128}};
  omp_allocator_handle_t wide;
  int misaligned = -1, values_ok = 0;
  #pragma omp target uses_allocators(wide(aligned_traits)) map(from: misaligned, values_ok)
  {
    misaligned = 0;
    values_ok = 1;
    for (int k = 0; k < 4; ++k) {
      int *p = (int *)omp_alloc((k + 1) * 40 * sizeof(int), wide);
      if (p == NULL || ((uintptr_t)p % 128) != 0) misaligned++;
      if (p != NULL) {
        for (int i = 0; i < (k + 1) * 40; ++i) p[i] = i * k;
        for (int i = 0; i < (k + 1) * 40; ++i) values_ok &= p[i] == i * k;
        omp_free(p, wide);
      }
    }
  }
  printf("alignment trait: %s\n", misaligned == 0 && values_ok ? "ok" : "WRONG");
  failures += misaligned != 0 || !values_ok;

  /* 2. a pool with null_fb: what does not fit is NULL; a freed block's bytes come back */
  omp_alloctrait_t pool_traits[2] = {{omp_atk_pool_size, 4096}, {omp_atk_fallback, omp_atv_null_fb}};
  omp_allocator_handle_t pool;
  int first = 0, second = 0, too_big = 0, again = 0;
  #pragma omp target uses_allocators(pool(pool_traits)) map(from: first, second, too_big, again)
  {
    char *a = (char *)omp_alloc(1000, pool);
    char *b = (char *)omp_alloc(1000, pool);
    char *c = (char *)omp_alloc(3000, pool);
    first = a != NULL;
    second = b != NULL;
    too_big = c == NULL;
    omp_free(a, pool);
    char *d = (char *)omp_alloc(1000, pool);
    again = d != NULL;
    omp_free(b, pool);
    omp_free(d, pool);
    if (c != NULL) omp_free(c, pool);
  }
  printf("pool with null_fb: %s %s %s %s\n", first ? "ok" : "WRONG", second ? "ok" : "WRONG",
         too_big ? "ok" : "WRONG", again ? "ok" : "WRONG");
  failures += !first || !second || !too_big || !again;

  /* 3. default_mem_fb and allocator_fb: past the pool, memory all the same */
  omp_alloctrait_t default_fb[2] = {{omp_atk_pool_size, 64}, {omp_atk_fallback, omp_atv_default_mem_fb}};
  omp_alloctrait_t other_fb[3] = {{omp_atk_pool_size, 64}, {omp_atk_fallback, omp_atv_allocator_fb},
                                  {omp_atk_fb_data, (omp_uintptr_t)omp_default_mem_alloc}};
  omp_allocator_handle_t small, chained;
  int fell_back = 0;
  #pragma omp target uses_allocators(small(default_fb), chained(other_fb)) map(from: fell_back)
  {
    double *x = (double *)omp_alloc(1000 * sizeof(double), small);
    double *y = (double *)omp_alloc(1000 * sizeof(double), chained);
    fell_back = x != NULL && y != NULL;
    if (x != NULL) { x[999] = 1; omp_free(x, small); }
    if (y != NULL) { y[999] = 2; omp_free(y, chained); }
  }
  printf("default_mem_fb and allocator_fb: %s\n", fell_back ? "ok" : "WRONG");
  failures += !fell_back;

  /* 4. a combined construct: every iteration allocates from the one allocator */
  omp_alloctrait_t traits[1] = {{omp_atk_alignment, 64}};
  omp_allocator_handle_t alloc;   /* named like a map type */
  int bad[N];
  #pragma omp target teams distribute parallel for uses_allocators(alloc(traits)) map(from: bad)
  for (int i = 0; i < N; ++i) {
    double *v = (double *)omp_aligned_calloc(16, 8, sizeof(double), alloc);
    bad[i] = v == NULL || ((uintptr_t)v % 64) != 0 || v[7] != 0.0;
    if (v != NULL) omp_free(v, alloc);
  }
  int bad_count = 0;
  for (int i = 0; i < N; ++i) bad_count += bad[i];
  printf("combined construct, omp_aligned_calloc: %s\n", bad_count == 0 ? "ok" : "WRONG");
  failures += bad_count != 0;

  /* 5. omp_init_allocator and omp_destroy_allocator in device code */
  int made = 0, in_pool = 0, refused = 0;
  #pragma omp target map(from: made, in_pool, refused)
  {
    omp_alloctrait_t mine[3] = {{omp_atk_alignment, 256}, {omp_atk_pool_size, 2048}, {omp_atk_fallback, omp_atv_null_fb}};
    omp_allocator_handle_t a = omp_init_allocator(omp_default_mem_space, 3, mine);
    made = a != omp_null_allocator;
    if (made) {
      void *p = omp_alloc(1024, a);
      void *q = omp_alloc(4096, a);
      in_pool = p != NULL && ((uintptr_t)p % 256) == 0;
      refused = q == NULL;
      omp_free(p, a);
      omp_destroy_allocator(a);
    }
    omp_alloctrait_t odd[1] = {{omp_atk_alignment, 3}};   /* not a power of two */
    if (omp_init_allocator(omp_default_mem_space, 1, odd) != omp_null_allocator) made = 0;
  }
  printf("omp_init_allocator in device code: %s %s %s\n", made ? "ok" : "WRONG", in_pool ? "ok" : "WRONG",
         refused ? "ok" : "WRONG");
  failures += !made || !in_pool || !refused;

  printf("%s\n", failures ? "FAIL" : "PASS");
  return failures != 0;
}
