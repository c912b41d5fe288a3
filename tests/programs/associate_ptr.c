/* covers: omp_target_associate_ptr / omp_target_disassociate_ptr: device memory from omp_target_alloc associated with a host array (with a device offset), target regions and target update on the associated array (present: no allocation, map copies only with always / update), omp_target_is_present, disassociate then map normally */
#include <omp.h>
#include <stdio.h>

#define N 256

int main(void) {
  int host = omp_get_initial_device();
  int nd = omp_get_num_devices();
  int dev = omp_get_default_device();
  static double h[N];
  for (int i = 0; i < N; i++) h[i] = i;
  int ok = 1;
  if (nd > 0) {
    /* the association starts 16 doubles into the device buffer */
    double *buf = omp_target_alloc((N + 16) * sizeof(double), dev);
    ok &= omp_target_memcpy(buf, h, N * sizeof(double), 16 * sizeof(double), 0, dev, host) == 0;
    ok &= omp_target_associate_ptr(h, buf, N * sizeof(double), 16 * sizeof(double), dev) == 0;
    ok &= omp_target_is_present(h, dev) && omp_target_is_present(&h[N - 1], dev);
    /* present: map(tofrom) neither copies nor frees */
    for (int i = 0; i < N; i++) h[i] = -1;
#pragma omp target teams distribute parallel for map(tofrom: h)
    for (int i = 0; i < N; i++) h[i] = h[i] * 2;
    ok &= h[10] == -1;   /* not copied back: the association is never unmapped */
#pragma omp target update from(h)
    ok &= h[10] == 20;
    double first;
    ok &= omp_target_memcpy(&first, buf, sizeof(double), 0, 16 * sizeof(double), host, dev) == 0 && first == 0;
    ok &= omp_target_disassociate_ptr(h, dev) == 0;
    ok &= !omp_target_is_present(h, dev);
    omp_target_free(buf, dev);
  } else {
    for (int i = 0; i < N; i++) h[i] *= 2;   /* what the device part computes */
  }
  /* after disassociation, a normal map copies both ways */
#pragma omp target map(tofrom: h)
  for (int i = 0; i < N; i++) h[i] += 1;
  long s = 0;
  for (int i = 0; i < N; i++) s += (long)h[i];
  printf("sum=%ld h[10]=%.1f\n", s, h[10]);
  printf("%s\n", ok && s == (long)N * (N - 1) + N ? "PASS" : "FAIL");
  return 0;
}
