/* covers: lastprivate arrays and scalars whose originals are mapped only by an enclosing target data: on target teams distribute, target teams distribute parallel for, a parallel for inside a target region, a separate distribute inside target teams; a 2-D array, a struct, the loop variable itself, and a lastprivate scalar of a combined target construct without any map (mapped tofrom implicitly) */
#include <stdio.h>

struct rec { int a; double b; };

int main(void) {
  int ok = 1;
  int data[100];
  for (int i = 0; i < 100; i++) data[i] = 3 * i;
  int last[3] = {0, 0, 0}, x = -1, iv = -1;
  int last2[3] = {0, 0, 0};
  int grid[2][2] = {{0, 0}, {0, 0}};
  struct rec r = {0, 0.0};
#pragma omp target data map(tofrom: last, x, last2, grid, r, iv) map(to: data)
  {
#pragma omp target teams distribute lastprivate(last, x)
    for (int i = 0; i < 100; i++) {
      last[0] = data[i];
      last[1] = 2 * i;
      last[2] = 7;
      x = i;
    }
#pragma omp target teams distribute parallel for lastprivate(last2, grid, r)
    for (int i = 0; i < 64; i++) {
      last2[0] = i;
      last2[1] = data[i];
      last2[2] = -i;
      grid[1][0] = i * 10;
      grid[0][1] = 5;
      grid[0][0] = grid[1][1] = 1;
      r.a = i;
      r.b = 0.5 * i;
    }
#pragma omp target teams num_teams(3) map(tofrom: iv)
#pragma omp distribute lastprivate(iv)
    for (iv = 0; iv < 50; iv++) {
    }
  }
  printf("distribute: last %d %d %d x %d\n", last[0], last[1], last[2], x);
  printf("distribute parallel for: last2 %d %d %d grid %d %d %d %d r %d %.1f\n", last2[0], last2[1], last2[2],
         grid[0][0], grid[0][1], grid[1][0], grid[1][1], r.a, r.b);
  printf("loop variable: %d\n", iv);
  ok = ok && last[0] == 297 && last[1] == 198 && last[2] == 7 && x == 99;
  ok = ok && last2[0] == 63 && last2[1] == 189 && last2[2] == -63 && grid[1][0] == 630 && grid[0][1] == 5 && r.a == 63 &&
       r.b == 31.5 && iv == 50;

  /* a parallel for inside a target region, and a combined construct with no map at all */
  int tail[2] = {0, 0};
  int y = 0;
#pragma omp target map(tofrom: tail)
  {
#pragma omp parallel for lastprivate(tail) num_threads(8)
    for (int i = 0; i < 40; i++) {
      tail[0] = i;
      tail[1] = i * i;
    }
  }
#pragma omp target teams distribute parallel for lastprivate(y)
  for (int i = 0; i < 33; i++) y = i + 100;
  printf("parallel for: tail %d %d, unmapped scalar %d\n", tail[0], tail[1], y);
  ok = ok && tail[0] == 39 && tail[1] == 1521 && y == 132;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return 0;
}
