/* covers: target nowait (deferred target tasks) created by a single thread of a host parallel region, taskwait waiting for them, independent regions on separate arrays, nowait on combined constructs (target teams distribute parallel for nowait), nowait outside any parallel region (runs undeferred) */
#include <stdio.h>

#define K 6
#define N 2000

static double arr[K][N];

int main(void) {
  for (int k = 0; k < K; k++)
    for (int i = 0; i < N; i++) arr[k][i] = k * 1000 + i;

#pragma omp parallel num_threads(4)
#pragma omp single
  {
    for (int k = 0; k < K; k++) {
      double *p = arr[k];
      int kk = k;
#pragma omp target teams distribute parallel for nowait map(tofrom: p[0:N])
      for (int i = 0; i < N; i++) p[i] = p[i] * 2 + kk;
    }
#pragma omp taskwait
    double s = 0;
    for (int k = 0; k < K; k++) s += arr[k][N - 1];
    printf("after taskwait: last elements sum=%.1f\n", s);

    /* plain target nowait (one team) */
    int flags[K] = {0};
    for (int k = 0; k < K; k++) {
#pragma omp target nowait map(tofrom: flags[k:1]) firstprivate(k)
      flags[k] = k + 1;
    }
#pragma omp taskwait
    int f = 0;
    for (int k = 0; k < K; k++) f += flags[k];
    printf("flags sum=%d\n", f);
  }

  /* outside a parallel region: still correct (the task runs at once) */
  double lone[16];
  for (int i = 0; i < 16; i++) lone[i] = i;
#pragma omp target nowait map(tofrom: lone)
  for (int i = 0; i < 16; i++) lone[i] = -lone[i];
#pragma omp taskwait
  printf("lone[15]=%.1f\n", lone[15]);

  int ok = 1;
  for (int k = 0; k < K; k++)
    for (int i = 0; i < N; i++) ok &= arr[k][i] == (k * 1000 + i) * 2.0 + k;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return 0;
}
