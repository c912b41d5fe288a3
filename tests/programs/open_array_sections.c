/* covers: array sections without a length on arrays of known size (a[lo:], a[:], c[1:][:]) in map clauses of target, target data, target enter/exit data and target update to/from, and in a reduction */
#include <stdio.h>

int main(void) {
  int a[10], b[10], c[4][5], d[8];
  for (int i = 0; i < 10; i++) {
    a[i] = i;
    b[i] = 0;
  }
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 5; j++) c[i][j] = i * 10 + j;
  for (int i = 0; i < 8; i++) d[i] = 1;
#pragma omp target map(to: a[1:]) map(from: b[:]) map(tofrom: c[1:][:])
  {
    for (int i = 0; i < 10; i++) b[i] = (i >= 1) ? a[i] * 2 : -1;
    c[3][4] += 100;
    c[1][0] += 100;
  }
#pragma omp target data map(tofrom: a[:])
  {
#pragma omp target
    a[9] += 1000;
#pragma omp target update from(a[5:])
    printf("after update from(a[5:]): a[9] = %d\n", a[9]);
    a[0] = 50;
#pragma omp target update to(a[:1])
#pragma omp target
    a[1] = a[0] + 1;
  }
#pragma omp target enter data map(to: d[2:])
#pragma omp target map(d[2:])
  for (int i = 2; i < 8; i++) d[i] *= 3;
#pragma omp target exit data map(from: d[2:])
  int h[4] = {0, 0, 0, 0};
#pragma omp target teams distribute parallel for reduction(+: h[:]) map(tofrom: h)
  for (int i = 0; i < 100; i++) h[i % 4] += 1;
  printf("b %d %d %d c %d %d %d a %d %d %d d %d %d %d %d h %d %d\n", b[0], b[1], b[9], c[0][0], c[1][0], c[3][4], a[0],
         a[1], a[9], d[1], d[2], d[4], d[7], h[0], h[3]);
  int ok = b[0] == -1 && b[1] == 2 && b[9] == 18 && c[0][0] == 0 && c[1][0] == 110 && c[3][4] == 134 && a[1] == 51 &&
           a[9] == 1009 && d[1] == 1 && d[2] == 3 && d[4] == 3 && d[7] == 3 && h[0] == 25 && h[3] == 25;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return 0;
}
