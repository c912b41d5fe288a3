/* covers: collapse(2) and collapse(3) on target teams distribute parallel for, on parallel for inside target parallel, on distribute; non-square bounds, nonzero lower bounds, loop variables declared outside the loop */
#include <stdio.h>

#define NI 13
#define NJ 17
#define NK 11

int main(void) {
  static int cube[NI][NJ][NK];
  static int cnt[NI][NJ][NK];
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++)
      for (int k = 0; k < NK; k++) {
        cube[i][j][k] = 0;
        cnt[i][j][k] = 0;
      }

#pragma omp target teams distribute parallel for collapse(3) map(tofrom: cube, cnt)
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++)
      for (int k = 0; k < NK; k++) {
        cube[i][j][k] = i * 10000 + j * 100 + k;
        cnt[i][j][k]++;
      }
  long s = 0;
  int once = 1;
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++)
      for (int k = 0; k < NK; k++) {
        s += cube[i][j][k];
        if (cnt[i][j][k] != 1 || cube[i][j][k] != i * 10000 + j * 100 + k) once = 0;
      }
  printf("collapse(3): once=%d sum=%ld\n", once, s);

  /* collapse(2) with nonzero lower bounds and loop variables declared outside */
  static int g[40][50];
  for (int i = 0; i < 40; i++)
    for (int j = 0; j < 50; j++) g[i][j] = 0;
  int i, j;
#pragma omp target parallel for collapse(2) num_threads(8) map(tofrom: g)
  for (i = 5; i < 35; i++)
    for (j = 10; j < 45; j++) g[i][j] = i + j;
  long gs = 0;
  int touched = 0;
  for (int a = 0; a < 40; a++)
    for (int b = 0; b < 50; b++) {
      gs += g[a][b];
      if (g[a][b]) touched++;
    }
  printf("collapse(2) offset bounds: touched=%d sum=%ld\n", touched, gs);

  /* collapse(2) on distribute with an inner serial loop; collapse(2) on combined with stride 2 */
  static long row[NI * NJ];
#pragma omp target teams distribute collapse(2) num_teams(16) map(from: row)
  for (int a = 0; a < NI; a++)
    for (int b = 0; b < NJ; b++) {
      long acc = 0;
      for (int k = 0; k < NK; k++) acc += a * b + k;
      row[a * NJ + b] = acc;
    }
  long rs = 0;
  for (int q = 0; q < NI * NJ; q++) rs += row[q];
  printf("distribute collapse(2): sum=%ld row[100]=%ld\n", rs, row[100]);

  static int h[32][32];
  for (int a = 0; a < 32; a++)
    for (int b = 0; b < 32; b++) h[a][b] = -1;
#pragma omp target teams distribute parallel for collapse(2) map(tofrom: h)
  for (int a = 0; a < 32; a += 2)
    for (int b = 31; b >= 0; b -= 3) h[a][b] = a * 32 + b;
  long hs = 0;
  int set = 0;
  for (int a = 0; a < 32; a++)
    for (int b = 0; b < 32; b++)
      if (h[a][b] >= 0) {
        set++;
        hs += h[a][b];
      }
  printf("strided collapse(2): set=%d sum=%ld\n", set, hs);
  printf("%s\n", once && touched == 30 * 35 && set == 16 * 11 ? "PASS" : "FAIL");
  return 0;
}
