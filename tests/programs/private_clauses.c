/* covers: private, firstprivate, lastprivate on parallel for / distribute / combined constructs inside target, lastprivate with collapse(2), private arrays, firstprivate on target parallel */
#include <stdio.h>

#define N 1000

int main(void) {
  int last = -1, lastsq = -1;
  int out[N];

  /* lastprivate on a combined construct: value from the sequentially last iteration */
#pragma omp target teams distribute parallel for lastprivate(last, lastsq) map(tofrom: last, lastsq) map(from: out)
  for (int i = 0; i < N; i++) {
    last = i;
    lastsq = i * i;
    out[i] = i;
  }
  printf("lastprivate combined: last=%d lastsq=%d\n", last, lastsq);

  /* lastprivate with collapse(2) inside target parallel */
  int fi = -1, fj = -1;
#pragma omp target map(from: fi, fj)
  {
    int a, b;
#pragma omp parallel for collapse(2) lastprivate(a, b) num_threads(6)
    for (a = 0; a < 9; a++)
      for (b = 0; b < 7; b++) {
      }
    fi = a;
    fj = b;
  }
  printf("lastprivate collapse(2): a=%d b=%d\n", fi, fj);

  /* private scratch array per thread, firstprivate offset */
  int offset = 100;
  long total = 0;
  int tmp[4];
#pragma omp target teams distribute parallel for private(tmp) firstprivate(offset) reduction(+: total) map(tofrom: total)
  for (int k = 0; k < N; k++) {
    for (int q = 0; q < 4; q++) tmp[q] = k + q;
    offset += 1; /* private copy per thread: starts at 100 for every thread */
    total += tmp[0] + tmp[3] + (offset > 100 ? 1 : 0);
  }
  printf("private array + firstprivate: total=%ld offset=%d\n", total, offset);

  /* firstprivate on target parallel: each thread starts with the same value */
  int base = 7;
  int sums[8];
#pragma omp target parallel num_threads(8) firstprivate(base) map(tofrom: sums)
  {
    /* every thread of the team writes the same value into slots it owns */
#pragma omp for
    for (int t = 0; t < 8; t++) sums[t] = base * 2 + t;
  }
  int ss = 0;
  for (int t = 0; t < 8; t++) ss += sums[t];
  printf("firstprivate target parallel: sum=%d\n", ss);

  /* private scalar in distribute, lastprivate in distribute */
  int dl = -1;
  double x;
  double xs[N];
#pragma omp target teams distribute private(x) lastprivate(dl) map(tofrom: dl) map(from: xs)
  for (int k = 0; k < N; k++) {
    x = k * 0.5;
    xs[k] = x;
    dl = k + 1;
  }
  double xsum = 0;
  for (int k = 0; k < N; k++) xsum += xs[k];
  printf("distribute lastprivate: dl=%d xsum=%.1f\n", dl, xsum);
  int pass = last == N - 1 && lastsq == (N - 1) * (N - 1) && fi == 9 && fj == 7 && total == 1000L * 999 + 3000 + 1000 &&
             offset == 100 && ss == 8 * 14 + 28 && dl == N && out[5] == 5;
  printf("%s\n", pass ? "PASS" : "FAIL");
  return 0;
}
