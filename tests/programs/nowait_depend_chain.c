/* covers: depend(out) -> depend(inout) -> depend(in) between target nowait tasks (a pipeline of kernels on one array), host tasks in the same dependence chain, two independent chains interleaved, taskwait at the end */
#include <stdio.h>

#define N 4096
#define STEPS 5

static double a[N], b[N];

int main(void) {
  double checks[STEPS], checks_b[STEPS];
#pragma omp parallel num_threads(4)
#pragma omp single
  {
#pragma omp target nowait map(from: a) depend(out: a)
    for (int i = 0; i < N; i++) a[i] = i;
#pragma omp target nowait map(from: b) depend(out: b)
    for (int i = 0; i < N; i++) b[i] = 2 * i;
    for (int s = 0; s < STEPS; s++) {
#pragma omp target nowait map(tofrom: a) depend(inout: a)
      for (int i = 0; i < N; i++) a[i] = a[i] * 2 + 1;
#pragma omp target nowait map(tofrom: b) depend(inout: b)
      for (int i = 0; i < N; i++) b[i] = b[i] + s;
      /* host task reads the state of this step */
#pragma omp task depend(in: a) firstprivate(s) shared(checks)
      checks[s] = a[N - 1];
#pragma omp task depend(in: b) firstprivate(s) shared(checks_b)
      checks_b[s] = b[N - 1];
    }
    double total = 0;
#pragma omp target nowait map(to: a) map(tofrom: total) depend(in: a) depend(out: total)
    {
      for (int i = 0; i < N; i++) total += a[i];
    }
#pragma omp taskwait
    printf("total=%.1f\n", total);
  }
  for (int s = 0; s < STEPS; s++) printf("step %d: a[N-1]=%.1f b[N-1]=%.1f\n", s, checks[s], checks_b[s]);
  int ok = 1;
  for (int i = 0; i < N; i++) {
    double v = i;
    for (int s = 0; s < STEPS; s++) v = v * 2 + 1;
    ok &= a[i] == v && b[i] == 2 * i + (STEPS * (STEPS - 1)) / 2;
  }
  printf("%s\n", ok ? "PASS" : "FAIL");
  return 0;
}
