// expect-error: 5:*: expected ')'
#include <stdlib.h>

void scale(double *v, int n, double s) {
#pragma omp target teams distribute parallel for map(tofrom: v[0:n]
  for (int i = 0; i < n; i++) v[i] *= s;
}

int main(void) {
  double *v = calloc(64, sizeof *v);
  scale(v, 64, 2.0);
  free(v);
  return 0;
}
