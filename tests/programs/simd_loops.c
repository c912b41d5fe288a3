/* covers: simd inside target regions: target teams distribute parallel for simd, parallel for simd with reduction, simd loop inside a distribute iteration, simd with safelen/simdlen/aligned-free clauses, declare simd function (may be ignored by a GPU compiler, results must hold) */
#include <stdio.h>

#define N 4096

#pragma omp declare target
#pragma omp declare simd
static int mix(int x) { return (x * 31) ^ (x >> 3); }
#pragma omp end declare target

int main(void) {
  static int a[N], b[N];
  for (int i = 0; i < N; i++) a[i] = i;

#pragma omp target teams distribute parallel for simd map(to: a) map(from: b)
  for (int i = 0; i < N; i++) b[i] = mix(a[i]) + 1;

  long s1 = 0;
#pragma omp target parallel for simd reduction(+: s1) map(to: b)
  for (int i = 0; i < N; i++) s1 += b[i] & 1023;

  long s2 = 0;
#pragma omp target teams distribute reduction(+: s2) map(to: b) num_teams(16)
  for (int r = 0; r < 64; r++) {
    long part = 0;
#pragma omp simd reduction(+: part) safelen(16) simdlen(8)
    for (int c = 0; c < 64; c++) part += b[r * 64 + c] % 7;
    s2 += part;
  }

  int lastv = -1;
#pragma omp target map(tofrom: lastv) map(to: b)
#pragma omp simd lastprivate(lastv)
  for (int i = 0; i < N; i++) lastv = b[i] % 100;

  long w1 = 0, w2 = 0;
  int ok = 1;
  for (int i = 0; i < N; i++) {
    int v = ((i * 31) ^ (i >> 3)) + 1;
    if (b[i] != v) ok = 0;
    w1 += v & 1023;
    w2 += v % 7;
  }
  printf("simd: b[100]=%d s1=%ld s2=%ld last=%d\n", b[100], s1, s2, lastv);
  printf("%s\n", ok && s1 == w1 && s2 == w2 && lastv == b[N - 1] % 100 ? "PASS" : "FAIL");
  return 0;
}
