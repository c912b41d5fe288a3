/* simd clauses: safelen, simdlen, linear (with steps), aligned, collapse, reduction, private, lastprivate, nontemporal, if; declare simd with uniform/linear/aligned/inbranch/notinbranch */
#include <stdio.h>

#pragma omp declare target
#pragma omp declare simd uniform(scale) linear(i: 1) notinbranch
static double scaled(double *v, int i, double scale) { return v[i] * scale; }

#pragma omp declare simd simdlen(8) inbranch
static float relu(float x) { return x > 0.0f ? x : 0.0f; }
#pragma omp end declare target

int main(void) {
  static _Alignas(64) double a[1024];
  static float f[1024];
  double s = 0.0;
  int j = 0, last = -1;
  for (int i = 0; i < 1024; i++) {
    a[i] = i;
    f[i] = (float)(i - 512);
  }

#pragma omp target map(tofrom: a, f, s, j, last)
  {
#pragma omp simd safelen(8) simdlen(4) reduction(+: s) aligned(a: 64)
    for (int i = 0; i < 1024; i++) s += scaled(a, i, 0.5);
#pragma omp simd linear(j: 2) lastprivate(last)
    for (int i = 0; i < 512; i++) {
      a[j] += 1.0;
      j += 2;
      last = i;
    }
#pragma omp simd collapse(2) private(s)
    for (int r = 0; r < 32; r++)
      for (int c = 0; c < 32; c++) {
        s = r + c;
        a[r * 32 + c] += s;
      }
#pragma omp simd nontemporal(f) if(simd: 1)
    for (int i = 0; i < 1024; i++) {
      if (f[i] < 100.0f) f[i] = relu(f[i]);
    }
  }
#pragma omp target teams distribute parallel for simd simdlen(8) safelen(16) linear(j) map(tofrom: a)
  for (int i = 0; i < 1024; i++) a[i] *= 1.0;
  printf("%f %d %d %f\n", s, j, last, f[600]);
  return 0;
}
