/* covers: array sections a[lo:len] with nonzero lo in map(to/from/tofrom), 2-D array sections m[r0:rn][0:C], partial copy-back, target parallel for */
#include <stdio.h>

#define N 64
#define R 12
#define C 10

int main(void) {
  int a[N], b[N];
  double m[R][C];
  for (int i = 0; i < N; i++) {
    a[i] = i;
    b[i] = -1;
  }
  for (int r = 0; r < R; r++)
    for (int c = 0; c < C; c++)
      m[r][c] = r * 100 + c;

  /* only a[10..29] goes to the device; only b[10..29] comes back */
  int lo = 10, len = 20;
#pragma omp target parallel for map(to: a[lo:len]) map(from: b[lo:len])
  for (int i = lo; i < lo + len; i++)
    b[i] = a[i] * a[i];

  int ok = 1;
  for (int i = 0; i < N; i++) {
    int want = (i >= lo && i < lo + len) ? i * i : -1;
    if (b[i] != want) ok = 0;
  }
  printf("section from: b[9]=%d b[10]=%d b[29]=%d b[30]=%d %s\n", b[9], b[10], b[29], b[30],
         ok ? "ok" : "bad");

  /* tofrom on a section with a constant lower bound */
#pragma omp target map(tofrom: a[40:8])
  {
    for (int i = 40; i < 48; i++)
      a[i] += 1000;
  }
  long s = 0;
  for (int i = 0; i < N; i++) s += a[i];
  printf("section tofrom: a[39]=%d a[40]=%d a[47]=%d a[48]=%d sum=%ld\n", a[39], a[40], a[47], a[48], s);

  /* 2-D: rows 3..8 of m, all columns */
#pragma omp target teams distribute parallel for collapse(2) map(tofrom: m[3:6][0:C])
  for (int r = 3; r < 9; r++)
    for (int c = 0; c < C; c++)
      m[r][c] = -m[r][c];

  double t = 0.0;
  int neg = 0;
  for (int r = 0; r < R; r++)
    for (int c = 0; c < C; c++) {
      t += m[r][c];
      if (m[r][c] < 0) neg++;
    }
  printf("2d section: negated=%d total=%.0f m[2][5]=%.0f m[3][5]=%.0f m[8][9]=%.0f m[9][0]=%.0f\n", neg, t,
         m[2][5], m[3][5], m[8][9], m[9][0]);

  /* section of a pointer with an offset base */
  int *p = a + 16;
#pragma omp target map(tofrom: p[2:4])
  for (int i = 2; i < 6; i++) p[i] = p[i] * 3;
  printf("pointer section: a[17]=%d a[18]=%d a[21]=%d a[22]=%d\n", a[17], a[18], a[21], a[22]);
  printf("%s\n", ok && neg == 6 * C && a[18] == 54 && a[21] == 63 ? "PASS" : "FAIL");
  return 0;
}
