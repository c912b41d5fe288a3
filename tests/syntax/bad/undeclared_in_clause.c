// expect-error: 7:*: undeclared
#include <stdio.h>

int main(void) {
  double a[128];
  double total = 0.0;
#pragma omp target teams distribute parallel for map(to: a) map(tofrom: totl) reduction(+: total)
  for (int i = 0; i < 128; i++) total += a[i];
  printf("%f\n", total);
  return 0;
}
