/* covers: if(target: expr) false -> host fallback, if(expr) without modifier, device(0), device(omp_get_default_device()), omp_is_initial_device in an if(false) region, target data if(false), combined construct with if */
#include <stdio.h>
#include <omp.h>

#define N 300

static int small_kernel(int *v, int n, int use_device) {
  int on_initial = -1;
#pragma omp target if(target: use_device) map(tofrom: v[0:n]) map(from: on_initial)
  {
    on_initial = omp_is_initial_device();
    for (int i = 0; i < n; i++) v[i] = v[i] * 2 + 1;
  }
  return on_initial;
}

int main(void) {
  int v[N];
  for (int i = 0; i < N; i++) v[i] = i;

  /* false if: must run on the host */
  int r0 = small_kernel(v, N, 0);
  printf("if(target: 0): initial_device=%d v[10]=%d\n", r0, v[10]);

  /* true if: device when present, host otherwise; the result is the same */
  int r1 = small_kernel(v, N, 1);
  printf("if(target: 1): initial_device_is_bool=%d v[10]=%d\n", r1 == 0 || r1 == 1, v[10]);

  /* if without modifier on a combined construct */
  long s = 0;
  int n = N;
#pragma omp target teams distribute parallel for if(n > 1000) map(tofrom: s) reduction(+: s)
  for (int i = 0; i < n; i++) s += v[i];
  printf("combined if(false): s=%ld\n", s);
#pragma omp target teams distribute parallel for if(n > 10) map(tofrom: s) reduction(+: s)
  for (int i = 0; i < n; i++) s += 1;
  printf("combined if(true): s=%ld\n", s);

  /* device clauses */
  int dflt = omp_get_default_device();
  int x = 0, y = 0;
#pragma omp target device(0) map(tofrom: x)
  x += 11;
#pragma omp target device(dflt) map(tofrom: y)
  y += 22;
  printf("device(0): x=%d device(default): y=%d\n", x, y);

  /* a data region with if(false) maps nothing; the nested target maps on its own */
  int w[16];
  for (int i = 0; i < 16; i++) w[i] = i;
#pragma omp target data map(tofrom: w) if(0)
  {
#pragma omp target map(tofrom: w)
    for (int i = 0; i < 16; i++) w[i] += 100;
  }
  int ws = 0;
  for (int i = 0; i < 16; i++) ws += w[i];
  printf("data if(0): ws=%d\n", ws);

  int pass = r0 == 1 && v[10] == 43 && s == 4L * (300 * 299 / 2) + 3 * 300 + 300 && x == 11 && y == 22 && ws == 1720;
  printf("%s\n", pass ? "PASS" : "FAIL");
  return 0;
}
