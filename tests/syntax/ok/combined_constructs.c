/* every combined and composite construct form that involves target, teams or distribute */
#include <stdio.h>
#include <stdlib.h>

#define N 1024

void combined(double *restrict a, const double *restrict b, int n) {
  double s = 0.0;

#pragma omp target parallel map(tofrom: a[0:n]) map(to: b[0:n])
  {
    a[0] = b[0];
  }

#pragma omp target parallel for map(tofrom: a[0:n]) map(to: b[0:n])
  for (int i = 0; i < n; i++) a[i] += b[i];

#pragma omp target parallel for simd map(tofrom: a[0:n]) map(to: b[0:n])
  for (int i = 0; i < n; i++) a[i] += b[i];

#pragma omp target simd map(tofrom: a[0:n])
  for (int i = 0; i < n; i++) a[i] *= 2.0;

#pragma omp target teams map(tofrom: a[0:n])
  {
    a[1] = 1.0;
  }

#pragma omp target teams distribute map(tofrom: a[0:n])
  for (int i = 0; i < n; i++) a[i] -= 1.0;

#pragma omp target teams distribute simd map(tofrom: a[0:n])
  for (int i = 0; i < n; i++) a[i] -= 1.0;

#pragma omp target teams distribute parallel for map(tofrom: a[0:n]) map(to: b[0:n])
  for (int i = 0; i < n; i++) a[i] = a[i] * b[i];

#pragma omp target teams distribute parallel for simd map(tofrom: a[0:n]) reduction(+: s)
  for (int i = 0; i < n; i++) s += a[i];

#pragma omp target map(tofrom: a[0:n])
#pragma omp teams distribute parallel for
  for (int i = 0; i < n; i++) a[i] += 1.0;

#pragma omp target map(tofrom: a[0:n])
#pragma omp teams distribute parallel for simd
  for (int i = 0; i < n; i++) a[i] += 1.0;

#pragma omp target map(tofrom: a[0:n])
#pragma omp teams distribute simd
  for (int i = 0; i < n; i++) a[i] += 1.0;

#pragma omp target map(tofrom: a[0:n])
#pragma omp teams
  {
#pragma omp distribute
    for (int i = 0; i < n; i++) a[i] += 1.0;
#pragma omp distribute parallel for
    for (int i = 0; i < n; i++) a[i] += 1.0;
#pragma omp distribute parallel for simd
    for (int i = 0; i < n; i++) a[i] += 1.0;
#pragma omp distribute simd
    for (int i = 0; i < n; i++) a[i] += 1.0;
  }

#pragma omp target map(tofrom: a[0:n])
#pragma omp parallel
  {
#pragma omp for simd
    for (int i = 0; i < n; i++) a[i] += 1.0;
#pragma omp for
    for (int i = 0; i < n; i++) a[i] += 1.0;
#pragma omp sections
    {
#pragma omp section
      a[0] = 0.0;
#pragma omp section
      a[1] = 0.0;
    }
  }

#pragma omp target map(tofrom: a[0:n])
#pragma omp parallel for simd
  for (int i = 0; i < n; i++) a[i] += 1.0;

#pragma omp target map(tofrom: a[0:n])
#pragma omp parallel sections
  {
#pragma omp section
    a[2] = 2.0;
  }
  printf("%f\n", s);
}

int main(void) {
  double *a = calloc(N, sizeof *a), *b = calloc(N, sizeof *b);
  combined(a, b, N);
  free(a);
  free(b);
  return 0;
}
