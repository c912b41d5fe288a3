// Array sections that pick rows: a leading single subscript selects one row, and the section
// after it is contiguous whatever it spans (`m[dev][0:N]` of a 2-D VLA, as SOLLVE 4.5's
// *_devices tests map it; `v[1][2:4]`, `a[2][3][1:3]`, `a[1][2:2][0:5]`). Issue 46.
#include <stdio.h>
#define N 100
#define M 8

int main(void) {
  int num_dev = 2;
  int h[num_dev + 1][N], copy[num_dev + 1][N];   /* 2-D VLAs */
  for (int dev = 0; dev < num_dev; ++dev) {
    #pragma omp target enter data map(alloc: h[dev][0:N])
    #pragma omp target map(alloc: h[dev][0:N])
    for (int i = 0; i < N; ++i) h[dev][i] = dev + i;
    #pragma omp target map(from: copy[dev][0:N]) map(alloc: h[dev][0:N])
    for (int i = 0; i < N; ++i) copy[dev][i] = h[dev][i];
    #pragma omp target exit data map(delete: h[dev][0:N])
  }
  long rows = 0;
  for (int dev = 0; dev < num_dev; ++dev) for (int i = 0; i < N; ++i) rows += copy[dev][i];
  printf("rows of a VLA: %ld\n", rows);

  int n = 3;
  int v[n][M];            /* a 2-D VLA */
  double a[4][M][5];      /* a 3-D array */
  for (int r = 0; r < n; r++) for (int i = 0; i < M; i++) v[r][i] = 0;
  for (int r = 0; r < 4; r++) for (int i = 0; i < M; i++) for (int j = 0; j < 5; j++) a[r][i][j] = 0;
  #pragma omp target map(tofrom: v[1][2:4])
  for (int i = 2; i < 6; i++) v[1][i] = 10 + i;
  #pragma omp target map(tofrom: a[2][3][1:3])
  for (int j = 1; j < 4; j++) a[2][3][j] = j;
  #pragma omp target map(tofrom: a[1][2:2][0:5])
  for (int i = 2; i < 4; i++) for (int j = 0; j < 5; j++) a[1][i][j] = 100 + i * 5 + j;
  long s = 0;
  for (int r = 0; r < n; r++) for (int i = 0; i < M; i++) s += v[r][i] * (r + 1) * (i + 1);
  double t = 0;
  for (int r = 0; r < 4; r++) for (int i = 0; i < M; i++) for (int j = 0; j < 5; j++) t += a[r][i][j] * (r + 1 + i + j);
  printf("part of a row: %ld %.1f\n", s, t);
  return 0;
}
