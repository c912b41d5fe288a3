/* covers: target teams distribute parallel for, collapse(2) over tiles with constant-trip inner loops (blocks of consecutive tiles per thread), reduction and lastprivate over tiles, a tiled loop with fewer tiles than threads */
#include <stdio.h>
#include <stdlib.h>

#define N 240
#define T 16

int main(void) {
  static double a[N * N], b[N * N];
  int ok = 1;
  for (int i = 0; i < N * N; i++) {
    a[i] = (double)(i % 977);
    b[i] = 0.0;
  }

  /* 1. tiled transpose-add, twice: every element exactly once per sweep */
  for (int sweep = 0; sweep < 2; sweep++) {
#pragma omp target teams distribute parallel for collapse(2) map(to: a) map(tofrom: b)
    for (int it = 0; it < N; it += T)
      for (int jt = 0; jt < N; jt += T)
        for (int i = it; i < it + T; i++)
          for (int j = jt; j < jt + T; j++) b[(long)j * N + i] += a[(long)i * N + j];
  }
  long bad = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) bad += b[(long)j * N + i] != 2.0 * a[(long)i * N + j];
  printf("tiled transpose %dx%d, tiles %dx%d: %ld wrong elements\n", N, N, T, T, bad);
  ok &= bad == 0;

  /* 2. a reduction and a lastprivate over tiles */
  double total = 0.0;
  int last_tile = -1;
#pragma omp target teams distribute parallel for collapse(2) map(to: a) reduction(+: total) lastprivate(last_tile)
  for (int it = 0; it < N; it += T)
    for (int jt = 0; jt < N; jt += T) {
      double s = 0.0;
      for (int i = it; i < it + T; i++)
        for (int j = jt; j < jt + T; j++) s += a[(long)i * N + j];
      total += s;
      last_tile = (it / T) * (N / T) + jt / T;
    }
  double expect = 0.0;
  for (int i = 0; i < N * N; i++) expect += a[i];
  printf("sum over tiles %.1f (expected %.1f), last tile %d\n", total, expect, last_tile);
  ok &= total == expect && last_tile == (N / T) * (N / T) - 1;

  /* 3. fewer tiles than threads: a 2 x 2 grid of tiles */
  static int c[2 * T * 2 * T];
#pragma omp target teams distribute parallel for collapse(2) map(from: c)
  for (int it = 0; it < 2 * T; it += T)
    for (int jt = 0; jt < 2 * T; jt += T)
      for (int i = it; i < it + T; i++)
        for (int j = jt; j < jt + T; j++) c[i * 2 * T + j] = i * 1000 + j;
  long wrong = 0;
  for (int i = 0; i < 2 * T; i++)
    for (int j = 0; j < 2 * T; j++) wrong += c[i * 2 * T + j] != i * 1000 + j;
  printf("small tile grid: %ld wrong elements\n", wrong);
  ok &= wrong == 0;

  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
