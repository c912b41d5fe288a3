/* covers: unnamed critical, named critical (two names protecting different data), critical across teams, critical protecting a multi-word update (linked list push into an array pool), sections/section inside target parallel, parallel sections, sections with lastprivate */
#include <stdio.h>

#define N 2000

int main(void) {
  long total = 0;
  int maxv = -1, maxi = -1;
  int evens = 0, odds = 0;

  /* unnamed critical: argmax with a tie-break; named criticals guard separate counters */
#pragma omp target teams distribute parallel for map(tofrom: total, maxv, maxi, evens, odds)
  for (int i = 0; i < N; i++) {
    int v = (i * 37) % 1009;
#pragma omp critical
    {
      total += v;
      if (v > maxv || (v == maxv && i < maxi)) {
        maxv = v;
        maxi = i;
      }
    }
    if (v % 2 == 0) {
#pragma omp critical(even_lock)
      evens++;
    } else {
#pragma omp critical(odd_lock)
      odds++;
    }
  }
  printf("critical: total=%ld max=%d at %d evens=%d odds=%d\n", total, maxv, maxi, evens, odds);

  /* critical guarding a two-step update: a stack of (value, next) in an array pool */
  int head = -1, used = 0;
  static int val[N], next[N];
#pragma omp target parallel for num_threads(16) map(tofrom: head, used) map(from: val, next)
  for (int i = 0; i < 500; i++) {
#pragma omp critical(pool)
    {
      int node = used++;
      val[node] = i;
      next[node] = head;
      head = node;
    }
  }
  long lsum = 0;
  int len = 0;
  for (int p = head; p != -1; p = next[p]) {
    lsum += val[p];
    len++;
  }
  printf("critical list: len=%d sum=%ld\n", len, lsum);

  /* sections inside target parallel */
  int s1 = 0, s2 = 0, s3 = 0, which = -1;
#pragma omp target parallel num_threads(4) map(tofrom: s1, s2, s3, which)
  {
#pragma omp sections lastprivate(which)
    {
#pragma omp section
      {
        for (int i = 0; i < 100; i++) s1 += i;
        which = 1;
      }
#pragma omp section
      {
        for (int i = 0; i < 10; i++) s2 += i * i;
        which = 2;
      }
#pragma omp section
      {
        s3 = 7;
        which = 3;
      }
    }
  }
  printf("sections: s1=%d s2=%d s3=%d lastprivate=%d\n", s1, s2, s3, which);

  /* combined parallel sections nested in target */
  int a = 0, b = 0;
#pragma omp target map(tofrom: a, b)
  {
#pragma omp parallel sections num_threads(2)
    {
#pragma omp section
      a = 11;
#pragma omp section
      b = 22;
    }
  }
  printf("parallel sections: a=%d b=%d\n", a, b);

  long want = 0;
  int wmax = -1, wi = -1, we = 0;
  for (int i = 0; i < N; i++) {
    int v = (i * 37) % 1009;
    want += v;
    if (v > wmax) {
      wmax = v;
      wi = i;
    }
    we += v % 2 == 0;
  }
  int pass = want == total && wmax == maxv && wi == maxi && we == evens && evens + odds == N && len == 500 &&
             lsum == 124750 && s1 == 4950 && s2 == 285 && s3 == 7 && which == 3 && a == 11 && b == 22;
  printf("%s\n", pass ? "PASS" : "FAIL");
  return 0;
}
