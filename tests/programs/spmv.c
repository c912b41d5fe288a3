/* covers: sparse matrix-vector product in CSR: irregular rows with schedule(dynamic, chunk) on target teams distribute parallel for, a team-per-row version with an inner parallel for reduction, repeated products (power iteration steps) inside target data with a max reduction for normalisation */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define NR 2000

int main(void) {
  int *rowptr = malloc((NR + 1) * sizeof *rowptr);
  int nnz_est = NR * 12;
  int *col = malloc(nnz_est * sizeof *col);
  double *val = malloc(nnz_est * sizeof *val);
  int nnz = 0;
  for (int r = 0; r < NR; r++) {
    rowptr[r] = nnz;
    int len = 1 + (r * 7) % 11; /* 1..11 entries */
    for (int k = 0; k < len; k++) {
      col[nnz] = (r + k * 37) % NR;
      val[nnz] = (double)((r + k) % 5 + 1);
      nnz++;
    }
  }
  rowptr[NR] = nnz;
  double *x = malloc(NR * sizeof *x), *y1 = malloc(NR * sizeof *y1), *y2 = malloc(NR * sizeof *y2);
  for (int i = 0; i < NR; i++) x[i] = (double)(i % 9);

#pragma omp target data map(to: rowptr[0:NR + 1], col[0:nnz], val[0:nnz]) map(tofrom: x[0:NR]) map(from: y1[0:NR], y2[0:NR])
  {
#pragma omp target teams distribute parallel for schedule(dynamic, 16)
    for (int r = 0; r < NR; r++) {
      double s = 0.0;
      for (int k = rowptr[r]; k < rowptr[r + 1]; k++) s += val[k] * x[col[k]];
      y1[r] = s;
    }
#pragma omp target teams distribute num_teams(64) thread_limit(32)
    for (int r = 0; r < NR; r++) {
      double s = 0.0;
#pragma omp parallel for reduction(+: s)
      for (int k = rowptr[r]; k < rowptr[r + 1]; k++) s += val[k] * x[col[k]];
      y2[r] = s;
    }
    /* three power-iteration steps, normalised by the max entry */
    for (int it = 0; it < 3; it++) {
      double mx = 0.0;
#pragma omp target teams distribute parallel for reduction(max: mx) map(tofrom: mx)
      for (int r = 0; r < NR; r++) {
        double s = 0.0;
        for (int k = rowptr[r]; k < rowptr[r + 1]; k++) s += val[k] * x[col[k]];
        y2[r] = s;
        if (s > mx) mx = s;
      }
#pragma omp target teams distribute parallel for firstprivate(mx)
      for (int r = 0; r < NR; r++) x[r] = y2[r] / mx;
    }
  }
  int ok = 1;
  double s1 = 0.0;
  for (int r = 0; r < NR; r++) {
    double s = 0.0;
    for (int k = rowptr[r]; k < rowptr[r + 1]; k++) s += val[k] * (double)(col[k] % 9);
    if (s != y1[r]) ok = 0;
    s1 += y1[r];
  }
  double xs = 0.0, xmax = 0.0;
  for (int r = 0; r < NR; r++) {
    xs += x[r];
    if (x[r] > xmax) xmax = x[r];
  }
  printf("spmv: nnz=%d y[0]=%.0f y[1999]=%.0f sum=%.0f\n", nnz, y1[0], y1[NR - 1], s1);
  printf("power iteration: max=%.6f mean=%.6f\n", xmax, xs / NR);
  printf("%s\n", ok && xmax == 1.0 ? "PASS" : "FAIL");
  free(rowptr);
  free(col);
  free(val);
  free(x);
  free(y1);
  free(y2);
  return 0;
}
