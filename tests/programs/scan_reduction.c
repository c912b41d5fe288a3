/* Scans (OpenMP 5.0 inscan reductions and the scan directive) in device code: inclusive and
   exclusive prefix sums on for and for simd in a parallel region of 64 threads, a product on
   parallel for, min and max, an exclusive scan on simd (one thread, in order); each item ends
   with the whole reduction. Checked against the serial prefixes. */
#include <stdio.h>
#define N 1000
int main(void) {
  int a[N], inc[N], exc[N], x = 5, y = 0, lo = 1 << 30, hi = -(1 << 30), lows[N], highs[N];
  double d = 1.0, prod[20];
  for (int i = 0; i < N; i++) a[i] = (i * 37) % 101 - 50;
  #pragma omp target map(to: a) map(from: inc, exc, lows, highs) map(tofrom: x, y, lo, hi)
  #pragma omp parallel num_threads(64)
  {
    #pragma omp for reduction(inscan, +: x)
    for (int i = 0; i < N; i++) {
      x += a[i];
      #pragma omp scan inclusive(x)
      inc[i] = x;
    }
    #pragma omp for simd reduction(inscan, +: y)
    for (int i = 0; i < N; i++) {
      exc[i] = y;
      #pragma omp scan exclusive(y)
      y += a[i];
    }
    #pragma omp for reduction(inscan, min: lo) reduction(inscan, max: hi)
    for (int i = 0; i < N; i++) {
      lo = a[i] < lo ? a[i] : lo;
      hi = a[i] > hi ? a[i] : hi;
      #pragma omp scan inclusive(lo, hi)
      lows[i] = lo;
      highs[i] = hi;
    }
  }
  #pragma omp target map(tofrom: d) map(from: prod)
  #pragma omp parallel for reduction(inscan, *: d) num_threads(8)
  for (int i = 0; i < 20; i++) {
    d *= 1.5;
    #pragma omp scan inclusive(d)
    prod[i] = d;
  }
  int z = 0, zs[N];
  #pragma omp target map(tofrom: z) map(to: a) map(from: zs)
  #pragma omp simd reduction(inscan, +: z)
  for (int i = 0; i < N; i++) {
    zs[i] = z;
    #pragma omp scan exclusive(z)
    z += a[i];
  }
  int s = 5, t = 0, l = 1 << 30, h = -(1 << 30), ok = 1;
  for (int i = 0; i < N; i++) {
    s += a[i];
    l = a[i] < l ? a[i] : l;
    h = a[i] > h ? a[i] : h;
    if (inc[i] != s || exc[i] != t || zs[i] != t || lows[i] != l || highs[i] != h) ok = 0;
    t += a[i];
  }
  double e = 1.0;
  for (int i = 0; i < 20; i++) { e *= 1.5; if (prod[i] != e) ok = 0; }
  printf("x %d y %d z %d lo %d hi %d d %.4f\n", x, y, z, lo, hi, d);
  printf("inc[%d] %d exc[%d] %d prod[19] %.4f\n", N - 1, inc[N - 1], N - 1, exc[N - 1], prod[19]);
  printf("%s\n", ok && x == s && y == t && z == t && lo == l && hi == h && d == e ? "PASS" : "FAIL");
  return 0;
}
