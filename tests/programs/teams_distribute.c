/* covers: target teams num_teams thread_limit, distribute, dist_schedule(static) and dist_schedule(static, chunk), omp_get_team_num/omp_get_num_teams invariants, serial inner loops per distribute iteration, teams without distribute */
#include <stdio.h>
#include <omp.h>

#define N 1000
#define MAXT 64

int main(void) {
  int owner[N], count[N];
  int nteams_seen = -1;
  for (int i = 0; i < N; i++) {
    owner[i] = -1;
    count[i] = 0;
  }

  /* dist_schedule(static, 4): iteration i belongs to team (i / 4) % num_teams */
#pragma omp target teams distribute num_teams(8) thread_limit(64) dist_schedule(static, 4) map(tofrom: owner, count, nteams_seen)
  for (int i = 0; i < N; i++) {
    owner[i] = omp_get_team_num();
    count[i] += 1;
    if (i == 0) nteams_seen = omp_get_num_teams();
  }
  int once = 1, formula = 1;
  for (int i = 0; i < N; i++) {
    if (count[i] != 1) once = 0;
    if (owner[i] != (i / 4) % nteams_seen) formula = 0;
  }
  printf("chunked: each once=%d owner formula=%d teams in range=%d\n", once, formula,
         nteams_seen >= 1 && nteams_seen <= 8);

  /* dist_schedule(static): contiguous blocks, so owners never decrease */
  for (int i = 0; i < N; i++) count[i] = 0;
#pragma omp target teams distribute num_teams(6) dist_schedule(static) map(tofrom: owner, count)
  for (int i = 0; i < N; i++) {
    owner[i] = omp_get_team_num();
    count[i]++;
  }
  int mono = 1;
  once = 1;
  for (int i = 0; i < N; i++) {
    if (count[i] != 1) once = 0;
    if (i > 0 && owner[i] < owner[i - 1]) mono = 0;
  }
  printf("blocked: each once=%d monotone owners=%d first owner=%d\n", once, mono, owner[0]);

  /* teams region with per-team serial work, each team writes its own slot */
  int slot[MAXT];
  int nt = 0;
  for (int t = 0; t < MAXT; t++) slot[t] = -1;
#pragma omp target teams num_teams(16) map(tofrom: slot, nt)
  {
    int t = omp_get_team_num();
    int acc = 0;
    for (int k = 0; k <= t; k++) acc += k;
    slot[t] = acc;
    if (t == 0) nt = omp_get_num_teams();
  }
  int slots_ok = nt >= 1 && nt <= 16;
  for (int t = 0; t < MAXT; t++) {
    int want = t < nt ? t * (t + 1) / 2 : -1;
    if (slot[t] != want) slots_ok = 0;
  }
  printf("team slots ok=%d\n", slots_ok);

  /* distribute with a serial inner loop: row sums of a triangular matrix */
  long rows[200];
#pragma omp target teams distribute num_teams(32) map(from: rows)
  for (int r = 0; r < 200; r++) {
    long s = 0;
    for (int c = 0; c <= r; c++) s += (long)r * c + 1;
    rows[r] = s;
  }
  long tot = 0;
  int rows_ok = 1;
  for (int r = 0; r < 200; r++) {
    long want = (long)r * (r * (r + 1) / 2) + r + 1;
    if (rows[r] != want) rows_ok = 0;
    tot += rows[r];
  }
  printf("triangle rows ok=%d total=%ld\n", rows_ok, tot);
  printf("%s\n", once && formula && mono && slots_ok && rows_ok ? "PASS" : "FAIL");
  return 0;
}
