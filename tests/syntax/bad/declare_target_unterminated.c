// expect-error: 4:*: declare target
#include <stdio.h>

#pragma omp declare target
static double square(double x) { return x * x; }

int main(void) {
  double r = 0.0;
#pragma omp target map(tofrom: r)
  r = square(3.0);
  printf("%f\n", r);
  return 0;
}
