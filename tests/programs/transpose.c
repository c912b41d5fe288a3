/* covers: matrix transpose: naive target teams distribute parallel for collapse(2); blocked transpose with a per-team tile in a master-stack array written by one parallel for and read by the next; non-square matrix; in-place square transpose of the upper triangle with a triangular loop */
#include <stdio.h>
#include <stdlib.h>

#define R 96
#define C 80
#define B 16

int main(void) {
  int *a = malloc(R * C * sizeof *a);
  int *t1 = malloc(R * C * sizeof *t1);
  int *t2 = malloc(R * C * sizeof *t2);
  for (int i = 0; i < R * C; i++) a[i] = i * 3 + 1;

#pragma omp target teams distribute parallel for collapse(2) map(to: a[0:R * C]) map(from: t1[0:R * C])
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) t1[j * R + i] = a[i * C + j];

  /* blocked: tiles of B x B, tile staged in team-local storage */
#pragma omp target teams distribute collapse(2) map(to: a[0:R * C]) map(from: t2[0:R * C]) thread_limit(128)
  for (int bi = 0; bi < R / B; bi++)
    for (int bj = 0; bj < C / B; bj++) {
      int tile[B][B + 1];
#pragma omp parallel for collapse(2)
      for (int i = 0; i < B; i++)
        for (int j = 0; j < B; j++) tile[i][j] = a[(bi * B + i) * C + bj * B + j];
#pragma omp parallel for collapse(2)
      for (int j = 0; j < B; j++)
        for (int i = 0; i < B; i++) t2[(bj * B + j) * R + bi * B + i] = tile[i][j];
    }

  /* in-place transpose of a square matrix: swap across the diagonal */
  int n = 64;
  int *sq = malloc(n * n * sizeof *sq);
  for (int i = 0; i < n * n; i++) sq[i] = i;
#pragma omp target teams distribute parallel for map(tofrom: sq[0:n * n])
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) {
      int x = sq[i * n + j];
      sq[i * n + j] = sq[j * n + i];
      sq[j * n + i] = x;
    }

  int ok = 1;
  long chk = 0;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) {
      if (t1[j * R + i] != a[i * C + j] || t2[j * R + i] != a[i * C + j]) ok = 0;
      chk += (long)t1[j * R + i] * ((j * R + i) % 7);
    }
  int sok = 1;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      if (sq[i * n + j] != j * n + i) sok = 0;
  printf("t1[1]=%d t1[R]=%d t2[last]=%d checksum=%ld\n", t1[1], t1[R], t2[R * C - 1], chk);
  printf("in-place: sq[1]=%d sq[64]=%d ok=%d\n", sq[1], sq[64], sok);
  printf("%s\n", ok && sok ? "PASS" : "FAIL");
  free(a);
  free(t1);
  free(t2);
  free(sq);
  return 0;
}
