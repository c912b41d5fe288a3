/* covers: the present map-type modifier (OpenMP 5.1) on target constructs inside a target data region, alone (on an array section too) and with always/close, on a combined construct; the host fallback (compiled by a host compiler that may not know the modifier) still builds */
#include <stdio.h>

int main(void) {
  int a[8], b[8];
  for (int i = 0; i < 8; i++) {
    a[i] = i;
    b[i] = 0;
  }
#pragma omp target data map(tofrom: a, b)
  {
#pragma omp target map(present, tofrom: a[0:8])
    for (int i = 0; i < 8; i++) a[i] += 10;
#pragma omp target teams distribute parallel for map(present, close, to: a) map(present, from: b)
    for (int i = 0; i < 8; i++) b[i] = 2 * a[i];
#pragma omp target map(always, present, from: b)
    b[0] = -1;
  }
  printf("a %d %d b %d %d %d\n", a[0], a[7], b[0], b[1], b[7]);
  printf("%s\n", a[0] == 10 && a[7] == 17 && b[0] == -1 && b[1] == 22 && b[7] == 34 ? "PASS" : "FAIL");
  return 0;
}
