/* covers: begin/end declare variant (OpenMP 5.1) at file scope: a block whose selector matches the host (kind(host), arch(x86_64)) stays in the host code, one that matches nothing is left out, nested blocks; omp_is_initial_device from <omp.h> on both sides; a target region beside them */
#include <omp.h>
#include <stdio.h>

#pragma omp begin declare variant match(device = {kind(host)})
static int where(void) { return 1; }
#pragma omp end declare variant

#pragma omp begin declare variant match(device = {kind(fpga)})
static int where(void) { return 2; } /* never compiled: no fpga here */
static int only_on_an_fpga(void) { return 3; }
#pragma omp end declare variant

#pragma omp begin declare variant match(device = {kind(cpu)})
#pragma omp begin declare variant match(implementation = {vendor(unknown)})
static int where(void) { return 4; } /* the inner block matches no vendor */
#pragma omp end declare variant
static int host_twice(int x) { return 2 * x; }
#pragma omp end declare variant

int main(void) {
  int n = 1000, sum = 0, on_device_initial = -1;
  int a[1000];
  for (int i = 0; i < n; i++) a[i] = host_twice(i);
#pragma omp target teams distribute parallel for map(to: a) map(tofrom: sum) reduction(+: sum)
  for (int i = 0; i < n; i++) sum += a[i];
#pragma omp target map(from: on_device_initial)
  on_device_initial = omp_is_initial_device();
  printf("where %d\n", where());
  printf("sum %d\n", sum);
  printf("host is initial device: %d\n", omp_is_initial_device());
  printf("%s\n", sum == 999000 && where() == 1 ? "PASS" : "FAIL");
  (void)on_device_initial; /* 0 on a GPU, 1 in the host fallback: not printed */
  return 0;
}
