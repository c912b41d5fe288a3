/* covers: several GPUs at once: one target nowait task per device (device(d), depend on the device's slice), a second stage per device depending on the first, host tasks combining results after all devices finished, taskwait; correct on one device or none */
#include <omp.h>
#include <stdio.h>

#define N 40000
#define MAXD 16

static double v[N];
static double partial[MAXD];

int main(void) {
  int nd = omp_get_num_devices();
  int ndev = nd > 0 ? (nd < MAXD ? nd : MAXD) : 1;
  double total = 0;
#pragma omp parallel num_threads(4)
#pragma omp single
  {
    for (int d = 0; d < ndev; d++) {
      int lo = (int)((long)N * d / ndev), hi = (int)((long)N * (d + 1) / ndev);
      double *slice = v + lo;
      int len = hi - lo;
#pragma omp target teams distribute parallel for nowait device(d) map(from: slice[0:len]) depend(out: partial[d])
      for (int i = 0; i < len; i++) slice[i] = (lo + i) % 7;
#pragma omp target teams distribute parallel for nowait device(d) map(to: slice[0:len]) map(tofrom: partial[d:1]) depend(inout: partial[d])
      for (int i = 0; i < len; i++) {
#pragma omp atomic
        partial[d] += slice[i];
      }
    }
    for (int d = 0; d < ndev; d++) {
#pragma omp task depend(in: partial[d]) shared(total)
      {
#pragma omp atomic
        total += partial[d];
      }
    }
#pragma omp taskwait
  }
  double want = 0;
  for (int i = 0; i < N; i++) want += i % 7;
  printf("total=%.1f\n", total);
  printf("%s\n", total == want ? "PASS" : "FAIL");
  return 0;
}
