/* has_device_addr (OpenMP 5.1) of a pointer's section: device memory from omp_target_alloc
   used in a region as is (the host fallback leaves the clause out: gcc 12 rejects it). */
#include <omp.h>
#include <stdio.h>

int main(void) {
  int n = 100, dev = omp_get_default_device();
  int *p = omp_target_alloc(n * sizeof(int), dev);
  long sum = 0;
  #pragma omp target teams distribute parallel for has_device_addr(p[0:n])
  for (int i = 0; i < n; i++) p[i] = 3 * i;
  #pragma omp target teams distribute parallel for has_device_addr(p[0:n]) reduction(+: sum) map(tofrom: sum)
  for (int i = 0; i < n; i++) sum += p[i];
  int host[100];
  omp_target_memcpy(host, p, n * sizeof(int), 0, 0, omp_get_initial_device(), dev);
  printf("sum %ld last %d\n", sum, host[99]);
  omp_target_free(p, dev);
  return 0;
}
