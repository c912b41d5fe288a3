/* covers: C declarator semantics in device code: array parameters are pointers (int a[N],
   a[static 4], a[], a constant 2-D a[4][8]) in declare target functions with parallel loops;
   variably modified types: pointers to VLAs as parameters (const double (*restrict in)[n]) and
   locals, VLA parameters (double m[n][n]), casts (double (*)[n])buf, a 3-D pointer to VLA, row
   pointers m[i], *m and m + 1; host variables of such types used in target regions: a pointer
   to VLA rows from malloc mapped as a section and a 2-D VLA object mapped whole */
#include <stdio.h>
#include <stdlib.h>

#define N 8

#pragma omp declare target
int sum_fixed(int a[N]) {
  int s = 0;
#pragma omp parallel for reduction(+: s)
  for (int i = 0; i < N; i++) s += a[i];
  return s;
}
int first_of(int a[static 4], int b[]) { return a[0] + b[1]; }
int corner(int m[4][8]) { return m[3][7]; }
void stencil(int n, const double (*restrict in)[n], double (*restrict out)[n]) {
#pragma omp parallel for collapse(2)
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      out[i][j] = 0.25 * (in[i - 1][j] + in[i + 1][j] + in[i][j - 1] + in[i][j + 1]);
}
double trace(int n, double m[n][n]) {
  double t = 0;
  for (int i = 0; i < n; i++) t += m[i][i];
  return t;
}
double row_sum(int n, const double *row) {
  double s = 0;
  for (int j = 0; j < n; j++) s += row[j];
  return s;
}
#pragma omp end declare target

int main(void) {
  int n = 16, k = 3;
  double *buf = malloc(sizeof(double) * n * n), *obuf = calloc(n * n, sizeof(double));
  for (int i = 0; i < n * n; i++) buf[i] = i;
  int a[N], fixed[4][8];
  for (int i = 0; i < N; i++) a[i] = i;
  for (int i = 0; i < 32; i++) fixed[i / 8][i % 8] = i;
  int s = 0, f = 0, c = 0;
  double tr = 0, last = 0, r2 = 0, first_row = 0, second_row = 0;
#pragma omp target map(to: a, fixed, buf[0:n*n]) map(tofrom: obuf[0:n*n]) map(from: s, f, c, tr, last, r2, first_row, second_row)
  {
    s = sum_fixed(a);
    f = first_of(a, a);
    c = corner(fixed);
    stencil(n, (const double (*)[n])buf, (double (*)[n])obuf);
    double (*m)[n] = (double (*)[n])buf;
    tr = trace(n, m);
    last = m[n - 1][n - 1];
    r2 = row_sum(n, m[2]);
    first_row = row_sum(n, *m);
    second_row = row_sum(n, *(m + 1));
  }
  printf("fixed: sum %d first %d corner %d\n", s, f, c);
  printf("vla: trace %g last %g rows %g %g %g stencil %g\n", tr, last, r2, first_row, second_row, obuf[5 * n + 5]);

  /* host variables of variably modified type */
  double (*A)[n] = malloc(sizeof(double[n][n]));
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) A[i][j] = i - j;
#pragma omp target teams distribute parallel for collapse(2) map(tofrom: A[0:n])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) A[i][j] = A[i][j] * 2 + 1;
  double B[n][k];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < k; j++) B[i][j] = 0;
#pragma omp target map(tofrom: B)
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    for (int j = 0; j < k; j++) B[i][j] = 10 * i + j;
  double (*C)[n][k] = malloc(sizeof(double[2][n][k]));
#pragma omp target map(from: C[0:2])
  for (int x = 0; x < 2; x++)
    for (int i = 0; i < n; i++)
      for (int j = 0; j < k; j++) C[x][i][j] = 100 * x + 10 * i + j;
  printf("host vla: A[3][5] %g A[15][0] %g B[7][2] %g B[15][1] %g C[1][4][2] %g\n", A[3][5], A[15][0], B[7][2], B[15][1],
         C[1][4][2]);
  free(A);
  free(C);
  free(buf);
  free(obuf);
  return 0;
}
