/* loop iteration variables of many integer types and typedefs, bounds of other types, loop variables declared before the loop, casts in bounds */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef long idx_t;
typedef unsigned int uidx_t;

int main(void) {
  static double a[4096];
  size_t n = 4096;
  int64_t n64 = 4096;
  uint16_t small = 100;
  idx_t i;
  uidx_t u;
  unsigned char c;
  short sh;

#pragma omp target teams distribute parallel for map(tofrom: a)
  for (size_t k = 0; k < n; k++) a[k] = (double)k;
#pragma omp target teams distribute parallel for map(tofrom: a)
  for (int64_t k = n64 - 1; k >= 0; k--) a[k] += 1.0;
#pragma omp target teams distribute parallel for map(tofrom: a)
  for (i = 0; i < (idx_t)n; i += 4) a[i] *= 2.0;
#pragma omp target teams distribute parallel for map(tofrom: a)
  for (u = 0u; u < (uidx_t)small; u++) a[u] -= 1.0;
#pragma omp target parallel for map(tofrom: a)
  for (c = 0; c < 200; c++) a[c] += 0.5;
#pragma omp target parallel for map(tofrom: a)
  for (sh = -100; sh < 100; sh++) a[sh + 100] += 0.25;
#pragma omp target teams distribute parallel for map(tofrom: a)
  for (ptrdiff_t k = 0; k < (ptrdiff_t)(n / 2); k++) a[2 * k] = a[2 * k + 1];
#pragma omp target teams distribute parallel for collapse(2) map(tofrom: a)
  for (uint32_t r = 0; r < 64u; r++)
    for (long long q = 0; q < 64LL; q++) a[r * 64 + q] += (double)(r + q);
  printf("%f\n", a[4095]);
  return 0;
}
