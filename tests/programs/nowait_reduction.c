/* covers: reductions in target nowait regions (target teams distribute parallel for reduction nowait with the result mapped tofrom), several concurrent reductions into different variables, a dependent task using a reduction result */
#include <stdio.h>

#define N 100000

int main(void) {
  static int v[N];
  for (int i = 0; i < N; i++) v[i] = i % 100;
  long s1 = 0, s2 = 0, mx = -1;
  double scaled = 0;
#pragma omp parallel num_threads(4)
#pragma omp single
  {
#pragma omp target teams distribute parallel for nowait map(to: v) map(tofrom: s1) reduction(+: s1) depend(out: s1)
    for (int i = 0; i < N; i++) s1 += v[i];
#pragma omp target teams distribute parallel for nowait map(to: v) map(tofrom: s2) reduction(+: s2)
    for (int i = 0; i < N; i += 2) s2 += v[i];
#pragma omp target teams distribute parallel for nowait map(to: v) map(tofrom: mx) reduction(max: mx)
    for (int i = 0; i < N; i++) mx = v[i] * 3 > mx ? v[i] * 3 : mx;
    /* s1 mapped: read when the task runs, after its dependence (a firstprivate s1 would be
       taken when the task is created, before the reduction finished) */
#pragma omp target nowait map(tofrom: scaled) map(to: s1) depend(in: s1)
    scaled = s1 * 0.5;
#pragma omp taskwait
  }
  printf("s1=%ld s2=%ld max=%ld scaled=%.1f\n", s1, s2, mx, scaled);
  printf("%s\n", s1 == 4950L * (N / 100) && mx == 297 && scaled == s1 * 0.5 ? "PASS" : "FAIL");
  return 0;
}
