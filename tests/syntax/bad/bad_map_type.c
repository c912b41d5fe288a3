// expect-error: 7:*: map type
#include <stdio.h>

int main(void) {
  float a[32];
  for (int i = 0; i < 32; i++) a[i] = i;
#pragma omp target map(tofro: a)
  for (int i = 0; i < 32; i++) a[i] += 1.0f;
  printf("%f\n", a[0]);
  return 0;
}
