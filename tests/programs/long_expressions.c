/* covers: very long expressions in device code, as macros produce them: a stencil whose unrolled sum has 2000 terms, and an expression nested 1000 macro calls (2000 parentheses) deep, in a kernel, in a declare target function and in a reduction */
#include <stdio.h>

#define N 256
#define R 4
/* 2000 terms: 10 x 10 x 20 */
#define T1(k) a[i + ((k) % (2 * R + 1))] * (double)(((k) % 5) + 1)
#define T10(k) T1(k) + T1(k + 1) + T1(k + 2) + T1(k + 3) + T1(k + 4) + T1(k + 5) + T1(k + 6) + T1(k + 7) + T1(k + 8) + T1(k + 9)
#define T100(k) T10(k) + T10(k + 10) + T10(k + 20) + T10(k + 30) + T10(k + 40) + T10(k + 50) + T10(k + 60) + T10(k + 70) + T10(k + 80) + T10(k + 90)
#define T2000 T100(0) + T100(100) + T100(200) + T100(300) + T100(400) + T100(500) + T100(600) + T100(700) + T100(800) + T100(900) + \
              T100(1000) + T100(1100) + T100(1200) + T100(1300) + T100(1400) + T100(1500) + T100(1600) + T100(1700) + T100(1800) + T100(1900)
/* 1000 nested calls */
#define P1(x) ((x) + 1)
#define P10(x) P1(P1(P1(P1(P1(P1(P1(P1(P1(P1(x))))))))))
#define P100(x) P10(P10(P10(P10(P10(P10(P10(P10(P10(P10(x))))))))))
#define P1000(x) P100(P100(P100(P100(P100(P100(P100(P100(P100(P100(x))))))))))

#pragma omp declare target
static int deep(int x) { return P1000(x); }
#pragma omp end declare target

int main(void) {
  double a[N + 2 * R + 1], out[N], ref[N];
  for (int i = 0; i < N + 2 * R + 1; i++) a[i] = (i % 7) * 0.5;
  for (int i = 0; i < N; i++) ref[i] = T2000;
  double total = 0.0;
  int d0 = 0, d1 = 0;
#pragma omp target teams distribute parallel for map(to: a) map(from: out) reduction(+: total)
  for (int i = 0; i < N; i++) {
    out[i] = T2000;
    total += T2000 - out[i] + 1.0;
  }
#pragma omp target map(tofrom: d0, d1)
  {
    d0 = P1000(d0);
    d1 = deep(5);
  }
  int ok = total == N && d0 == 1000 && d1 == 1005;
  for (int i = 0; i < N; i++) ok = ok && out[i] == ref[i];
  printf("out[0] %.1f out[%d] %.1f total %.1f nested %d %d\n%s\n", out[0], N - 1, out[N - 1], total, d0, d1,
         ok ? "PASS" : "FAIL");
  return 0;
}
