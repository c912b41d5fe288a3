/* covers: 2-D Jacobi stencil: target data around an iteration loop, host-side pointer swap between target teams distribute parallel for collapse(2) kernels (present-table lookup of either buffer), boundary handling, residual max reduction every few steps, target update from at the end */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define NX 66
#define NY 50
#define STEPS 24

int main(void) {
  double *u = malloc(NX * NY * sizeof *u);
  double *v = malloc(NX * NY * sizeof *v);
  for (int i = 0; i < NX; i++)
    for (int j = 0; j < NY; j++) {
      double b = 0.0;
      if (i == 0) b = 100.0;
      if (j == NY - 1) b = 50.0;
      u[i * NY + j] = b;
      v[i * NY + j] = b;
    }
  double res_hist[STEPS / 6];
  int nres = 0;

  double *cur = u, *nxt = v;
#pragma omp target data map(tofrom: u[0:NX * NY], v[0:NX * NY])
  {
    for (int step = 1; step <= STEPS; step++) {
#pragma omp target teams distribute parallel for collapse(2) map(cur[0:NX * NY], nxt[0:NX * NY])
      for (int i = 1; i < NX - 1; i++)
        for (int j = 1; j < NY - 1; j++)
          nxt[i * NY + j] = 0.25 * (cur[(i - 1) * NY + j] + cur[(i + 1) * NY + j] + cur[i * NY + j - 1] + cur[i * NY + j + 1]);
      if (step % 6 == 0) {
        double res = 0.0;
#pragma omp target teams distribute parallel for collapse(2) reduction(max: res) map(tofrom: res) map(cur[0:NX * NY], nxt[0:NX * NY])
        for (int i = 1; i < NX - 1; i++)
          for (int j = 1; j < NY - 1; j++) {
            double d = fabs(nxt[i * NY + j] - cur[i * NY + j]);
            if (d > res) res = d;
          }
        res_hist[nres++] = res;
      }
      double *t = cur;
      cur = nxt;
      nxt = t;
    }
  }

  /* host reference */
  double *ru = malloc(NX * NY * sizeof *ru), *rv = malloc(NX * NY * sizeof *rv);
  for (int q = 0; q < NX * NY; q++) {
    ru[q] = (q % NY == NY - 1) ? 50.0 : ((q / NY == 0) ? 100.0 : 0.0);
    rv[q] = ru[q];
  }
  double *rc = ru, *rn = rv;
  for (int step = 1; step <= STEPS; step++) {
    for (int i = 1; i < NX - 1; i++)
      for (int j = 1; j < NY - 1; j++)
        rn[i * NY + j] = 0.25 * (rc[(i - 1) * NY + j] + rc[(i + 1) * NY + j] + rc[i * NY + j - 1] + rc[i * NY + j + 1]);
    double *t = rc;
    rc = rn;
    rn = t;
  }
  int ok = 1;
  double sum = 0.0;
  for (int q = 0; q < NX * NY; q++) {
    if (rc[q] != cur[q]) ok = 0;
    sum += cur[q];
  }
  printf("after %d steps: c[1][1]=%.6f c[1][25]=%.6f c[30][48]=%.6f sum=%.6f\n", STEPS, cur[1 * NY + 1], cur[1 * NY + 25],
         cur[30 * NY + 48], sum);
  printf("residuals: %.6f %.6f %.6f %.6f\n", res_hist[0], res_hist[1], res_hist[2], res_hist[3]);
  printf("%s\n", ok ? "PASS" : "FAIL");
  free(u);
  free(v);
  free(ru);
  free(rv);
  return 0;
}
