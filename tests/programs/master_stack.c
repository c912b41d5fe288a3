/* covers: nested parallel for inside teams distribute with master-stack variables: locals declared in the distribute loop body (scalars, an accumulator array, a struct) read and written inside the parallel region, serial code between parallel regions reading their results, a pointer to a local passed into the region */
#include <stdio.h>

#define NR 40
#define NC 300
#define NB 16

typedef struct {
  long sum;
  int maxv;
  int argmax;
} summary_t;

static int mat[NR][NC];
static long out_hist[NR][NB];
static long out_sum[NR];
static int out_max[NR], out_arg[NR];
static int out_scaled[NR][NC];

int main(void) {
  for (int r = 0; r < NR; r++)
    for (int c = 0; c < NC; c++) mat[r][c] = (r * 131 + c * 71 + (r * c) % 13) % 997;

#pragma omp target teams distribute map(to: mat) map(from: out_hist, out_sum, out_max, out_arg, out_scaled) thread_limit(64)
  for (int r = 0; r < NR; r++) {
    long acc[NB];                 /* written by all threads of the team */
    summary_t sm = {0, -1, -1};   /* written under critical, read by serial code */
    int scale = 1 + r % 3;        /* read inside the parallel region */
    int *row = &mat[r][0];
    long *accp = acc;             /* a pointer to a master-stack array */

#pragma omp parallel for
    for (int b = 0; b < NB; b++) acc[b] = 0;

#pragma omp parallel for
    for (int c = 0; c < NC; c++) {
      int v = row[c] * scale;
#pragma omp atomic
      accp[v % NB] += 1;
#pragma omp critical
      {
        sm.sum += v;
        if (v > sm.maxv || (v == sm.maxv && c < sm.argmax)) {
          sm.maxv = v;
          sm.argmax = c;
        }
      }
    }

    /* serial code uses what the threads produced */
    int threshold = sm.maxv / 2;
    for (int b = 0; b < NB; b++) out_hist[r][b] = acc[b];
    out_sum[r] = sm.sum;
    out_max[r] = sm.maxv;
    out_arg[r] = sm.argmax;

#pragma omp parallel for
    for (int c = 0; c < NC; c++) out_scaled[r][c] = row[c] * scale > threshold ? 1 : 0;
  }

  int ok = 1;
  long chk = 0;
  for (int r = 0; r < NR; r++) {
    int scale = 1 + r % 3;
    long h[NB] = {0}, s = 0;
    int mx = -1, am = -1;
    for (int c = 0; c < NC; c++) {
      int v = mat[r][c] * scale;
      h[v % NB]++;
      s += v;
      if (v > mx) {
        mx = v;
        am = c;
      }
    }
    for (int b = 0; b < NB; b++)
      if (h[b] != out_hist[r][b]) ok = 0;
    if (s != out_sum[r] || mx != out_max[r] || am != out_arg[r]) ok = 0;
    for (int c = 0; c < NC; c++) {
      if (out_scaled[r][c] != (mat[r][c] * scale > mx / 2)) ok = 0;
      chk += out_scaled[r][c] * (c + 1);
    }
    chk += out_sum[r] + out_max[r] * 7 + out_arg[r];
  }
  printf("row 0: sum=%ld max=%d at %d hist[0..3]=%ld %ld %ld %ld\n", out_sum[0], out_max[0], out_arg[0],
         out_hist[0][0], out_hist[0][1], out_hist[0][2], out_hist[0][3]);
  printf("row 39: sum=%ld max=%d at %d\n", out_sum[39], out_max[39], out_arg[39]);
  printf("checksum=%ld\n", chk);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return 0;
}
