// expect-error: 10:*: map type
#include <stdlib.h>

int main(void) {
  int n = 100;
  double *a = malloc(n * sizeof *a);
#pragma omp target enter data map(alloc: a[0:n])
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++) a[i] = i;
#pragma omp target exit data map(to: a[0:n])
  free(a);
  return 0;
}
