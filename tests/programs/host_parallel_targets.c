/* covers: target regions reached concurrently from a host parallel for (each host thread offloads its own block with map to/from), a shared read-only table mapped by every thread at once (present-table reference counts under contention), target data opened inside host threads, host reduction of the device results */
#include <stdio.h>
#include <stdlib.h>

#define NB 16
#define BS 1024

int main(void) {
  static double x[NB * BS], y[NB * BS], z[NB * BS];
  static double coef[64];
  for (int i = 0; i < NB * BS; i++) x[i] = i % 97;
  for (int j = 0; j < 64; j++) coef[j] = j * 0.5;

  /* every thread maps coef itself: the table sees concurrent map/unmap of one object */
#pragma omp parallel for schedule(dynamic) num_threads(4)
  for (int b = 0; b < NB; b++) {
    double *xb = x + b * BS, *yb = y + b * BS;
#pragma omp target teams distribute parallel for map(to: xb[0:BS], coef) map(from: yb[0:BS])
    for (int i = 0; i < BS; i++) yb[i] = xb[i] * coef[(i + b) % 64] + b;
  }

  /* per-thread target data regions with two kernels each */
#pragma omp parallel for schedule(static, 1) num_threads(4)
  for (int b = 0; b < NB; b++) {
    double *yb = y + b * BS, *zb = z + b * BS;
#pragma omp target data map(to: yb[0:BS]) map(from: zb[0:BS])
    {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < BS; i++) zb[i] = yb[i] * 2.0;
#pragma omp target teams distribute parallel for
      for (int i = 0; i < BS; i++) zb[i] += 1.0;
    }
  }

  long bad = 0;
  double sum = 0.0;
  for (int b = 0; b < NB; b++)
    for (int i = 0; i < BS; i++) {
      double want_y = x[b * BS + i] * coef[(i + b) % 64] + b;
      if (y[b * BS + i] != want_y || z[b * BS + i] != want_y * 2.0 + 1.0) bad++;
      sum += z[b * BS + i];
    }
  printf("blocks=%d sum=%.1f mismatches=%ld\n", NB, sum, bad);
  printf("%s\n", bad == 0 ? "PASS" : "FAIL");
  return 0;
}
