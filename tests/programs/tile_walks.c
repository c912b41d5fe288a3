/* covers: tile walks (a collapse(2) loop over tiles whose iterations walk their tile with two serial loops) that run as flat nests: the Parallel Research Kernels' transpose (MIN bounds, linear subscripts, a second store), whole tiles of 2-D arrays, a launch whose tile is longer than a row (runs on the host), a user's if clause joined; and a walk that must stay as written (a running sum inside each tile row) */
#include <stdio.h>
#include <stdlib.h>

#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define N 64

static double grid_a[N][N], grid_b[N][N];

/* PRK's transpose: B += A^T, A += 1, tiles of t x t, order any size */
static void prk_transpose(double *A, double *B, int order, int t, int use_gpu) {
#pragma omp target teams distribute parallel for collapse(2) map(tofrom: A[0:order * order], B[0:order * order]) if (use_gpu)
  for (int it = 0; it < order; it += t)
    for (int jt = 0; jt < order; jt += t)
      for (int i = it; i < MIN(order, it + t); i++)
        for (int j = jt; j < MIN(order, jt + t); j++) {
          B[i * order + j] += A[j * order + i];
          A[j * order + i] += 1.0;
        }
}

static int check_prk(int order, int t) {
  double *A = malloc(sizeof(double) * order * order), *B = malloc(sizeof(double) * order * order);
  for (int k = 0; k < order * order; k++) {
    A[k] = k;
    B[k] = 0;
  }
  prk_transpose(A, B, order, t, 1);
  prk_transpose(A, B, order, t, 1);
  int bad = 0;
  for (int i = 0; i < order; i++)
    for (int j = 0; j < order; j++) {
      bad += B[i * order + j] != 2.0 * (j * order + i) + 1.0;
      bad += A[j * order + i] != (j * order + i) + 2.0;
    }
  free(A);
  free(B);
  return bad;
}

int main(void) {
  int bad_prk = check_prk(100, 32) + check_prk(64, 16) + check_prk(20, 32) + check_prk(7, 3);
  printf("PRK transpose (orders 100, 64, 20, 7): %s\n", bad_prk ? "WRONG" : "ok");

  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      grid_a[i][j] = i * N + j;
      grid_b[i][j] = 0;
    }
#pragma omp target teams distribute parallel for collapse(2) map(to: grid_a) map(tofrom: grid_b)
  for (int it = 0; it < N; it += 16)
    for (int jt = 0; jt < N; jt += 16)
      for (int i = it; i < it + 16; i++)
        for (int j = jt; j < jt + 16; j++) grid_b[j][i] += 2 * grid_a[i][j];
  int bad_grid = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) bad_grid += grid_b[j][i] != 2.0 * (i * N + j);
  printf("whole tiles of a 2-D array: %s\n", bad_grid ? "WRONG" : "ok");

  /* a running sum along each tile's rows: j's iterations depend on each other */
  static double run[N][N];
#pragma omp target teams distribute parallel for collapse(2) map(to: grid_a) map(from: run)
  for (int it = 0; it < N; it += 8)
    for (int jt = 0; jt < N; jt += 8)
      for (int i = it; i < it + 8; i++)
        for (int j = jt; j < jt + 8; j++) run[i][j] = (j > jt ? run[i][j - 1] : 0) + grid_a[i][j];
  int bad_run = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double want = 0;
      for (int k = j - j % 8; k <= j; k++) want += grid_a[i][k];
      bad_run += run[i][j] != want;
    }
  printf("running sums inside tiles: %s\n", bad_run ? "WRONG" : "ok");
  printf("%s\n", bad_prk || bad_grid || bad_run ? "FAIL" : "PASS");
  return 0;
}
