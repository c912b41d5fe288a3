/* covers: collapsed (i, j) nests that reach arrays along i, staged through shared-memory tiles
   (analysis/operand_tiles.py transposing_nest): a transposing copy of non-tile sizes, an
   accumulation in place with loops that start past 0, the Parallel Research Kernels' untiled transpose
   (B += A^T, then A += 1, three times, schedule(static, 1)), 2-D arrays, and a team of 128 threads (the loop as
   written); every result checked exactly against the serial loop */
#include <stdio.h>
#include <stdlib.h>

#define R 70
#define C 45
#define N 100

static float fa[R][C], ft[C][R];

int main(void) {
  long bad = 0;
  float *a = malloc(sizeof(float) * R * C), *t = malloc(sizeof(float) * R * C);
  for (int i = 0; i < R * C; i++) a[i] = (float)(i % 1000) * 0.5f;

  /* a transposing copy, sizes that are not multiples of the tile */
#pragma omp target teams distribute parallel for collapse(2) map(to: a[0:R*C]) map(from: t[0:R*C])
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) t[j * R + i] = a[i * C + j];
  long b1 = 0;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) b1 += t[j * R + i] != a[i * C + j];
  printf("copy: %ld wrong\n", b1);
  bad += b1;

  /* accumulate in place, loops from 2 and 1: the rest untouched */
  double *x = malloc(sizeof(double) * N * N), *y = malloc(sizeof(double) * N * N);
  for (int i = 0; i < N * N; i++) { x[i] = i % 97; y[i] = -(i % 13); }
#pragma omp target teams distribute parallel for collapse(2) map(to: x[0:N*N]) map(tofrom: y[0:N*N])
  for (long i = 2; i < N; i++)
    for (int j = 1; j < N; j++) y[(long)j * N + i] += 2.0 * x[i * N + j];
  long b2 = 0;
  for (long i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double want = -(double)((j * N + i) % 13) + (i >= 2 && j >= 1 ? 2.0 * (double)((i * N + j) % 97) : 0.0);
      b2 += y[j * N + i] != want;
    }
  printf("accumulate from (2, 1): %ld wrong\n", b2);
  bad += b2;

  /* the PRK transpose: B += A^T; A += 1, three iterations */
  double *A = malloc(sizeof(double) * N * N), *B = malloc(sizeof(double) * N * N);
  for (int i = 0; i < N * N; i++) { A[i] = i; B[i] = 0; }
#pragma omp target data map(tofrom: A[0:N*N], B[0:N*N])
  for (int iter = 0; iter < 3; iter++) {
#pragma omp target teams distribute parallel for simd collapse(2) schedule(static, 1)
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++) {
        B[i * N + j] += A[j * N + i];
        A[j * N + i] += 1.0;
      }
  }
  long b3 = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      b3 += B[i * N + j] != 3.0 * (j * N + i) + 3.0;   /* A^T three times, plus 0 + 1 + 2 */
      b3 += A[j * N + i] != (double)(j * N + i) + 3.0;
    }
  printf("PRK transpose: %ld wrong\n", b3);
  bad += b3;

  /* 2-D arrays */
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) fa[i][j] = (float)(i * C + j);
#pragma omp target teams distribute parallel for collapse(2) map(to: fa) map(from: ft)
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) ft[j][i] = 2 * fa[i][j] + 1;
  long b4 = 0;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) b4 += ft[j][i] != 2 * fa[i][j] + 1;
  printf("2-D arrays: %ld wrong\n", b4);
  bad += b4;

  /* teams of 128 threads: the loop as written */
#pragma omp target teams distribute parallel for collapse(2) thread_limit(128) map(to: a[0:R*C]) map(from: t[0:R*C])
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) t[j * R + i] = a[i * C + j] + 1;
  long b5 = 0;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) b5 += t[j * R + i] != a[i * C + j] + 1;
  printf("teams of 128: %ld wrong\n", b5);
  bad += b5;

  printf("transpose_tiles: %s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
