/* covers: the flat-loop mapping and its arithmetic: target teams distribute parallel for with the default schedule, schedule(static) and schedule(static, 3) over fewer and more iterations than the grid has threads; loop variables of char, short, int, unsigned, long long types computed in 32 bits where they are narrow (negative steps, bounds near INT_MIN/INT_MAX, an unsigned loop above 2^31, a loop variable typedef); collapse(2) and collapse(3) with nests whose flat space fits 32 bits and one that does not fit it; the loop that ends a parallel region (no own barrier) followed by reads of its results after the region; #pragma omp barrier inside and outside branches; master, masked filter and single (with and without nowait) in regions with and without num_threads */
#include <limits.h>
#include <stdio.h>
#include <omp.h>

#define N 5000
typedef int idx_t;

static long long hits_sum(const int *h, int n) {
  long long s = 0;
  for (int i = 0; i < n; i++) s += (long long)h[i] * (i + 1);
  return s;
}

int main(void) {
  int ok = 1;
  static int h[N];

  /* every iteration exactly once, for each schedule and size (small: fewer iterations than threads) */
  const int sizes[3] = {7, 1000, N};
  for (int s = 0; s < 3; s++) {
    const int n = sizes[s];
    for (int sched = 0; sched < 3; sched++) {
      for (int i = 0; i < N; i++) h[i] = 0;
      if (sched == 0) {
#pragma omp target teams distribute parallel for map(tofrom: h[0:N])
        for (int i = 0; i < n; i++) h[i] += 1;
      } else if (sched == 1) {
#pragma omp target teams distribute parallel for schedule(static) map(tofrom: h[0:N])
        for (int i = 0; i < n; i++) h[i] += 1;
      } else {
#pragma omp target teams distribute parallel for schedule(static, 3) map(tofrom: h[0:N])
        for (int i = 0; i < n; i++) h[i] += 1;
      }
      int bad = 0;
      for (int i = 0; i < N; i++) bad += h[i] != (i < n);
      if (bad) ok = 0;
      printf("n=%d schedule %d: %d wrong\n", n, sched, bad);
    }
  }

  /* narrow loop variables: the values must be those of the C loop, also across the int range */
  /* (bounds whose difference fits the variable's type: the type that computes the trip count
     is implementation-defined, and gcc uses the variable's own) */
  long long sums[8] = {0};
#pragma omp target teams distribute parallel for reduction(+: sums[0:1]) map(tofrom: sums)
  for (int i = INT_MAX - (1 << 25); i > 5; i -= 1 << 24) sums[0] += i / 1024;
#pragma omp target teams distribute parallel for reduction(+: sums[1:1]) map(tofrom: sums)
  for (unsigned u = 4000000000u; u > 3000000000u; u -= 999999u) sums[1] += u % 1000;
#pragma omp target teams distribute parallel for reduction(+: sums[2:1]) map(tofrom: sums)
  for (short t = -300; t <= 300; t += 7) sums[2] += t;
#pragma omp target teams distribute parallel for reduction(+: sums[3:1]) map(tofrom: sums)
  for (signed char c = 60; c > -60; c -= 3) sums[3] += c;
#pragma omp target teams distribute parallel for reduction(+: sums[4:1]) map(tofrom: sums)
  for (long long w = 6000000000LL; w < 6000000000LL + 3000; w += 3) sums[4] += w - 6000000000LL;
#pragma omp target teams distribute parallel for reduction(+: sums[5:1]) map(tofrom: sums)
  for (idx_t k = 10; k < 1000; k++) sums[5] += k;
#pragma omp target teams distribute parallel for reduction(+: sums[6:1]) map(tofrom: sums)
  for (int i = -1000000000; i < 1000000000; i += 1 << 22) sums[6] += i % 77;
  long long ref[8] = {0};
  for (int i = INT_MAX - (1 << 25); i > 5; i -= 1 << 24) ref[0] += i / 1024;
  for (unsigned u = 4000000000u; u > 3000000000u; u -= 999999u) ref[1] += u % 1000;
  for (short t = -300; t <= 300; t += 7) ref[2] += t;
  for (signed char c = 60; c > -60; c -= 3) ref[3] += c;
  for (long long w = 6000000000LL; w < 6000000000LL + 3000; w += 3) ref[4] += w - 6000000000LL;
  for (idx_t k = 10; k < 1000; k++) ref[5] += k;
  for (int i = -1000000000; i < 1000000000; i += 1 << 22) ref[6] += i % 77;
  for (int j = 0; j < 7; j++) {
    if (sums[j] != ref[j]) ok = 0;
    printf("narrow loop %d: %s\n", j, sums[j] == ref[j] ? "same as the host" : "DIFFERENT");
  }

  /* collapse: each (i, j, k) exactly once, with its own indices */
  static int c2[40][50];
  static int c3[6][7][8];
#pragma omp target teams distribute parallel for collapse(2) map(from: c2)
  for (int i = 0; i < 40; i++)
    for (int j = 0; j < 50; j++) c2[i][j] = i * 100 + j;
#pragma omp target teams distribute parallel for collapse(3) map(from: c3)
  for (int i = 5; i >= 0; i--)
    for (int j = 0; j < 14; j += 2)
      for (int k = 7; k >= 0; k--) c3[i][j / 2][k] = i * 10000 + j * 100 + k;
  int bad = 0;
  for (int i = 0; i < 40; i++)
    for (int j = 0; j < 50; j++) bad += c2[i][j] != i * 100 + j;
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 7; j++)
      for (int k = 0; k < 8; k++) bad += c3[i][j][k] != i * 10000 + j * 200 + k;
  /* 64-bit loop variables beyond 2^32 in a collapsed nest */
  long long corner = 0;
#pragma omp target teams distribute parallel for collapse(2) reduction(+: corner) map(tofrom: corner)
  for (long long i = (1LL << 40); i < (1LL << 40) + 30; i++)
    for (long long j = -(1LL << 35); j > -(1LL << 35) - 90; j -= 3) corner += (i - (1LL << 40)) * 1000 + (-(1LL << 35) - j);
  long long corner_ref = 0;
  for (long long i = 0; i < 30; i++)
    for (long long j = 0; j < 90; j += 3) corner_ref += i * 1000 + j;
  if (bad || corner != corner_ref) ok = 0;
  printf("collapse: %d wrong, wide nest %s\n", bad, corner == corner_ref ? "same as the host" : "DIFFERENT");

  /* a region ending in a loop, whose results are read after the region */
  static int v[N], w[N], x[N];
  for (int i = 0; i < N; i++) v[i] = i;
#pragma omp target teams num_teams(1) thread_limit(96) map(tofrom: v, w, x)
  {
#pragma omp parallel
    {
#pragma omp for
      for (int i = 0; i < N; i++) w[i] = v[i] * 2;
#pragma omp for
      for (int i = 0; i < N; i++) v[N - 1 - i] = w[i] + 1;
    }
#pragma omp parallel for
    for (int i = 0; i < N; i++) x[i] = v[i] + w[N - 1 - i];
  }
  bad = 0;
  for (int i = 0; i < N; i++) bad += x[i] != 2 * (N - 1 - i) + 1 + 2 * (N - 1 - i);
  if (bad) ok = 0;
  printf("region-ending loops: %d wrong\n", bad);

  /* barriers inside and outside branches; master, masked, single in sized and whole teams */
  int counts[4][6];
  const int req[4] = {1, 32, 40, 64};
#pragma omp target teams num_teams(1) thread_limit(64) map(from: counts) map(to: req)
  for (int r = 0; r < 4; r++) {
    int *c = counts[r];
    c[0] = c[1] = c[2] = c[3] = c[4] = c[5] = 0;
#pragma omp parallel num_threads(req[r])
    {
      const int t = omp_get_thread_num(), nt = omp_get_num_threads();
#pragma omp master
      c[0] += 1;
#pragma omp masked filter(nt - 1)
      c[1] += 1;
#pragma omp single
      c[2] += 1;
#pragma omp barrier
      if (nt > 0) {
#pragma omp atomic
        c[3] += 1;
#pragma omp barrier
      }
#pragma omp single nowait
      c[4] += c[3] == nt;
#pragma omp barrier
      if (t == 0) c[5] = nt;
    }
  }
  for (int r = 0; r < 4; r++) {
    int *c = counts[r];
    const int good = c[0] == 1 && c[1] == 1 && c[2] == 1 && c[3] == c[5] && c[4] == 1 && c[5] >= 1 && c[5] <= req[r];
    if (!good) ok = 0;
    printf("team of up to %d: master %d masked %d single %d barrier-after-branch %s single-nowait %d\n", req[r], c[0], c[1],
           c[2], c[3] == c[5] ? "ok" : "WRONG", c[4]);
  }
  printf("hits %lld\n", hits_sum(h, N));
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
