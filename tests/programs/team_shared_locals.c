/* covers: an atomic update in serial code (thread 0 alone in SPMD mode); serial locals of a teams region that parallel regions write or reduce into (scalars, a constant-size array, an array with an initializer, a pointer), declared in a distribute loop body and re-initialized each iteration; serial code reading them after the regions; if statements with side effects in their branches (thread 0 alone in SPMD mode); a pure user function called from serial code; a const local the regions read; regions with num_threads; results written per team */
#include <stdio.h>
#include <omp.h>

#define NB 40
#define M 24

static int clamp_index(int v, int hi) {
  int o = v;
  if (o > hi) o = hi;
  if (o < 0) o = 0;
  return o;
}

int main(void) {
  static double data[NB * 100];
  static double mean[NB], spread[NB];
  static int count[NB], pick[NB], firsts[NB], small[NB];
  int busy = 0;
  for (int i = 0; i < NB * 100; i++) data[i] = (double)((i * 37) % 101) - 50.0;

#pragma omp target teams distribute thread_limit(96) map(to: data) map(from: mean, spread, count, pick, firsts, small) map(tofrom: busy)
  for (int b = 0; b < NB; b++) {
    double sum = 0, lo = 1e300, hi = -1e300;
    int cnt = 0;
    double row[M];
    int weights[4] = {1, 2, 3, 4};
    const int base = b * 100;
    const double *src = data + base;
    int *first_negative = 0;
#pragma omp parallel for
    for (int j = 0; j < M; j++) row[j] = src[j] * weights[j % 4];
#pragma omp parallel for reduction(+: sum, cnt) reduction(min: lo) reduction(max: hi) num_threads(40)
    for (int i = 0; i < 100; i++) {
      if (data[base + i] > 0) {
        sum += data[base + i];
        cnt++;
      }
      if (data[base + i] < lo) lo = data[base + i];
      if (data[base + i] > hi) hi = data[base + i];
    }
#pragma omp parallel
    {
#pragma omp single
      for (int j = 0; j < M; j++)
        if (row[j] < 0) {
          first_negative = &firsts[b];
          *first_negative = j;
          break;
        }
    }
    int k = clamp_index(cnt - 30, M - 1);
    if (cnt > 0) {
      mean[b] = sum / cnt;
    } else {
      mean[b] = 0;
    }
    spread[b] = hi - lo;
    if (cnt > 45) {
#pragma omp atomic
      busy += 1;
    }
    count[b] = cnt;
    pick[b] = (int)row[k];
    if (first_negative == 0) firsts[b] = -1;
    small[b] = 0;
    for (int j = 0; j < M; j++)
      if (row[j] > -10 && row[j] < 10) small[b] += 1;
  }

  /* serial reference */
  int ok = 1;
  for (int b = 0; b < NB; b++) {
    double sum = 0, lo = 1e300, hi = -1e300, row[M];
    int cnt = 0, f = -1, sm = 0;
    const int w[4] = {1, 2, 3, 4};
    for (int j = 0; j < M; j++) row[j] = data[b * 100 + j] * w[j % 4];
    for (int i = 0; i < 100; i++) {
      double v = data[b * 100 + i];
      if (v > 0) {
        sum += v;
        cnt++;
      }
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    for (int j = 0; j < M; j++)
      if (row[j] < 0) {
        f = j;
        break;
      }
    for (int j = 0; j < M; j++) sm += row[j] > -10 && row[j] < 10;
    const int k = clamp_index(cnt - 30, M - 1);
    const int good = count[b] == cnt && mean[b] == (cnt ? sum / cnt : 0) && spread[b] == hi - lo && pick[b] == (int)row[k] &&
                     firsts[b] == f && small[b] == sm;
    if (!good) {
      ok = 0;
      printf("block %d: count %d/%d mean %g/%g spread %g/%g pick %d/%d first %d/%d small %d/%d\n", b, count[b], cnt, mean[b],
             cnt ? sum / cnt : 0, spread[b], hi - lo, pick[b], (int)row[k], firsts[b], f, small[b], sm);
    }
  }
  int busy_ref = 0;
  for (int b = 0; b < NB; b++) busy_ref += count[b] > 45;
  if (busy != busy_ref) ok = 0;
  printf("blocks with more than 45 positives: %d\n", busy);
  long long total = 0;
  for (int b = 0; b < NB; b++) total += count[b] * 1000LL + pick[b] + firsts[b] + small[b];
  printf("blocks %d, checksum %lld\n", NB, total);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
