/* covers: matrix multiply three ways: target teams distribute parallel for collapse(2) with a serial k loop; target teams distribute over rows + parallel for over columns; tiled version with a per-team tile of A in a master-stack array filled by parallel for; integer-valued doubles so results are exact */
#include <stdio.h>
#include <stdlib.h>

#define M 72
#define K 56
#define NC 64
#define TILE 8

int main(void) {
  double *A = malloc(M * K * sizeof *A);
  double *B = malloc(K * NC * sizeof *B);
  double *C1 = malloc(M * NC * sizeof *C1);
  double *C2 = malloc(M * NC * sizeof *C2);
  double *C3 = malloc(M * NC * sizeof *C3);
  for (int i = 0; i < M * K; i++) A[i] = (i * 7) % 11 - 5;
  for (int i = 0; i < K * NC; i++) B[i] = (i * 3) % 13 - 6;

#pragma omp target data map(to: A[0:M * K], B[0:K * NC]) map(from: C1[0:M * NC], C2[0:M * NC], C3[0:M * NC])
  {
#pragma omp target teams distribute parallel for collapse(2)
    for (int i = 0; i < M; i++)
      for (int j = 0; j < NC; j++) {
        double s = 0.0;
        for (int k = 0; k < K; k++) s += A[i * K + k] * B[k * NC + j];
        C1[i * NC + j] = s;
      }

#pragma omp target teams distribute
    for (int i = 0; i < M; i++) {
#pragma omp parallel for
      for (int j = 0; j < NC; j++) {
        double s = 0.0;
        for (int k = 0; k < K; k++) s += A[i * K + k] * B[k * NC + j];
        C2[i * NC + j] = s;
      }
    }

    /* tiled: each team owns TILE rows; the rows of A are staged in a team-local array */
#pragma omp target teams distribute thread_limit(64)
    for (int t = 0; t < M / TILE; t++) {
      double atile[TILE * K];
#pragma omp parallel for
      for (int q = 0; q < TILE * K; q++) atile[q] = A[(t * TILE) * K + q];
#pragma omp parallel for collapse(2)
      for (int r = 0; r < TILE; r++)
        for (int j = 0; j < NC; j++) {
          double s = 0.0;
          for (int k = 0; k < K; k++) s += atile[r * K + k] * B[k * NC + j];
          C3[(t * TILE + r) * NC + j] = s;
        }
    }
  }

  int ok = 1;
  double tr = 0.0, total = 0.0;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < NC; j++) {
      double s = 0.0;
      for (int k = 0; k < K; k++) s += A[i * K + k] * B[k * NC + j];
      if (C1[i * NC + j] != s || C2[i * NC + j] != s || C3[i * NC + j] != s) ok = 0;
      total += s * ((i + j) % 3 + 1);
      if (i == j) tr += s;
    }
  printf("C[0][0]=%.0f C[71][63]=%.0f trace=%.0f weighted=%.0f\n", C1[0], C1[M * NC - 1], tr, total);
  printf("%s\n", ok ? "PASS" : "FAIL");
  free(A);
  free(B);
  free(C1);
  free(C2);
  free(C3);
  return 0;
}
