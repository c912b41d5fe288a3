/* covers: host device-memory API: omp_target_alloc/omp_target_free, omp_target_memcpy host->device, device->device (same device), device->host with offsets, omp_target_is_present before/after mapping, omp_get_num_devices/omp_get_initial_device/omp_get_default_device consistency, is_device_ptr on memory from omp_target_alloc */
#include <omp.h>
#include <stdio.h>

#define N 1000

int main(void) {
  int host = omp_get_initial_device();
  int dev = omp_get_default_device();
  int nd = omp_get_num_devices();
  printf("initial device == num devices: %s\n", host == nd ? "yes" : "no");
  if (nd == 0) dev = host;   /* no GPU: the host plays the device */

  double h[N], back[N];
  for (int i = 0; i < N; i++) h[i] = i;
  double *d1 = omp_target_alloc(N * sizeof(double), dev);
  double *d2 = omp_target_alloc(N * sizeof(double), dev);
  printf("alloc: %s\n", d1 && d2 ? "ok" : "failed");
  int rc = omp_target_memcpy(d1, h, N * sizeof(double), 0, 0, dev, host);
  rc |= omp_target_memcpy(d2, d1, N * sizeof(double), 0, 0, dev, dev);

#pragma omp target teams distribute parallel for is_device_ptr(d2) device(dev)
  for (int i = 0; i < N; i++) d2[i] = d2[i] * 2 + 1;

  for (int i = 0; i < N; i++) back[i] = -1;
  /* 10 elements from d2[100..109] into back[5..14] */
  rc |= omp_target_memcpy(back, d2, 10 * sizeof(double), 5 * sizeof(double), 100 * sizeof(double), host, dev);
  printf("memcpy rc=%d back[4]=%.1f back[5]=%.1f back[14]=%.1f back[15]=%.1f\n", rc, back[4], back[5], back[14],
         back[15]);
  rc = omp_target_memcpy(back, d2, N * sizeof(double), 0, 0, host, dev);
  long s = 0;
  for (int i = 0; i < N; i++) s += (long)back[i];
  printf("full copy rc=%d sum=%ld\n", rc, s);

  printf("present before map: %d\n", nd > 0 ? omp_target_is_present(h, dev) : 0);
#pragma omp target data map(to: h)
  {
    printf("present inside target data: %d %d\n", omp_target_is_present(h, dev), omp_target_is_present(&h[N - 1], dev));
  }
  printf("present after: %d\n", nd > 0 ? omp_target_is_present(h, dev) : 0);
  printf("host is always present: %d\n", omp_target_is_present(h, host));
  omp_target_free(d1, dev);
  omp_target_free(d2, dev);
  omp_target_free(NULL, dev);
  printf("%s\n", s == (long)N * N && back[999] == 1999 ? "PASS" : "FAIL");
  return 0;
}
