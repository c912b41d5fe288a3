/* covers: target parallel / parallel for with num_threads, schedule(static), schedule(static, chunk), schedule(dynamic, chunk), schedule(guided), schedule(dynamic) without chunk, nowait on for followed by barrier, static-chunk owner formula */
#include <stdio.h>
#include <omp.h>

#define N 2000

static int check_once(const int *cnt, int n) {
  for (int i = 0; i < n; i++)
    if (cnt[i] != 1) return 0;
  return 1;
}

int main(void) {
  static int cnt[N], who[N], out[N];
  int nth = 0;

  /* static with chunk 5: iteration i is done by thread (i / 5) % nthreads */
  for (int i = 0; i < N; i++) cnt[i] = 0;
#pragma omp target parallel for num_threads(8) schedule(static, 5) map(tofrom: cnt, who, nth)
  for (int i = 0; i < N; i++) {
    cnt[i]++;
    who[i] = omp_get_thread_num();
    if (i == 0) nth = omp_get_num_threads();
  }
  int formula = 1;
  for (int i = 0; i < N; i++)
    if (who[i] != (i / 5) % nth) formula = 0;
  printf("static,5: once=%d owner formula=%d\n", check_once(cnt, N), formula);

  /* plain static: each thread one contiguous block, owners nondecreasing */
  for (int i = 0; i < N; i++) cnt[i] = 0;
#pragma omp target parallel for num_threads(8) schedule(static) map(tofrom: cnt, who)
  for (int i = 0; i < N; i++) {
    cnt[i]++;
    who[i] = omp_get_thread_num();
  }
  int mono = 1;
  for (int i = 1; i < N; i++)
    if (who[i] < who[i - 1]) mono = 0;
  printf("static: once=%d monotone=%d\n", check_once(cnt, N), mono);

  /* dynamic, guided, dynamic without chunk: coverage and results */
  long sums[3] = {0, 0, 0};
  int onces[3];
  for (int kind = 0; kind < 3; kind++) {
    for (int i = 0; i < N; i++) {
      cnt[i] = 0;
      out[i] = 0;
    }
#pragma omp target map(tofrom: cnt, out) firstprivate(kind)
#pragma omp parallel num_threads(16)
    {
      if (kind == 0) {
#pragma omp for schedule(dynamic, 7)
        for (int i = 0; i < N; i++) {
          cnt[i]++;
          out[i] = i * 3;
        }
      } else if (kind == 1) {
#pragma omp for schedule(guided)
        for (int i = 0; i < N; i++) {
          cnt[i]++;
          out[i] = i * 3;
        }
      } else {
#pragma omp for schedule(dynamic)
        for (int i = 0; i < N; i++) {
          cnt[i]++;
          out[i] = i * 3;
        }
      }
    }
    onces[kind] = check_once(cnt, N);
    for (int i = 0; i < N; i++) sums[kind] += out[i];
  }
  printf("dynamic,7: once=%d sum=%ld\n", onces[0], sums[0]);
  printf("guided: once=%d sum=%ld\n", onces[1], sums[1]);
  printf("dynamic: once=%d sum=%ld\n", onces[2], sums[2]);

  /* guided with a minimum chunk, unequal work per iteration */
  long tri = 0;
#pragma omp target teams distribute parallel for schedule(guided, 4) reduction(+: tri) map(tofrom: tri)
  for (int i = 0; i < 500; i++) {
    long t = 0;
    for (int k = 0; k < i; k++) t += k & 3;
    tri += t;
  }
  printf("guided,4 triangular: %ld\n", tri);

  /* nowait: two independent loops, then an explicit barrier before a dependent one */
  static int p[N], q[N], r[N];
#pragma omp target map(from: p, q, r)
#pragma omp parallel num_threads(8)
  {
#pragma omp for schedule(static) nowait
    for (int i = 0; i < N; i++) p[i] = i;
#pragma omp for schedule(static) nowait
    for (int i = 0; i < N; i++) q[i] = 2 * i;
#pragma omp barrier
#pragma omp for schedule(dynamic, 16)
    for (int i = 0; i < N; i++) r[i] = p[N - 1 - i] + q[i];
  }
  long rs = 0;
  int rok = 1;
  for (int i = 0; i < N; i++) {
    rs += r[i];
    if (r[i] != N - 1 + i) rok = 0;
  }
  printf("nowait+barrier: ok=%d sum=%ld\n", rok, rs);
  int pass = formula && mono && onces[0] && onces[1] && onces[2] && rok && sums[0] == sums[1];
  printf("%s\n", pass ? "PASS" : "FAIL");
  return 0;
}
