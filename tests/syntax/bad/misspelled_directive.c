// expect-error: 8:*: unknown openmp directive
#include <stdio.h>

int main(void) {
  double a[100];
#pragma omp target map(from: a)
  {
#pragma omp paralel for
    for (int i = 0; i < 100; i++) a[i] = i;
  }
  printf("%f\n", a[99]);
  return 0;
}
