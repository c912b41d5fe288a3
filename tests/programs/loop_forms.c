/* covers: canonical loop forms in worksharing and distribute loops: <=, >, >= conditions, decrementing loops, strides > 1 and negative strides, i = i + s / i -= s increments, unsigned and long and long long iteration variables, loop variable declared outside the loop, non-constant bounds and strides from firstprivate scalars, empty iteration spaces, != condition */
#include <stdio.h>

#define N 1000

static long checksum(const int *a, int n) {
  long s = 0;
  for (int i = 0; i < n; i++) s += (long)a[i] * (i % 17 + 1);
  return s;
}

int main(void) {
  static int a[N];
  long sums[12];
  int k = 0;

#define RESET() for (int z = 0; z < N; z++) a[z] = 0

  RESET();
#pragma omp target teams distribute parallel for map(tofrom: a)
  for (int i = 0; i <= N - 1; i++) a[i] += 1; /* <= */
  sums[k++] = checksum(a, N);

  RESET();
#pragma omp target teams distribute parallel for map(tofrom: a)
  for (int i = N - 1; i >= 0; i--) a[i] += i; /* decrement, >= */
  sums[k++] = checksum(a, N);

  RESET();
#pragma omp target teams distribute parallel for map(tofrom: a)
  for (int i = N - 1; i > 10; i -= 3) a[i] += 2; /* -= 3, > */
  sums[k++] = checksum(a, N);

  RESET();
#pragma omp target teams distribute parallel for map(tofrom: a)
  for (int i = 5; i < N; i = i + 7) a[i] += 3; /* i = i + 7 */
  sums[k++] = checksum(a, N);

  RESET();
  unsigned un = N;
#pragma omp target teams distribute parallel for map(tofrom: a)
  for (unsigned u = 0; u < un; u += 2) a[u] += 4; /* unsigned */
  sums[k++] = checksum(a, N);

  RESET();
  long lb = 3, ub = N, st = 5;
#pragma omp target teams distribute parallel for map(tofrom: a)
  for (long l = lb; l < ub; l += st) a[l] += 5; /* long, runtime stride */
  sums[k++] = checksum(a, N);

  RESET();
#pragma omp target teams distribute parallel for map(tofrom: a)
  for (long long q = 0; q < N; q++) a[q] += (int)(q % 3); /* long long */
  sums[k++] = checksum(a, N);

  RESET();
  int i;
#pragma omp target parallel for map(tofrom: a) num_threads(5)
  for (i = 0; i < N; i += 4) a[i] += 6; /* variable declared outside, private on the loop */
  sums[k++] = checksum(a, N);

  RESET();
  int empty_lo = 50, empty_hi = 40;
#pragma omp target teams distribute parallel for map(tofrom: a)
  for (int q = empty_lo; q < empty_hi; q++) a[q] += 100; /* empty */
  sums[k++] = checksum(a, N);

  RESET();
#pragma omp target teams distribute parallel for map(tofrom: a)
  for (int q = 0; q != N; q++) a[q] += 7; /* != */
  sums[k++] = checksum(a, N);

  RESET();
  int step = -9;
#pragma omp target map(tofrom: a)
#pragma omp teams distribute
  for (int q = N - 2; q >= 1; q += step) a[q] += 8; /* negative runtime stride in distribute */
  sums[k++] = checksum(a, N);

  RESET();
#pragma omp target map(tofrom: a)
#pragma omp parallel for schedule(dynamic, 3) num_threads(7)
  for (int q = 997; q > -3; q -= 2) if (q >= 0) a[q] += 9; /* negative lower bound */
  sums[k++] = checksum(a, N);

  long want[12];
  int w = 0;
  RESET();
  for (int q = 0; q <= N - 1; q++) a[q] += 1;
  want[w++] = checksum(a, N);
  RESET();
  for (int q = N - 1; q >= 0; q--) a[q] += q;
  want[w++] = checksum(a, N);
  RESET();
  for (int q = N - 1; q > 10; q -= 3) a[q] += 2;
  want[w++] = checksum(a, N);
  RESET();
  for (int q = 5; q < N; q += 7) a[q] += 3;
  want[w++] = checksum(a, N);
  RESET();
  for (int q = 0; q < N; q += 2) a[q] += 4;
  want[w++] = checksum(a, N);
  RESET();
  for (int q = 3; q < N; q += 5) a[q] += 5;
  want[w++] = checksum(a, N);
  RESET();
  for (int q = 0; q < N; q++) a[q] += q % 3;
  want[w++] = checksum(a, N);
  RESET();
  for (int q = 0; q < N; q += 4) a[q] += 6;
  want[w++] = checksum(a, N);
  want[w++] = 0;
  RESET();
  for (int q = 0; q < N; q++) a[q] += 7;
  want[w++] = checksum(a, N);
  RESET();
  for (int q = N - 2; q >= 1; q -= 9) a[q] += 8;
  want[w++] = checksum(a, N);
  RESET();
  for (int q = 997; q > -3; q -= 2)
    if (q >= 0) a[q] += 9;
  want[w++] = checksum(a, N);

  int ok = 1;
  for (int q = 0; q < k; q++) {
    printf("form %2d: %ld %s\n", q, sums[q], sums[q] == want[q] ? "ok" : "WRONG");
    if (sums[q] != want[q]) ok = 0;
  }
  printf("%s\n", ok && k == 12 ? "PASS" : "FAIL");
  return 0;
}
