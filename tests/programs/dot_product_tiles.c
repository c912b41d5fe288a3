/* covers: matrix products whose (i, j) nest is staged through shared memory (analysis/operand_tiles.py):
   sizes that are not multiples of the tile, a loop that starts past 0, 2-D arrays, the product written
   column operand first, a float accumulator of double products, statements after the k loop, and
   nests the staging leaves alone (a team of 128 threads, an operand the nest writes); every result
   checked exactly against the serial loop (small integers: every sum is exact) */
#include <stdio.h>
#include <stdlib.h>

#define NI 70
#define NJ 45
#define NK 37

static double a[NI][NK], b[NK][NJ], c[NI][NJ], ref[NI][NJ];

static long check(const char *what, double (*got)[NJ], int lo) {
  long bad = 0;
  for (int i = lo; i < NI; i++)
    for (int j = 0; j < NJ; j++) bad += got[i][j] != ref[i][j];
  printf("%s: %ld wrong\n", what, bad);
  return bad;
}

int main(void) {
  for (int i = 0; i < NI; i++)
    for (int k = 0; k < NK; k++) a[i][k] = (i * 7 + k * 3) % 11 - 5;
  for (int k = 0; k < NK; k++)
    for (int j = 0; j < NJ; j++) b[k][j] = (k * 5 + j) % 9 - 4;
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++) {
      double s = 1.0;
      for (int k = 0; k < NK; k++) s += a[i][k] * b[k][j];
      ref[i][j] = 2 * s + i - j;
    }
  long bad = 0;

  /* 2-D arrays, an initial value and statements after the loop */
#pragma omp target teams distribute parallel for collapse(2) map(to: a, b) map(from: c)
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++) {
      double s = 1.0;
      for (int k = 0; k < NK; k++) s += a[i][k] * b[k][j];
      s = 2 * s;
      c[i][j] = s + i - j;
    }
  bad += check("2-D arrays", c, 0);

  /* flat pointers, the column operand first, `acc = acc + ...`, i from 3, k's bound a variable */
  double *pa = &a[0][0], *pb = &b[0][0], *pc = &c[0][0];
  int nk = NK;
  for (int i = 0; i < NI * NJ; i++) pc[i] = -1;
#pragma omp target teams distribute parallel for collapse(2) map(to: pa[0:NI*NK], pb[0:NK*NJ]) map(tofrom: pc[0:NI*NJ])
  for (long i = 3; i < NI; i++)
    for (int j = 0; j < NJ; j++) {
      double s = 1.0;
      for (int k = 0; k < nk; k++) s = s + pb[k * NJ + j] * pa[i * NK + k];
      pc[i * NJ + j] = 2 * s + i - j;
    }
  bad += check("flat, column operand first, from 3", c, 3);
  long untouched = 0;
  for (int i = 0; i < 3 * NJ; i++) untouched += pc[i] != -1;
  printf("rows before 3 untouched: %s\n", untouched ? "no" : "yes");

  /* a float accumulator of double products */
  static float cf[NI][NJ];
#pragma omp target teams distribute parallel for collapse(2) map(to: a, b) map(from: cf)
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++) {
      float s = 1.0f;
      for (int k = 0; k < NK; k++) s += a[i][k] * b[k][j];
      cf[i][j] = 2 * s + i - j;
    }
  long badf = 0;
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++) badf += cf[i][j] != (float)ref[i][j];
  printf("float accumulator: %ld wrong\n", badf);
  bad += badf;

  /* a team of 128 threads: the loop as written */
#pragma omp target teams distribute parallel for collapse(2) thread_limit(128) map(to: a, b) map(from: c)
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++) {
      double s = 1.0;
      for (int k = 0; k < NK; k++) s += a[i][k] * b[k][j];
      c[i][j] = 2 * s + i - j;
    }
  bad += check("teams of 128", c, 0);

  printf("dot_product_tiles: %s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
