/* lastprivate(conditional: ...) (OpenMP 5.0) in device code: after the loop each item holds the
   value stored by the sequentially last iteration that stored to it (or keeps its value when no
   iteration did), whichever thread ran that iteration: on for (several schedules), parallel for,
   target parallel for, for simd and simd. */
#include <stdio.h>
#define N 2000
int main(void) {
  int a[N];
  for (int i = 0; i < N; i++) a[i] = (i * 37) % 101;
  int last_big = -1, never = -7, every = -1;
  double half = 0;
  long sum_at = 0;
  #pragma omp target map(tofrom: last_big, never, every, half, sum_at) map(to: a)
  #pragma omp parallel num_threads(96)
  {
    #pragma omp for lastprivate(conditional: last_big, half) schedule(dynamic, 3)
    for (int i = 0; i < N; i++)
      if (a[i] > 90 && i < 1500) { last_big = i; half = a[i] * 0.5; }
    #pragma omp for lastprivate(conditional: never)
    for (int i = 0; i < N; i++)
      if (a[i] > 1000) never = i;
    #pragma omp for lastprivate(conditional: every) schedule(static, 7)
    for (int i = 0; i < N; i++) every = 3 * i;
    #pragma omp for lastprivate(conditional: sum_at)
    for (int i = 0; i < N; i++) {
      int mine = a[i];
      if (mine == 0) { sum_at = 1; sum_at += i; }   /* += is a store too (the private copy starts undefined) */
    }
  }
  int pf = -1, tpf = -1, lp = -1, sd = -1;
  #pragma omp target map(tofrom: pf) map(to: a)
  #pragma omp parallel for lastprivate(conditional: pf) num_threads(40)
  for (int i = 0; i < N; i++)
    if (a[i] % 10 == 3 && i < 1234) pf = i;
  #pragma omp target parallel for lastprivate(conditional: tpf) map(to: a) map(tofrom: tpf)
  for (int i = N - 1; i >= 0; i--)
    if (a[i] == 50) tpf = i;        /* a decreasing loop: the last iteration is the smallest i */
  #pragma omp target map(tofrom: lp, sd) map(to: a)
  {
    #pragma omp parallel num_threads(64)
    {
      #pragma omp for simd lastprivate(conditional: lp)
      for (int i = 0; i < N; i++)
        if (a[i] == 77) lp = i;
    }
    #pragma omp simd lastprivate(conditional: sd)
    for (int i = 0; i < N; i++)
      if (a[i] == 5) sd = i;
  }
  int e_big = -1, e_pf = -1, e_tpf = -1, e_lp = -1, e_sd = -1;
  double e_half = 0;
  long e_sum = 0;
  for (int i = 0; i < N; i++) {
    if (a[i] > 90 && i < 1500) { e_big = i; e_half = a[i] * 0.5; }
    if (a[i] == 0) e_sum = 1 + i;
    if (a[i] % 10 == 3 && i < 1234) e_pf = i;
    if (a[i] == 77) e_lp = i;
    if (a[i] == 5) e_sd = i;
  }
  for (int i = N - 1; i >= 0; i--) if (a[i] == 50) e_tpf = i;
  printf("for: %d %.1f %d %d %ld\n", last_big, half, never, every, sum_at);
  printf("parallel for %d, target parallel for %d, for simd %d, simd %d\n", pf, tpf, lp, sd);
  int ok = last_big == e_big && half == e_half && never == -7 && every == 3 * (N - 1) && sum_at == e_sum &&
           pf == e_pf && tpf == e_tpf && lp == e_lp && sd == e_sd;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return 0;
}
