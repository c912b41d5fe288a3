/* covers: reductions over whole arrays and array sections: reduction(+: hist[0:B]) and reduction(+: moments) on target teams distribute parallel for, a section with a lower bound, a section whose length is known only at run time, a[:n] and a[lo:] forms, * min max on arrays, a 2-D array, a section of a mapped pointer, teams-level array reduction with a nested parallel for reduction, parallel for reduction inside a target region (generic and SPMD) */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define B 8
#define N 10000

int main(void) {
  int ok = 1;
  int hist[B];
  double moments[3] = {0.0, 0.0, 0.0};
  for (int b = 0; b < B; b++) hist[b] = 0;
#pragma omp target teams distribute parallel for reduction(+: hist[0:B]) map(tofrom: hist)
  for (int i = 0; i < N; i++) hist[i % B] += 1;
#pragma omp target teams distribute parallel for reduction(+: moments)
  for (int i = 0; i < N; i++) {
    moments[0] += 1.0;
    moments[1] += i;
    moments[2] += (double)i * i;
  }
  printf("hist %d %d %d moments %.0f %.0f %.0f\n", hist[0], hist[3], hist[7], moments[0], moments[1], moments[2]);
  for (int b = 0; b < B; b++) ok = ok && hist[b] == N / B;
  ok = ok && moments[0] == N && moments[1] == (double)N * (N - 1) / 2 && moments[2] == 333283335000.0;

  /* a section with a lower bound, one of run-time length, and the a[lo:] / a[:n] forms */
  int part[10], runtime[10], tail[6], head[6];
  int lo = 2, len = 5;
  for (int k = 0; k < 10; k++) part[k] = runtime[k] = 100;
  for (int k = 0; k < 6; k++) tail[k] = head[k] = 0;
#pragma omp target teams distribute parallel for reduction(+: part[2:4]) reduction(+: runtime[lo:len]) \
    reduction(+: tail[3:]) reduction(+: head[:3]) map(tofrom: part, runtime, tail, head)
  for (int i = 0; i < 1200; i++) {
    part[2 + i % 4] += 1;
    runtime[lo + i % len] += 2;
    tail[3 + i % 3] += 1;
    head[i % 3] += 3;
  }
  printf("part %d %d %d %d %d %d runtime %d %d %d tail %d %d head %d %d\n", part[1], part[2], part[3], part[4],
         part[5], part[6], runtime[1], runtime[2], runtime[6], tail[2], tail[5], head[0], head[3]);
  ok = ok && part[1] == 100 && part[2] == 400 && part[5] == 400 && part[6] == 100;
  ok = ok && runtime[1] == 100 && runtime[2] == 580 && runtime[6] == 580 && runtime[7] == 100;
  ok = ok && tail[2] == 0 && tail[3] == 400 && tail[5] == 400 && head[0] == 1200 && head[2] == 1200 && head[3] == 0;

  /* other operators, a 2-D array, a section of a mapped pointer */
  long prod[2] = {1, 1};
  int lo_hi[2] = {1000000, -1000000};
  int mn[3] = {1 << 30, 1 << 30, 1 << 30};
  int grid[4][4];
  for (int r = 0; r < 4; r++)
    for (int c = 0; c < 4; c++) grid[r][c] = r;
  double *p = malloc(4 * sizeof(double));
  for (int k = 0; k < 4; k++) p[k] = 0.5;
#pragma omp target teams distribute parallel for reduction(*: prod) reduction(max: lo_hi[1:1]) \
    reduction(min: mn) reduction(+: grid) reduction(+: p[0:4]) map(tofrom: p[0:4])
  for (int i = 0; i < 64; i++) {
    prod[i % 2] *= (i < 10) ? 2 : 1;
    if (i * 3 > lo_hi[1]) lo_hi[1] = i * 3;
    mn[i % 3] = (i + 5 < mn[i % 3]) ? i + 5 : mn[i % 3];
    grid[i % 4][(i / 4) % 4] += 1;
    p[i % 4] += 0.25;
  }
  int grid_ok = 1;
  for (int r = 0; r < 4; r++)
    for (int c = 0; c < 4; c++) grid_ok = grid_ok && grid[r][c] == r + 4;
  printf("prod %ld %ld max %d %d min %d %d %d grid %s p %.2f %.2f\n", prod[0], prod[1], lo_hi[0], lo_hi[1], mn[0],
         mn[1], mn[2], grid_ok ? "ok" : "BAD", p[0], p[3]);
  ok = ok && prod[0] == 32 && prod[1] == 32 && lo_hi[0] == 1000000 && lo_hi[1] == 189 && mn[0] == 5 && mn[1] == 6 &&
       mn[2] == 7 && grid_ok && p[0] == 4.5 && p[3] == 4.5;

  /* teams-level array reduction with a nested parallel for reduction, and a region inside target */
  int team_sum[4] = {0, 0, 0, 0};
  int inner[2] = {0, 0};
  long team_scalar = 0;
#pragma omp target teams num_teams(4) reduction(+: team_sum, team_scalar) map(tofrom: team_sum, team_scalar)
  {
    int t = omp_get_team_num() % 4;
#pragma omp parallel for reduction(+: team_sum[0:4], team_scalar)
    for (int i = 0; i < 100; i++) {
      team_sum[(t + i) % 4] += 1;
      team_scalar += 2;
    }
  }
#pragma omp target map(tofrom: inner)
  {
    int scale = 2;
#pragma omp parallel for reduction(+: inner)
    for (int i = 0; i < 50; i++) {
      inner[0] += scale;
      inner[1] += i;
    }
  }
  int teams_total = team_sum[0] + team_sum[1] + team_sum[2] + team_sum[3];
  printf("teams total %d (a multiple of 100: %s) inner %d %d\n", teams_total % 100 == 0 ? 100 : teams_total,
         teams_total % 100 == 0 && teams_total > 0 ? "yes" : "no", inner[0], inner[1]);
  ok = ok && teams_total % 100 == 0 && teams_total > 0 && inner[0] == 100 && inner[1] == 1225 &&
       team_scalar == 2 * teams_total;
  free(p);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return 0;
}
