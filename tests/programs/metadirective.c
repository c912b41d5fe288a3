/* metadirective (OpenMP 5.0): device code takes the GPU's variant, host code (and the host fallback
   of a target region) the host's; 'nothing' and a missing default run the statement as it is. */
#include <stdio.h>
#include <omp.h>
#define N 64
int main(void) {
  int a[N], where[N], host_threads = 0;
  #pragma omp target map(from: a, where)
  #pragma omp metadirective when(device={kind(gpu)}: teams distribute parallel for) default(parallel for)
  for (int i = 0; i < N; i++) { a[i] = i * 2; where[i] = omp_is_initial_device(); }
  /* in host code the host's variant: a parallel loop on the host */
  #pragma omp metadirective when(device={kind(host)}: parallel for reduction(+: host_threads)) default(for)
  for (int i = 0; i < 4; i++) host_threads += 1;
  int sum = 0;
  #pragma omp target map(tofrom: sum)
  {
    #pragma omp metadirective when(device={arch("nvptx64")}: parallel for reduction(+: sum)) when(device={kind(host)}: nothing)
    for (int i = 0; i < N; i++) sum += i;
  }
  #pragma omp target map(tofrom: sum)
  {
    #pragma omp metadirective when(device={kind(fpga)}: parallel) default(nothing)
    sum += 1;
  }
  printf("a %d on device %d, host %d, sum %d\n", a[N - 1], where[0] == 0, host_threads, sum);
  return 0;
}
