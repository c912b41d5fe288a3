/* covers: target nowait and depend inside functions called from host tasks and parallel loops: array and pointer parameters, a length parameter, a struct parameter made firstprivate on the target (the task keeps its copy after the function returned), results waited for by taskwait in the caller */
#include <stdio.h>

#define N 256
#define F 6

struct coeffs {
  double a, b;
};

static double bufs[F][N];

static void axpb(double *x, int n, struct coeffs c) {
#pragma omp target teams distribute parallel for nowait map(tofrom: x[0:n]) depend(inout: x[0]) firstprivate(c)
  for (int i = 0; i < n; i++) x[i] = c.a * x[i] + c.b;
}

static void fill(double x[N], int k) {
#pragma omp target nowait map(from: x[0:N]) depend(out: x[0])
  for (int i = 0; i < N; i++) x[i] = k + i % 3;
}

int main(void) {
#pragma omp parallel num_threads(4)
#pragma omp single
  {
    for (int f = 0; f < F; f++) {
      fill(bufs[f], f);
      struct coeffs c = {2.0, (double)f};
      axpb(bufs[f], N, c);
    }
#pragma omp taskwait
  }
  int ok = 1;
  double s = 0;
  for (int f = 0; f < F; f++)
    for (int i = 0; i < N; i++) {
      ok &= bufs[f][i] == 2.0 * (f + i % 3) + f;
      s += bufs[f][i];
    }
  printf("sum=%.1f\n", s);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return 0;
}
