/* Searches written as min reductions (issue 34): `if (cond && i < first) first = i;` under
 * `reduction(min: first)` finds the first i that matches; each thread may stop at its own first
 * match (-Rpass=ompgpu says so). Sorted and unsorted data, several matches per thread, no match,
 * the bound written `first > i`, a step of 3, static, dynamic and guided schedules, and a
 * team per search (nested in `teams distribute`). Results must be the first match exactly. */
#include <stdio.h>

#define N 5000
#define Q 40

static double cdf[N];
static int key[N];
static int found_a[Q], found_b[Q], found_c[Q], found_d[Q];

static int first_at_least(const double *a, int n, double u) {
  for (int i = 0; i < n; i++)
    if (a[i] >= u) return i;
  return n;
}

int main(void) {
  double total = 0;
  for (int i = 0; i < N; i++) {
    total += 1.0 + (i * 37 % 11);
    cdf[i] = total;
    key[i] = (i * 7919) % 1000;   /* unsorted: each key value several times */
  }
  for (int i = 0; i < N; i++) cdf[i] /= total;

  /* a team per search over the sorted CDF, thresholds spread over [0, 1.1): some above every entry */
#pragma omp target teams distribute thread_limit(128) map(to: cdf) map(from: found_a, found_b)
  for (int q = 0; q < Q; q++) {
    const double u = (q + 0.5) / Q * 1.1;
    int first = N, second = N;
#pragma omp parallel for reduction(min: first)
    for (int i = 0; i < N; i++)
      if (cdf[i] >= u && i < first) first = i;
#pragma omp parallel for reduction(min: second)
    for (int i = 0; i < N; i += 3)
      if (second > i && cdf[i] >= u) second = i;
    found_a[q] = first;
    found_b[q] = second;
  }
  int bad = 0;
  for (int q = 0; q < Q; q++) {
    const double u = (q + 0.5) / Q * 1.1;
    int second = N;
    for (int i = 0; i < N; i += 3)
      if (cdf[i] >= u) { second = i; break; }
    bad += found_a[q] != first_at_least(cdf, N, u);
    bad += found_b[q] != second;
  }
  printf("sorted searches: %d wrong\n", bad);

  /* unsorted keys: the first index of each value, under three schedules */
  bad = 0;
  for (int q = 0; q < Q; q++) {
    const int want = q * 25 + 3;
    int a = N, b = N, c = N;
#pragma omp target parallel for reduction(min: a) map(to: key) map(tofrom: a)
    for (int i = 0; i < N; i++)
      if (key[i] == want && i < a) a = i;
#pragma omp target parallel for reduction(min: b) schedule(dynamic, 7) map(to: key) map(tofrom: b)
    for (int i = 0; i < N; i++)
      if (i < b && key[i] == want) b = i;
#pragma omp target parallel for reduction(min: c) schedule(guided) map(to: key) map(tofrom: c)
    for (int i = 0; i < N; i++)
      if (key[i] == want && i < c) c = i;
    int expect = N;
    for (int i = 0; i < N; i++)
      if (key[i] == want) { expect = i; break; }
    found_c[q] = a;
    found_d[q] = expect;
    bad += (a != expect) + (b != expect) + (c != expect);
  }
  printf("unsorted searches: %d wrong\n", bad);
  int sum = 0;
  for (int q = 0; q < Q; q++) sum += found_a[q] + found_b[q] + found_c[q];
  printf("checksum %d\n", sum);
  return 0;
}
