/* collapse on perfectly nested loops of depth 2, 3 and 4, with mixed loop forms and intervening-free bodies */
#include <stdio.h>

#define A 4
#define B 5
#define C 6
#define D 7

int main(void) {
  static int t4[A][B][C][D];
  static long m[64][64];
  int n = 64;
  long s = 0;

#pragma omp target teams distribute parallel for collapse(4) map(from: t4)
  for (int i = 0; i < A; i++)
    for (int j = 0; j < B; j++)
      for (int k = 0; k < C; k++)
        for (int l = 0; l < D; l++) t4[i][j][k][l] = i + j + k + l;

#pragma omp target teams distribute collapse(2) map(tofrom: m) firstprivate(n)
  for (int i = n - 1; i >= 0; i--)
    for (int j = 0; j < n; j += 2) {
      m[i][j] = (long)i * j;
      for (int k = 1; k < 2; k++) m[i][j + k] = m[i][j] + k;
    }

#pragma omp target map(tofrom: m, s)
#pragma omp parallel for collapse(3) reduction(+: s)
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 8; j++)
      for (unsigned k = 0; k < 16u; k++) s += m[i][j] + k;

  int i, j;
#pragma omp target teams distribute parallel for collapse(2) private(i, j) map(tofrom: m)
  for (i = 0; i <= 63; i++)
    for (j = 63; j > -1; j--) m[i][j] += 1;

#pragma omp target teams distribute parallel for simd collapse(2) map(tofrom: m)
  for (long p = 0; p < 64; p++)
    for (long q = 0; q < 64; q++) m[p][q] -= 1;

  printf("%d %ld %ld\n", t4[3][4][5][6], m[63][62], s);
  return 0;
}
