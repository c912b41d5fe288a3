/* covers: the OpenMP 5.0 memory routines in device code: omp_alloc, omp_aligned_alloc, omp_calloc, omp_aligned_calloc, omp_realloc and omp_free with the predefined allocators (default, thread, pteam, large_cap), per thread in a parallel region and on a team's master shared with its region, size 0 and NULL cases */
#include <stdio.h>
#include <stdint.h>
#include <omp.h>

int main(void) {
  int ok_alloc = 0, ok_aligned = 0, ok_calloc = 0, ok_realloc = 0, ok_shared = 0, ok_edge = 0;
#pragma omp target map(tofrom: ok_alloc, ok_aligned, ok_calloc, ok_realloc, ok_shared, ok_edge)
  {
    int bad = 0;
#pragma omp parallel num_threads(8) reduction(+: bad)
    {
      int t = omp_get_thread_num();
      int *p = (int *)omp_alloc(16 * sizeof(int), omp_thread_mem_alloc);
      if (p == NULL) {
        bad += 100;
      } else {
        for (int k = 0; k < 16; k++) p[k] = t * 100 + k;
        for (int k = 0; k < 16; k++) bad += p[k] != t * 100 + k;
        omp_free(p, omp_thread_mem_alloc);
      }
    }
    ok_alloc = bad == 0;

    double *q = (double *)omp_aligned_alloc(256, 10 * sizeof(double), omp_default_mem_alloc);
    ok_aligned = q != NULL && ((uintptr_t)q % 256) == 0;
    omp_free(q, omp_default_mem_alloc);

    long *z = (long *)omp_calloc(32, sizeof(long), omp_large_cap_mem_alloc);
    long *za = (long *)omp_aligned_calloc(128, 8, sizeof(long), omp_default_mem_alloc);
    int zero = z != NULL && za != NULL && ((uintptr_t)za % 128) == 0;
    for (int k = 0; zero && k < 32; k++) zero = z[k] == 0;
    for (int k = 0; zero && k < 8; k++) zero = za[k] == 0;
    ok_calloc = zero;
    omp_free(z, omp_large_cap_mem_alloc);
    omp_free(za, omp_default_mem_alloc);

    int *r = (int *)omp_alloc(4 * sizeof(int), omp_default_mem_alloc);
    for (int k = 0; k < 4; k++) r[k] = k + 1;
    r = (int *)omp_realloc(r, 64 * sizeof(int), omp_default_mem_alloc, omp_default_mem_alloc);
    ok_realloc = r != NULL && r[0] == 1 && r[3] == 4;
    r[63] = 7;
    ok_realloc = ok_realloc && r[63] == 7;
    omp_free(r, omp_default_mem_alloc);

    /* team memory from the master, used by the team's threads */
    int *team = (int *)omp_alloc(8 * sizeof(int), omp_pteam_mem_alloc);
#pragma omp parallel num_threads(8)
    team[omp_get_thread_num()] = omp_get_thread_num() * 3;
    int sum = 0;
    for (int k = 0; k < 8; k++) sum += team[k];
    ok_shared = sum == 3 * 28;
    omp_free(team, omp_pteam_mem_alloc);

    ok_edge = omp_alloc(0, omp_default_mem_alloc) == NULL &&
              omp_realloc(NULL, 0, omp_default_mem_alloc, omp_default_mem_alloc) == NULL;
    omp_free(NULL, omp_default_mem_alloc);
  }
  printf("alloc %d aligned %d calloc %d realloc %d shared %d edge %d\n", ok_alloc, ok_aligned, ok_calloc, ok_realloc,
         ok_shared, ok_edge);
  printf("%s\n", ok_alloc && ok_aligned && ok_calloc && ok_realloc && ok_shared && ok_edge ? "PASS" : "FAIL");
  return 0;
}
