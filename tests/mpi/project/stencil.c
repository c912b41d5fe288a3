#include "stencil.h"

#pragma omp declare target
double smooth(double left, double centre, double right) { return centre + 0.25 * (left - 2.0 * centre + right); }
#pragma omp end declare target

double heat_step(double *x, double *tmp, int n) {
  double sum = 0.0;
  #pragma omp target teams distribute parallel for map(to: x[0:n + 2]) map(from: tmp[1:n]) reduction(+: sum)
  for (int i = 1; i <= n; i++) {
    tmp[i] = smooth(x[i - 1], x[i], x[i + 1]);
    sum += tmp[i];
  }
  for (int i = 1; i <= n; i++) x[i] = tmp[i];
  return sum;
}
