/* covers: fan-out / fan-in with depend: one producer target task (depend out), many consumer target tasks reading it (depend in) writing separate outputs, a final target task depending on every output (depend in on several items) and a host task after it; depend on array sections */
#include <stdio.h>

#define N 1024
#define W 6

static double src[N];
static double out[W][N];
static double combined[N];

int main(void) {
#pragma omp parallel num_threads(4)
#pragma omp single
  {
#pragma omp target nowait map(from: src) depend(out: src)
    for (int i = 0; i < N; i++) src[i] = i % 50;
    for (int w = 0; w < W; w++) {
      double *o = out[w];
#pragma omp target nowait map(to: src) map(from: o[0:N]) depend(in: src) depend(out: out[w][0:N]) firstprivate(w)
      for (int i = 0; i < N; i++) o[i] = src[i] * (w + 1);
    }
#pragma omp target nowait map(to: out) map(from: combined) depend(in: out[0][0:N], out[1][0:N], out[2][0:N]) depend(in: out[3][0:N], out[4][0:N], out[5][0:N]) depend(out: combined)
    for (int i = 0; i < N; i++) {
      double s = 0;
      for (int w = 0; w < W; w++) s += out[w][i];
      combined[i] = s;
    }
    double total = 0;
#pragma omp task depend(in: combined) shared(total)
    for (int i = 0; i < N; i++) total += combined[i];
#pragma omp taskwait
    printf("total=%.1f\n", total);
  }
  int ok = 1;
  for (int i = 0; i < N; i++) ok &= combined[i] == (i % 50) * (W * (W + 1) / 2);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return 0;
}
