/* covers: omp_target_alloc/omp_target_free, is_device_ptr on target and on a combined construct, target data use_device_ptr passing the device address to a target region */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define N 1024

int main(void) {
  int dev = omp_get_default_device();
  double *d = (double *)omp_target_alloc(N * sizeof(double), dev);
  if (!d) {
    printf("omp_target_alloc failed\n");
    return 1;
  }

#pragma omp target teams distribute parallel for is_device_ptr(d) device(dev)
  for (int i = 0; i < N; i++) d[i] = (double)(i % 50) * 2.0;

  /* second kernel works on the same device buffer */
#pragma omp target is_device_ptr(d) device(dev)
#pragma omp teams distribute parallel for
  for (int i = 0; i < N; i++) d[i] += 1.0;

  /* copy back through a mapped host array */
  double *h = malloc(N * sizeof *h);
#pragma omp target teams distribute parallel for is_device_ptr(d) map(from: h[0:N]) device(dev)
  for (int i = 0; i < N; i++) h[i] = d[i];
  omp_target_free(d, dev);

  double s = 0.0;
  for (int i = 0; i < N; i++) s += h[i];
  printf("is_device_ptr: h[0]=%.1f h[49]=%.1f h[1023]=%.1f sum=%.1f\n", h[0], h[49], h[1023], s);

  /* use_device_ptr: inside the data region the name refers to the device copy */
  int *a = malloc(N * sizeof *a);
  for (int i = 0; i < N; i++) a[i] = i;
#pragma omp target data map(tofrom: a[0:N])
  {
#pragma omp target data use_device_ptr(a)
    {
#pragma omp target teams distribute parallel for is_device_ptr(a)
      for (int i = 0; i < N; i++) a[i] = 3 * a[i] + 1;
    }
  }
  long as = 0;
  for (int i = 0; i < N; i++) as += a[i];
  printf("use_device_ptr: a[0]=%d a[1023]=%d sum=%ld\n", a[0], a[1023], as);

  double want = 0.0;
  for (int i = 0; i < N; i++) want += (i % 50) * 2.0 + 1.0;
  printf("%s\n", s == want && as == 3L * (N * (N - 1) / 2) + N ? "PASS" : "FAIL");
  free(h);
  free(a);
  return 0;
}
