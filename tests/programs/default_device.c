/* covers: omp_get_default_device / omp_set_default_device (the target of constructs without a device clause), device(omp_get_initial_device()) runs on the host (omp_is_initial_device() == 1 there), device(n) for every available device, data constructs with device clauses, setting the default device back */
#include <omp.h>
#include <stdio.h>

#define N 100

int main(void) {
  int nd = omp_get_num_devices();
  int host = omp_get_initial_device();
  int d0 = omp_get_default_device();
  printf("default device is a valid number: %s\n", d0 >= 0 && d0 <= nd ? "yes" : "no");

  int on_host = -1;
#pragma omp target device(host) map(from: on_host)
  on_host = omp_is_initial_device();
  printf("device(initial device) runs on the host: %d\n", on_host);

  /* the default device set to the host: constructs without a device clause run there */
  omp_set_default_device(host);
  int r = -1;
#pragma omp target map(from: r)
  r = omp_is_initial_device();
  printf("default device = host: initial=%d (get_default_device == initial: %s)\n", r,
         omp_get_default_device() == host ? "yes" : "no");
  omp_set_default_device(d0);

  /* every device, each with its own data environment */
  static int a[N];
  long total = 0;
  int ndev = nd > 0 ? nd : 1;
  for (int d = 0; d < ndev; d++) {
    for (int i = 0; i < N; i++) a[i] = i + d;
#pragma omp target data map(tofrom: a) device(d)
    {
#pragma omp target teams distribute parallel for device(d)
      for (int i = 0; i < N; i++) a[i] *= 2;
#pragma omp target update from(a) device(d)
    }
    for (int i = 0; i < N; i++) total += a[i] - 2 * d;
  }
  printf("per-device total (normalised)=%ld\n", total / ndev);
  printf("%s\n", on_host == 1 && r == 1 && total / ndev == (long)N * (N - 1) ? "PASS" : "FAIL");
  return 0;
}
