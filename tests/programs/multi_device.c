/* covers: several GPUs: work split across all devices with device(d) on target enter data, target teams distribute parallel for, target update and exit data; per-device present tables (the same host array mapped on every device at once); omp_target_alloc/memcpy per device and device-to-device copies between GPUs; correct on one device or none */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N 60000

int main(void) {
  int nd = omp_get_num_devices();
  int ndev = nd > 0 ? nd : 1;
  double *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
  static double table[32];
  for (int i = 0; i < N; i++) x[i] = i % 1000;
  for (int j = 0; j < 32; j++) table[j] = j;

  /* the table is mapped on every device; each device gets a slice of x and y (through
     pointers to the slice: a kernel's pointer must point into what the device has) */
  for (int d = 0; d < ndev; d++) {
    int lo = (int)((long)N * d / ndev), len = (int)((long)N * (d + 1) / ndev) - lo;
    double *xs = x + lo, *ys = y + lo;
#pragma omp target enter data map(to: table, xs[0:len]) map(alloc: ys[0:len]) device(d)
  }
  for (int d = 0; d < ndev; d++) {
    int lo = (int)((long)N * d / ndev), len = (int)((long)N * (d + 1) / ndev) - lo;
    double *xs = x + lo, *ys = y + lo;
#pragma omp target teams distribute parallel for device(d)
    for (int i = 0; i < len; i++) ys[i] = xs[i] * 2 + table[(lo + i) % 32];
  }
  for (int d = 0; d < ndev; d++) {
    int lo = (int)((long)N * d / ndev), len = (int)((long)N * (d + 1) / ndev) - lo;
    double *xs = x + lo, *ys = y + lo;
#pragma omp target update from(ys[0:len]) device(d)
#pragma omp target exit data map(release: table, xs[0:len]) map(delete: ys[0:len]) device(d)
  }
  int ok = 1;
  double s = 0;
  for (int i = 0; i < N; i++) {
    ok &= y[i] == x[i] * 2 + (i % 32);
    s += y[i];
  }
  printf("split over the devices: sum=%.1f\n", s);

  /* device memory on every device; a ring of device-to-device copies */
  int host = omp_get_initial_device();
  int M = 1000;
  int *bufs[16];
  int rc = 0;
  int first = nd > 0 ? 0 : host;
  int count = nd > 0 ? (nd < 16 ? nd : 16) : 1;
  for (int d = 0; d < count; d++) bufs[d] = omp_target_alloc(M * sizeof(int), nd > 0 ? d : host);
  int *seed = malloc(M * sizeof(int));
  for (int i = 0; i < M; i++) seed[i] = i;
  rc |= omp_target_memcpy(bufs[0], seed, M * sizeof(int), 0, 0, first, host);
  for (int d = 1; d < count; d++) {
    rc |= omp_target_memcpy(bufs[d], bufs[d - 1], M * sizeof(int), 0, 0, d, d - 1);
    int *b = bufs[d];
#pragma omp target teams distribute parallel for is_device_ptr(b) device(d)
    for (int i = 0; i < M; i++) b[i] += 1;
  }
  int *back = malloc(M * sizeof(int));
  rc |= omp_target_memcpy(back, bufs[count - 1], M * sizeof(int), 0, 0, host, nd > 0 ? count - 1 : host);
  long bs = 0;
  for (int i = 0; i < M; i++) bs += back[i] - (count - 1);
  printf("ring copy rc=%d normalised sum=%ld\n", rc, bs);
  for (int d = 0; d < count; d++) omp_target_free(bufs[d], nd > 0 ? d : host);
  printf("%s\n", ok && rc == 0 && bs == (long)M * (M - 1) / 2 ? "PASS" : "FAIL");
  free(x);
  free(y);
  free(seed);
  free(back);
  return 0;
}
