/* covers: batched Gauss-Jordan elimination, one small system per team: target teams distribute over systems, per system a team-local augmented matrix (master stack) loaded by parallel for, serial partial-pivot search and row swap, parallel for elimination over rows with collapse(2), parallel for write-back; systems built with known integer solutions */
#include <stdio.h>
#include <math.h>

#define NSYS 40
#define DIM 8

static double Amat[NSYS][DIM][DIM];
static double rhs[NSYS][DIM];
static double sol[NSYS][DIM];
static int swaps[NSYS];

int main(void) {
  int xtrue[NSYS][DIM];
  for (int s = 0; s < NSYS; s++) {
    for (int i = 0; i < DIM; i++) {
      xtrue[s][i] = (s * 3 + i * 5) % 9 - 4;
      for (int j = 0; j < DIM; j++) {
        unsigned x = (unsigned)(s * 131 + i * 29 + j * 17 + (s * i * j) % 7) * 2654435761u;
        Amat[s][i][j] = (double)((x >> 16) % 19) - 9.0;
      }
    }
    for (int i = 0; i < DIM; i++) {
      double b = 0.0;
      for (int j = 0; j < DIM; j++) b += Amat[s][i][j] * xtrue[s][j];
      rhs[s][i] = b;
    }
  }

#pragma omp target teams distribute map(to: Amat, rhs) map(from: sol, swaps) thread_limit(64)
  for (int s = 0; s < NSYS; s++) {
    double aug[DIM][DIM + 1];
    int nswap = 0;
#pragma omp parallel for collapse(2)
    for (int i = 0; i < DIM; i++)
      for (int j = 0; j <= DIM; j++) aug[i][j] = j < DIM ? Amat[s][i][j] : rhs[s][i];

    for (int k = 0; k < DIM; k++) {
      /* serial: partial pivoting */
      int p = k;
      for (int i = k + 1; i < DIM; i++)
        if (fabs(aug[i][k]) > fabs(aug[p][k])) p = i;
      if (p != k) {
        for (int j = 0; j <= DIM; j++) {
          double t = aug[k][j];
          aug[k][j] = aug[p][j];
          aug[p][j] = t;
        }
        nswap++;
      }
      double piv = aug[k][k];
      /* parallel: normalise the pivot row */
#pragma omp parallel for
      for (int j = k; j <= DIM; j++) aug[k][j] /= piv;
      /* parallel: eliminate column k from every other row; factors read before writing */
      double factor[DIM];
#pragma omp parallel for
      for (int i = 0; i < DIM; i++) factor[i] = (i == k) ? 0.0 : aug[i][k];
#pragma omp parallel for collapse(2)
      for (int i = 0; i < DIM; i++)
        for (int j = k; j <= DIM; j++)
          if (i != k) aug[i][j] -= factor[i] * aug[k][j]; /* row k is read by all: never written here */
    }
#pragma omp parallel for
    for (int i = 0; i < DIM; i++) sol[s][i] = aug[i][DIM];
    swaps[s] = nswap;
  }

  double err = 0.0;
  long isum = 0;
  int total_swaps = 0;
  for (int s = 0; s < NSYS; s++) {
    for (int i = 0; i < DIM; i++) {
      double e = fabs(sol[s][i] - xtrue[s][i]);
      if (e > err) err = e;
      isum += (long)floor(sol[s][i] + 0.5) * (i + 1);
    }
    total_swaps += swaps[s];
  }
  printf("sol[0]=%.4f %.4f %.4f %.4f sol[39][7]=%.4f\n", sol[0][0], sol[0][1], sol[0][2], sol[0][3], sol[39][7]);
  printf("rounded weighted sum=%ld pivoting happened=%s\n", isum, total_swaps > 0 ? "yes" : "no");
  printf("max error below 1e-8: %s\n", err < 1e-8 ? "yes" : "no");
  printf("%s\n", err < 1e-8 ? "PASS" : "FAIL");
  return 0;
}
