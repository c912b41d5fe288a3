/* covers: pathfinder dynamic programming: rows processed by a host loop, each row one target teams distribute parallel for (num_teams, thread_limit) with two buffers swapped on the host (present pointers), plus a single-team variant with one target parallel region, barriers between rows and a shared double buffer */
#include <stdio.h>
#include <stdlib.h>

#define ROWS 100
#define COLS 1000

int main(void) {
  int *wall = malloc(ROWS * COLS * sizeof *wall);
  int *b0 = malloc(COLS * sizeof *b0), *b1 = malloc(COLS * sizeof *b1);
  int *c0 = malloc(COLS * sizeof *c0), *c1 = malloc(COLS * sizeof *c1);
  unsigned s = 77u;
  for (int q = 0; q < ROWS * COLS; q++) {
    s = s * 1103515245u + 12345u;
    wall[q] = (s >> 16) % 10;
  }
  for (int c = 0; c < COLS; c++) b0[c] = c0[c] = wall[c];

  int *src = b0, *dst = b1;
#pragma omp target data map(to: wall[0:ROWS * COLS]) map(tofrom: b0[0:COLS], b1[0:COLS])
  {
    for (int r = 1; r < ROWS; r++) {
#pragma omp target teams distribute parallel for map(src[0:COLS], dst[0:COLS]) firstprivate(r) num_teams(16) thread_limit(64)
      for (int c = 0; c < COLS; c++) {
        int m = src[c];
        if (c > 0 && src[c - 1] < m) m = src[c - 1];
        if (c < COLS - 1 && src[c + 1] < m) m = src[c + 1];
        dst[c] = wall[r * COLS + c] + m;
      }
      int *t = src;
      src = dst;
      dst = t;
    }
  }
  /* src now holds the last row (b0 or b1 on the host after the data region) */

  /* single team, barriers between rows */
#pragma omp target map(to: wall[0:ROWS * COLS]) map(tofrom: c0[0:COLS], c1[0:COLS])
#pragma omp parallel num_threads(128)
  {
    int *in = c0, *out = c1;
    for (int r = 1; r < ROWS; r++) {
#pragma omp for
      for (int c = 0; c < COLS; c++) {
        int m = in[c];
        if (c > 0 && in[c - 1] < m) m = in[c - 1];
        if (c < COLS - 1 && in[c + 1] < m) m = in[c + 1];
        out[c] = wall[r * COLS + c] + m;
      }
      /* implicit barrier of the for */
      int *t = in;
      in = out;
      out = t;
    }
  }
  int *last2 = (ROWS - 1) % 2 ? c1 : c0;

  /* reference */
  int *ra = malloc(COLS * sizeof *ra), *rb = malloc(COLS * sizeof *rb);
  for (int c = 0; c < COLS; c++) ra[c] = wall[c];
  for (int r = 1; r < ROWS; r++) {
    for (int c = 0; c < COLS; c++) {
      int m = ra[c];
      if (c > 0 && ra[c - 1] < m) m = ra[c - 1];
      if (c < COLS - 1 && ra[c + 1] < m) m = ra[c + 1];
      rb[c] = wall[r * COLS + c] + m;
    }
    int *t = ra;
    ra = rb;
    rb = t;
  }
  int ok = 1, best = 1 << 30;
  long sum = 0;
  for (int c = 0; c < COLS; c++) {
    if (src[c] != ra[c] || last2[c] != ra[c]) ok = 0;
    if (src[c] < best) best = src[c];
    sum += src[c];
  }
  printf("shortest path cost=%d row sum=%ld last[0]=%d last[999]=%d\n", best, sum, src[0], src[COLS - 1]);
  printf("%s\n", ok ? "PASS" : "FAIL");
  free(wall);
  free(b0);
  free(b1);
  free(c0);
  free(c1);
  free(ra);
  free(rb);
  return 0;
}
