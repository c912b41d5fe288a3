/* covers: inclusive prefix sum in one target parallel region: per-thread block sums, barrier, serial scan of block sums by one thread (single), barrier, block fix-up; thread count read from omp_get_num_threads; a second scan across teams with a host-side carry array (two kernels); stream compaction using the scan */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define N 10000
#define MAXTH 256
#define NT 16 /* blocks for the multi-kernel scan */

int main(void) {
  int *in = malloc(N * sizeof *in);
  long *out = malloc(N * sizeof *out);
  long *out2 = malloc(N * sizeof *out2);
  for (int i = 0; i < N; i++) in[i] = (i * 13) % 7 - 2;

  long partial[MAXTH + 1];
#pragma omp target map(to: in[0:N]) map(from: out[0:N]) map(alloc: partial)
#pragma omp parallel num_threads(64)
  {
    int t = omp_get_thread_num(), nt = omp_get_num_threads();
    int lo = (int)((long)N * t / nt), hi = (int)((long)N * (t + 1) / nt);
    long s = 0;
    for (int i = lo; i < hi; i++) {
      s += in[i];
      out[i] = s;
    }
    partial[t + 1] = s;
#pragma omp barrier
#pragma omp single
    {
      partial[0] = 0;
      for (int k = 1; k <= nt; k++) partial[k] += partial[k - 1];
    }
    /* implicit barrier after single */
    for (int i = lo; i < hi; i++) out[i] += partial[t];
  }

  /* two-kernel scan across teams: block sums, host carry, fix-up */
  long bsum[NT], carry[NT];
#pragma omp target data map(to: in[0:N]) map(from: out2[0:N])
  {
#pragma omp target teams distribute map(from: bsum) num_teams(NT)
    for (int b = 0; b < NT; b++) {
      int lo = N * b / NT, hi = N * (b + 1) / NT;
      long s = 0;
      for (int i = lo; i < hi; i++) {
        s += in[i];
        out2[i] = s;
      }
      bsum[b] = s;
    }
    carry[0] = 0;
    for (int b = 1; b < NT; b++) carry[b] = carry[b - 1] + bsum[b - 1];
#pragma omp target teams distribute parallel for map(to: carry)
    for (int i = 0; i < N; i++) out2[i] += carry[i / (N / NT)]; /* N is a multiple of NT */
  }

  /* compaction of positive entries using an exclusive scan of flags */
  int *flag = malloc(N * sizeof *flag), *pos = malloc(N * sizeof *pos), *packed = malloc(N * sizeof *packed);
  int npos = 0;
  for (int i = 0; i < N; i++) {
    flag[i] = in[i] > 0;
    pos[i] = npos;
    npos += flag[i];
  }
#pragma omp target teams distribute parallel for map(to: in[0:N], flag[0:N], pos[0:N]) map(from: packed[0:npos])
  for (int i = 0; i < N; i++)
    if (flag[i]) packed[pos[i]] = i;

  int ok = 1;
  long run = 0;
  for (int i = 0; i < N; i++) {
    run += in[i];
    if (out[i] != run || out2[i] != run) ok = 0;
  }
  for (int k = 1; k < npos; k++)
    if (packed[k] <= packed[k - 1] || in[packed[k]] <= 0) ok = 0;
  printf("scan: out[0]=%ld out[4999]=%ld out[9999]=%ld\n", out[0], out[4999], out[N - 1]);
  printf("compaction: kept=%d first=%d last=%d\n", npos, packed[0], packed[npos - 1]);
  printf("%s\n", ok ? "PASS" : "FAIL");
  free(in);
  free(out);
  free(out2);
  free(flag);
  free(pos);
  free(packed);
  return 0;
}
