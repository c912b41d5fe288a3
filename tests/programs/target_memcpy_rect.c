/* covers: omp_target_memcpy_rect: query form (NULL, NULL), 2-D sub-block host->device and device->host with offsets, 3-D sub-volume, device->device, a kernel on the device copy (is_device_ptr) */
#include <omp.h>
#include <stdio.h>

#define R 12
#define C 10

int main(void) {
  int host = omp_get_initial_device();
  int dev = omp_get_num_devices() > 0 ? omp_get_default_device() : host;
  printf("query: %s\n", omp_target_memcpy_rect(NULL, NULL, 0, 0, NULL, NULL, NULL, NULL, NULL, dev, host) >= 3 ? "at least 3 dims" : "fewer");

  static double m[R][C], back[R][C];
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) m[i][j] = i * 100 + j;
  double *d = omp_target_alloc(sizeof m, dev);
  /* zero the device copy through a kernel, then copy the 4x5 block at (2,3) of m to (6,1) on the device */
#pragma omp target teams distribute parallel for is_device_ptr(d) device(dev)
  for (int k = 0; k < R * C; k++) d[k] = 0;
  size_t vol[2] = {4, 5}, doff[2] = {6, 1}, soff[2] = {2, 3}, dims[2] = {R, C};
  int rc = omp_target_memcpy_rect(d, m, sizeof(double), 2, vol, doff, soff, dims, dims, dev, host);
#pragma omp target teams distribute parallel for is_device_ptr(d) device(dev)
  for (int k = 0; k < R * C; k++) d[k] += 0.5;
  size_t zero[2] = {0, 0}, all[2] = {R, C};
  rc |= omp_target_memcpy_rect(back, d, sizeof(double), 2, all, zero, zero, dims, dims, host, dev);
  printf("2-D rc=%d back[6][1]=%.1f back[9][5]=%.1f back[5][1]=%.1f back[6][6]=%.1f\n", rc, back[6][1], back[9][5],
         back[5][1], back[6][6]);
  int ok = 1;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) {
      int in = i >= 6 && i < 10 && j >= 1 && j < 6;
      double want = (in ? m[i - 4][j + 2] : 0.0) + 0.5;
      ok &= back[i][j] == want;
    }

  /* 3-D: a 2x3x4 box between two 5x6x7 volumes, through a second device buffer */
  static int a[5][6][7], b[5][6][7];
  for (int i = 0; i < 5; i++)
    for (int j = 0; j < 6; j++)
      for (int k = 0; k < 7; k++) a[i][j][k] = i * 10000 + j * 100 + k;
  int *da = omp_target_alloc(sizeof a, dev), *db = omp_target_alloc(sizeof a, dev);
  size_t v3[3] = {2, 3, 4}, o0[3] = {0, 0, 0}, o1[3] = {1, 2, 3}, o2[3] = {3, 0, 1}, d3[3] = {5, 6, 7},
         full[3] = {5, 6, 7};
  rc = omp_target_memcpy_rect(da, a, sizeof(int), 3, full, o0, o0, d3, d3, dev, host);
#pragma omp target teams distribute parallel for is_device_ptr(db) device(dev)
  for (int k = 0; k < 5 * 6 * 7; k++) db[k] = -1;
  rc |= omp_target_memcpy_rect(db, da, sizeof(int), 3, v3, o2, o1, d3, d3, dev, dev);
  rc |= omp_target_memcpy_rect(b, db, sizeof(int), 3, full, o0, o0, d3, d3, host, dev);
  int cnt = 0;
  for (int i = 0; i < 5; i++)
    for (int j = 0; j < 6; j++)
      for (int k = 0; k < 7; k++) {
        int in = i >= 3 && i < 5 && j < 3 && k >= 1 && k < 5;
        int want = in ? a[i - 2][j + 2][k + 2] : -1;
        ok &= b[i][j][k] == want;
        cnt += in;
      }
  printf("3-D rc=%d copied=%d b[3][0][1]=%d\n", rc, cnt, b[3][0][1]);
  omp_target_free(d, dev);
  omp_target_free(da, dev);
  omp_target_free(db, dev);
  printf("%s\n", ok && rc == 0 ? "PASS" : "FAIL");
  return 0;
}
