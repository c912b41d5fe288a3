/* covers: the teams ICV routines of OpenMP 5.1 on the host: omp_set_num_teams and
   omp_get_max_teams, omp_set_teams_thread_limit and omp_get_teams_thread_limit (libgomp 11
   has none of them); a target teams region without clauses still runs (the device's own
   ICVs, which the host's routines do not set) */
#include <stdio.h>
#include <omp.h>

int main(void) {
  omp_set_num_teams(3);
  omp_set_teams_thread_limit(8);
  int ran = 0;
#pragma omp target teams map(tofrom: ran)
  if (omp_get_team_num() == 0) ran = omp_get_num_teams() > 0;
  printf("max teams %d teams thread limit %d target teams ran %d\n", omp_get_max_teams(), omp_get_teams_thread_limit(), ran);
  return 0;
}
