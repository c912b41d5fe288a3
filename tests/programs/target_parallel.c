/* covers: target parallel with num_threads and if clauses, parallel if(0) inside target (team of one), default(none) with shared/firstprivate/private lists, default(shared), shared clause, proc_bind (accepted, no effect on results), parallel inside target teams with num_threads below thread_limit, per-thread slots indexed by omp_get_thread_num */
#include <stdio.h>
#include <omp.h>

#define MAXT 128

int main(void) {
  int slot[MAXT];
  int nth = 0;
  for (int t = 0; t < MAXT; t++) slot[t] = -1;
  int base = 1000;

#pragma omp target parallel num_threads(48) default(none) shared(slot, nth) firstprivate(base) map(tofrom: slot, nth)
  {
    int t = omp_get_thread_num();
    slot[t] = base + t;
    if (t == 0) nth = omp_get_num_threads();
  }
  int ok1 = nth >= 1 && nth <= 48;
  for (int t = 0; t < MAXT; t++)
    if (slot[t] != (t < nth ? 1000 + t : -1)) ok1 = 0;
  printf("target parallel num_threads(48): slots ok=%d\n", ok1);

  /* if(0) on parallel: a team of one thread */
  int one = 0, inpar = -1;
#pragma omp target map(tofrom: one, inpar)
#pragma omp parallel if(0) num_threads(32)
  {
#pragma omp atomic
    one += 1;
    inpar = omp_in_parallel();
  }
  printf("parallel if(0): threads=%d in_parallel=%d\n", one, inpar);

  /* target parallel if(parallel: cond) */
  int cnt = 0, cond = 0;
#pragma omp target parallel if(parallel: cond) map(tofrom: cnt)
  {
#pragma omp atomic
    cnt++;
  }
  printf("target parallel if(parallel: 0): threads=%d\n", cnt);

  /* private, shared, default(shared), proc_bind */
  int shared_sum = 0;
  int scratch = 5;
#pragma omp target map(tofrom: shared_sum)
#pragma omp parallel num_threads(16) default(shared) private(scratch) proc_bind(close)
  {
    scratch = omp_get_thread_num() + 1;
#pragma omp atomic
    shared_sum += scratch - omp_get_thread_num();
  }
  printf("private/default(shared): each thread contributed one=%d scratch=%d\n", shared_sum >= 1 && shared_sum <= 16,
         scratch);

  /* parallel inside teams with num_threads, per-team partial results */
  long team_out[8];
  int nteams = 0;
  for (int t = 0; t < 8; t++) team_out[t] = -1;
#pragma omp target teams num_teams(8) thread_limit(96) map(tofrom: team_out, nteams)
  {
    long acc = 0;
#pragma omp parallel num_threads(64) shared(acc)
    {
#pragma omp for reduction(+: acc)
      for (int i = 0; i < 640; i++) acc += i % 10;
    }
    team_out[omp_get_team_num()] = acc;
    if (omp_get_team_num() == 0) nteams = omp_get_num_teams();
  }
  int ok5 = nteams >= 1 && nteams <= 8;
  for (int t = 0; t < 8; t++)
    if (team_out[t] != (t < nteams ? 2880 : -1)) ok5 = 0;
  printf("teams + parallel num_threads: per-team results ok=%d\n", ok5);
  printf("%s\n", ok1 && one == 1 && inpar == 0 && cnt == 1 && scratch == 5 && ok5 ? "PASS" : "FAIL");
  return 0;
}
