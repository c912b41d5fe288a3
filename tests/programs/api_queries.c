/* covers: omp_get_thread_num, omp_get_num_threads, omp_get_team_num, omp_get_num_teams, omp_get_level, omp_get_active_level, omp_in_parallel, omp_is_initial_device, omp_get_max_threads used only in ways whose printed result does not depend on team sizes */
#include <stdio.h>
#include <omp.h>

#define MAXT 256

int main(void) {
  /* outside parallel in a target region: level 0, not in parallel, thread 0 of 1 */
  int lvl0 = -1, inpar0 = -1, tid0 = -1, nth0 = -1;
#pragma omp target map(from: lvl0, inpar0, tid0, nth0)
  {
    lvl0 = omp_get_level();
    inpar0 = omp_in_parallel();
    tid0 = omp_get_thread_num();
    nth0 = omp_get_num_threads();
  }
  printf("serial target: level=%d in_parallel=%d thread=%d num_threads=%d\n", lvl0, inpar0, tid0, nth0);

  /* inside parallel: the set of thread ids is exactly 0..nth-1 */
  int ids[MAXT];
  int nth = 0, lvl1 = -1, inpar_ok = 1;
  for (int t = 0; t < MAXT; t++) ids[t] = 0;
#pragma omp target parallel num_threads(32) map(tofrom: ids, nth, lvl1, inpar_ok)
  {
    int t = omp_get_thread_num();
    int n = omp_get_num_threads();
#pragma omp atomic
    ids[t] += 1;
    if (t == 0) {
      nth = n;
      lvl1 = omp_get_level();
    }
    if (omp_in_parallel() != (n > 1)) {
#pragma omp atomic write
      inpar_ok = 0;
    }
  }
  int ids_ok = nth >= 1 && nth <= 32;
  for (int t = 0; t < MAXT; t++)
    if (ids[t] != (t < nth ? 1 : 0)) ids_ok = 0;
  printf("parallel: ids exactly 0..n-1=%d level=%d in_parallel consistent=%d\n", ids_ok, lvl1, inpar_ok);

  /* teams: every team number in 0..num_teams-1 appears once */
  int tseen[64];
  int nteams = 0;
  for (int t = 0; t < 64; t++) tseen[t] = 0;
#pragma omp target teams num_teams(20) map(tofrom: tseen, nteams)
  {
    int t = omp_get_team_num();
    tseen[t] += 1;
    if (t == 0) nteams = omp_get_num_teams();
  }
  int teams_ok = nteams >= 1 && nteams <= 20;
  for (int t = 0; t < 64; t++)
    if (tseen[t] != (t < nteams ? 1 : 0)) teams_ok = 0;
  printf("teams: ids exactly 0..n-1=%d\n", teams_ok);

  /* per team, parallel region thread counts are consistent */
  int per_team_ok = 1;
#pragma omp target teams num_teams(4) thread_limit(64) map(tofrom: per_team_ok)
  {
    int team = omp_get_team_num();
    int count = 0;
#pragma omp parallel reduction(+: count)
    {
      count += 1;
      if (omp_get_team_num() != team || omp_get_num_threads() > 64) {
#pragma omp atomic write
        per_team_ok = 0;
      }
    }
    if (count < 1 || count > 64) per_team_ok = 0;
  }
  printf("teams+parallel: team numbers and sizes consistent=%d\n", per_team_ok);

  /* nested parallel: level 2 inside, ancestor is the outer thread */
  int lvl2 = -1, anc_ok = 1;
#pragma omp target parallel num_threads(4) map(tofrom: lvl2, anc_ok)
  {
    int outer = omp_get_thread_num();
#pragma omp parallel num_threads(2)
    {
      if (outer == 0 && omp_get_thread_num() == 0) lvl2 = omp_get_level();
      if (omp_get_ancestor_thread_num(1) != outer) {
#pragma omp atomic write
        anc_ok = 0;
      }
    }
  }
  printf("nested: level=%d ancestor ok=%d\n", lvl2, anc_ok);

  /* omp_is_initial_device: same answer for every thread of the region */
  int dev_votes = 0, host_votes = 0;
#pragma omp target teams distribute parallel for map(tofrom: dev_votes, host_votes)
  for (int i = 0; i < 1000; i++) {
    if (omp_is_initial_device()) {
#pragma omp atomic
      host_votes++;
    } else {
#pragma omp atomic
      dev_votes++;
    }
  }
  printf("is_initial_device unanimous=%d\n", (dev_votes == 1000 && host_votes == 0) || (dev_votes == 0 && host_votes == 1000));
  int pass = lvl0 == 0 && inpar0 == 0 && tid0 == 0 && nth0 == 1 && ids_ok && lvl1 == 1 && inpar_ok && teams_ok &&
             per_team_ok && lvl2 == 2 && anc_ok;
  printf("%s\n", pass ? "PASS" : "FAIL");
  return 0;
}
