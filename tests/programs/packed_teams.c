/* covers: lean SPMD kernels with one-warp teams (thread_limit(32)) run as packed teams, several per block: teams distribute with dist_schedule(static) and (static, 3), num_teams not a multiple of the packing and num_teams(1), continue in the distribute loop, guarded serial stores, parallel for (plain, schedule(static, 2), collapse(2), nowait), barrier, single and master in a region, atomics */
#include <stdio.h>

#define N 1000
#define W 40

static int a[N][W], b[N], owner_hits[N], chunk_hits[N], counts[N], sums[N];

int main(void) {
  for (int i = 0; i < N; i++) {
    b[i] = i % 7;
    owner_hits[i] = 0;
    chunk_hits[i] = 0;
    counts[i] = 0;
    sums[i] = 0;
    for (int j = 0; j < W; j++) a[i][j] = i + j;
  }
  int total = 0;

  /* every row once, by some team: rows with b[i] == 0 are skipped (continue) */
#pragma omp target teams distribute thread_limit(32) num_teams(7) map(tofrom: a, owner_hits, total) map(to: b)
  for (int i = 0; i < N; i++) {
    if (b[i] == 0) continue;
    const int scale = b[i];
    owner_hits[i] += 1; /* serial store: one thread of the team */
#pragma omp parallel for
    for (int j = 0; j < W; j++) a[i][j] *= scale;
#pragma omp parallel for schedule(static, 2)
    for (int j = 0; j < W; j++) {
#pragma omp atomic
      total += 1;
    }
  }

  /* dist_schedule(static, 3), the default team count; a barrier, single and master in a region */
#pragma omp target teams distribute dist_schedule(static, 3) thread_limit(32) map(tofrom: chunk_hits, counts, sums)
  for (int i = 0; i < N; i++) {
    chunk_hits[i] += 1;
#pragma omp parallel
    {
#pragma omp for nowait
      for (int j = 0; j < 64; j++) {
#pragma omp atomic
        counts[i] += 1;
      }
#pragma omp barrier
#pragma omp single
      sums[i] += counts[i];
#pragma omp master
      sums[i] += 1000;
    }
  }

  /* one team: a collapse(2) loop over the whole array */
  int grid = 0;
#pragma omp target teams distribute thread_limit(32) num_teams(1) map(tofrom: grid)
  for (int r = 0; r < 1; r++) {
#pragma omp parallel for collapse(2) reduction(+: grid)
    for (int i = 0; i < 50; i++)
      for (int j = 0; j < 30; j++) grid += i * j;
  }

  int rows_ok = 1, hits_ok = 1, loops_ok = 1;
  for (int i = 0; i < N; i++) {
    const int scale = i % 7;
    if (owner_hits[i] != (scale == 0 ? 0 : 1)) hits_ok = 0;
    for (int j = 0; j < W; j++)
      if (a[i][j] != (i + j) * (scale == 0 ? 1 : scale)) rows_ok = 0;
    if (chunk_hits[i] != 1 || counts[i] != 64 || sums[i] != 1064) loops_ok = 0;
  }
  int expected_total = 0;
  for (int i = 0; i < N; i++)
    if (i % 7 != 0) expected_total += W;
  printf("rows scaled=%d each row once=%d atomics=%d (expected %d)\n", rows_ok, hits_ok, total, expected_total);
  printf("chunked distribute: each row once, 64 iterations, single and master once=%d\n", loops_ok);
  printf("collapse(2) reduction in one team: %d\n", grid);
  printf("%s\n", rows_ok && hits_ok && loops_ok && total == expected_total && grid == 1225 * 435 ? "PASS" : "FAIL");
  return 0;
}
