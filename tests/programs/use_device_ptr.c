/* covers: target data use_device_ptr (the device address inside the region), passing it to is_device_ptr regions, omp_target_memcpy between the mapped array's device copy and host memory, nested target data keeping the data present, use_device_ptr on two pointers */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N 800

static void scale_on_device(double *dptr, int n, double f) {
#pragma omp target teams distribute parallel for is_device_ptr(dptr)
  for (int i = 0; i < n; i++) dptr[i] *= f;
}

int main(void) {
  double *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
  for (int i = 0; i < N; i++) {
    a[i] = i;
    b[i] = 1;
  }
  int host = omp_get_initial_device();
  int dev = omp_get_num_devices() > 0 ? omp_get_default_device() : host;
  double probe[4] = {0};
  int rc = 0;
#pragma omp target data map(tofrom: a[0:N]) map(to: b[0:N])
  {
#pragma omp target data use_device_ptr(a, b)
    {
      scale_on_device(a, N, 3.0);
      /* device -> host copy straight from the device address */
      rc |= omp_target_memcpy(probe, a, 4 * sizeof(double), 0, 10 * sizeof(double), host, dev);
#pragma omp target teams distribute parallel for is_device_ptr(a, b)
      for (int i = 0; i < N; i++) a[i] += b[i];
    }
  }
  printf("probe: %.1f %.1f %.1f %.1f rc=%d\n", probe[0], probe[1], probe[2], probe[3], rc);
  double s = 0;
  for (int i = 0; i < N; i++) s += a[i];
  printf("sum=%.1f\n", s);
  printf("%s\n", s == 3.0 * N * (N - 1) / 2 + N && probe[0] == 30 && rc == 0 ? "PASS" : "FAIL");
  free(a);
  free(b);
  return 0;
}
