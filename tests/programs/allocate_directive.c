/* covers: the allocate directive (OpenMP 5.0/5.1) in host code (align on file-scope and local arrays, predefined allocators, an allocator made by omp_init_allocator with an alignment trait for two local arrays of one directive, which an aligned clause names: their storage, freed at the end of the block), and in device code (align in a target region and in a declare target function; the align modifier of allocate clauses on private and firstprivate copies of teams and parallel constructs), an aligned array mapped to a target region */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>

#define N 1000

static double table[N];
#pragma omp allocate(table) allocator(omp_default_mem_alloc) align(256)

#pragma omp declare target
int aligned_on_device(void) {
  double v[8];
  #pragma omp allocate(v) allocator(omp_thread_mem_alloc) align(128)
  for (int i = 0; i < 8; ++i) v[i] = i;
  return ((uintptr_t)v % 128) == 0 && v[7] == 7.0;
}
#pragma omp end declare target

static long sum_with_allocator(omp_allocator_handle_t al, int n) {
  int values[N], twice[N];
  /* two variables in one directive; an aligned clause that names them (SOLLVE 5.0 allocate_allocator) */
  #pragma omp allocate(values, twice) allocator(al)
  if ((uintptr_t)values % 512 != 0 || (uintptr_t)twice % 512 != 0) return -1;   /* the allocator's alignment trait */
  #pragma omp parallel for simd aligned(values, twice: 64)
  for (int i = 0; i < n; ++i) {
    values[i] = i;
    twice[i] = 2 * i;
  }
  long s = 0;
  #pragma omp parallel for reduction(+: s)
  for (int i = 0; i < n; ++i) s += values[i] + twice[i] - 2 * i;
  return s + (long)(sizeof(values) != N * sizeof(int));
}

int main(void) {
  int failures = 0;

  /* host: align on a local array, mapped to a target region */
  double x[N];
  #pragma omp allocate(x) align(64)
  int x_aligned = (uintptr_t)x % 64 == 0;
  #pragma omp target map(from: x[:N])
  for (int i = 0; i < N; ++i) x[i] = 2 * i;
  printf("local array aligned: %s, values: %s\n", x_aligned ? "ok" : "WRONG", x[N - 1] == 2 * (N - 1) ? "ok" : "WRONG");
  failures += !x_aligned || x[N - 1] != 2 * (N - 1);
  printf("file-scope array aligned: %s\n", (uintptr_t)table % 256 == 0 ? "ok" : "WRONG");
  failures += (uintptr_t)table % 256 != 0;

  /* host: storage from an allocator with traits, many times (each block frees its own) */
  omp_alloctrait_t traits[1] = {{omp_atk_alignment, 512}};
  omp_allocator_handle_t al = omp_init_allocator(omp_default_mem_space, 1, traits);
  long total = 0;
  for (int rep = 0; rep < 100; ++rep) total += sum_with_allocator(al, N);
  printf("allocator with traits: %s\n", total == 100L * N * (N - 1) / 2 ? "ok" : "WRONG");
  failures += total != 100L * N * (N - 1) / 2;
  omp_destroy_allocator(al);

  /* device: align in a target region and in a declare target function */
  int region_ok = 0, function_ok = 0;
  #pragma omp target map(from: region_ok, function_ok)
  {
    int w[5];
    #pragma omp allocate(w) align(256)
    w[4] = 3;
    region_ok = (uintptr_t)w % 256 == 0 && w[4] == 3;
    function_ok = aligned_on_device();
  }
  printf("device: region %s, declare target function %s\n", region_ok ? "ok" : "WRONG", function_ok ? "ok" : "WRONG");
  failures += !region_ok || !function_ok;

  /* device: the align modifier of allocate clauses (OpenMP 5.1) on private and firstprivate
     copies of teams and parallel constructs (a target construct's own private copies are
     aligned on the device too, but gcc 12 ignores the clause there in the host fallback) */
  int misaligned = -1, team_misaligned = 0;
  double t = 1, u = 2;
  #pragma omp target map(from: misaligned)
  {
    misaligned = 0;
    #pragma omp parallel num_threads(4) private(t) firstprivate(u) reduction(+: misaligned) \
        allocate(allocator(omp_default_mem_alloc), align(64): t, u)
    {
      t = u;
      misaligned += ((uintptr_t)&t % 64 != 0) + ((uintptr_t)&u % 64 != 0);
    }
  }
  #pragma omp target teams num_teams(2) private(t) allocate(allocator(omp_default_mem_alloc), align(256): t) \
      reduction(+: team_misaligned)
  team_misaligned += (uintptr_t)&t % 256 != 0;
  printf("allocate clauses with align on device copies: %s\n", misaligned == 0 && team_misaligned == 0 ? "ok" : "WRONG");
  failures += misaligned != 0 || team_misaligned != 0;

  printf("%s\n", failures ? "FAIL" : "PASS");
  return failures != 0;
}
