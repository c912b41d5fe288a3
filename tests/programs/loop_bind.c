/* covers: the loop construct by the region it binds to (OpenMP 5.0): bind(thread) (every thread
   that meets it runs all the iterations), bind(parallel) inside a parallel region (the threads
   share them) and outside one (each team's one thread runs them all), bind(teams), no bind
   clause at team level and in a parallel region, the combined forms parallel loop, teams loop
   and target teams loop with a bind clause, with private, lastprivate and reduction clauses;
   order(concurrent) on for, simd, distribute, loop and their combined forms */
#include <stdio.h>
#include <omp.h>

#define NT 2
#define TH 32

int main(void) {
  int ok = 1;
  int per_thread[NT][TH], last_i[NT][TH], shared_hits[NT][64], team_runs[NT][40], teams_hits[100], plain[NT][50];
  for (int t = 0; t < NT; t++)
    for (int i = 0; i < 64; i++) shared_hits[t][i] = 0;
  for (int i = 0; i < 100; i++) teams_hits[i] = 0;
#pragma omp target teams num_teams(NT) thread_limit(TH) map(tofrom: per_thread, last_i, shared_hits, team_runs, teams_hits, plain)
  {
    int t = omp_get_team_num();
    /* bind(parallel) outside a parallel region: this team's one thread runs every iteration */
#pragma omp loop bind(parallel)
    for (int i = 0; i < 40; i++) team_runs[t][i] = t + 1;
#pragma omp parallel num_threads(TH)
    {
      int me = omp_get_thread_num();
      int sum = 0, i = -1;
#pragma omp loop bind(thread) reduction(+: sum) lastprivate(i)
      for (i = 0; i < 10; i++) sum += i;
      per_thread[t][me] = sum;
      last_i[t][me] = i;
#pragma omp loop bind(parallel)
      for (int k = 0; k < 64; k++) shared_hits[t][k] += 1;
#pragma omp loop
      for (int k = 0; k < 50; k++) plain[t][k] = k;
    }
#pragma omp loop bind(teams) order(concurrent)
    for (int i = 0; i < 100; i++) teams_hits[i] += 1;
  }
  for (int t = 0; t < NT; t++) {
    for (int m = 0; m < TH; m++) ok &= per_thread[t][m] == 45 && last_i[t][m] == 10;
    for (int k = 0; k < 64; k++) ok &= shared_hits[t][k] == 1;
    for (int k = 0; k < 40; k++) ok &= team_runs[t][k] == t + 1;
    for (int k = 0; k < 50; k++) ok &= plain[t][k] == k;
  }
  for (int i = 0; i < 100; i++) ok &= teams_hits[i] == 1;
  printf("loop in teams and parallel regions: %s (thread 5 of team 1: sum %d, i %d; team 1's last mark %d)\n",
         ok ? "ok" : "WRONG", per_thread[1][5], last_i[1][5], team_runs[1][39]);

  /* combined forms */
  int per_threads = 0, per_teams = 0, grid[256];
#pragma omp target parallel loop bind(thread) num_threads(16) reduction(+: per_threads) map(tofrom: per_threads)
  for (int i = 0; i < 16; i++) per_threads += 1;
#pragma omp target teams loop bind(parallel) num_teams(8) reduction(+: per_teams) map(tofrom: per_teams)
  for (int i = 0; i < 16; i++) per_teams += 1;
#pragma omp target teams loop map(from: grid)
  for (int i = 0; i < 256; i++) grid[i] = 2 * i;
  int okc = per_threads == 16 * 16 && per_teams == 8 * 16;
  for (int i = 0; i < 256; i++) okc &= grid[i] == 2 * i;
  printf("combined: %s (parallel loop bind(thread): %d iterations run; teams loop bind(parallel): %d)\n",
         okc ? "ok" : "WRONG", per_threads, per_teams);

  /* order(concurrent) on every construct that takes it */
  double a[512], b[512];
  for (int i = 0; i < 512; i++) { a[i] = i; b[i] = 0; }
#pragma omp target teams distribute parallel for order(concurrent) map(to: a) map(from: b)
  for (int i = 0; i < 512; i++) b[i] = a[i] * 2;
#pragma omp target teams distribute order(concurrent) map(tofrom: b)
  for (int i = 0; i < 512; i++) b[i] += 1;
#pragma omp target parallel for simd order(concurrent) map(tofrom: b)
  for (int i = 0; i < 512; i++) b[i] += 1;
#pragma omp target map(tofrom: b)
  {
#pragma omp parallel for order(reproducible: concurrent)
    for (int i = 0; i < 512; i++) b[i] -= 1;
#pragma omp simd order(concurrent)
    for (int i = 0; i < 512; i++) b[i] -= 1;
  }
  int oko = 1;
  for (int i = 0; i < 512; i++) oko &= b[i] == 2.0 * i;
  printf("order(concurrent): %s\n", oko ? "ok" : "WRONG");
  return 0;
}
