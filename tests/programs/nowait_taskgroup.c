/* covers: target nowait tasks inside a taskgroup (the end of the taskgroup waits for them), target tasks created by several host threads at once (parallel for with nowait regions, the implicit barrier waits), taskwait depend(in:) waiting for one target task only */
#include <stdio.h>

#define N 2048
#define P 8

static double part[P][N];
static double res[P];

int main(void) {
#pragma omp parallel num_threads(4)
  {
#pragma omp single
    {
#pragma omp taskgroup
      {
        for (int p = 0; p < P; p++) {
          double *q = part[p];
#pragma omp target teams distribute parallel for nowait map(from: q[0:N]) firstprivate(p)
          for (int i = 0; i < N; i++) q[i] = p + (i % 4);
        }
      }
      double s = 0;
      for (int p = 0; p < P; p++) s += part[p][N - 1];
      printf("after taskgroup: %.1f\n", s);
    }
    /* every thread creates target tasks; the barrier at the end of the loop waits */
#pragma omp for
    for (int p = 0; p < P; p++) {
      double *q = part[p];
#pragma omp target nowait map(tofrom: q[0:N]) map(from: res[p:1])
      {
        double t = 0;
        for (int i = 0; i < N; i++) {
          q[i] *= 2;
          t += q[i];
        }
        res[p] = t;
      }
    }
#pragma omp single
    {
      double extra = 0;
#pragma omp target nowait map(tofrom: extra) depend(out: extra)
      extra = 7.5;
#pragma omp taskwait depend(in: extra)
      printf("taskwait depend: extra=%.1f\n", extra);
    }
  }
  int ok = 1;
  for (int p = 0; p < P; p++) {
    double want = 0;
    for (int i = 0; i < N; i++) want += 2.0 * (p + (i % 4));
    ok &= res[p] == want;
    printf("res[%d]=%.1f\n", p, res[p]);
  }
  printf("%s\n", ok ? "PASS" : "FAIL");
  return 0;
}
