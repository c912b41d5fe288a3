/* clauses of teams and parallel: num_teams/thread_limit with constants, macros and expressions, num_threads expressions, proc_bind kinds, default kinds, allocate-free private lists, if on parallel, shared */
#include <stdio.h>

#define TEAMS 8
#define LIMIT 128

static int pick_threads(int n) { return n > 1000 ? 256 : 64; }

int main(void) {
  int n = 5000, nt = pick_threads(5000), teams = TEAMS * 2;
  double a[64] = {0};
  int counts[4] = {0};

#pragma omp target teams num_teams(TEAMS) thread_limit(LIMIT) map(tofrom: a)
  a[0] = 1.0;
#pragma omp target teams num_teams(teams) thread_limit(nt / 2) map(tofrom: a)
  a[1] = 1.0;
#pragma omp target teams num_teams((n + 255) / 256) thread_limit(256) default(shared) map(tofrom: a)
  a[2] = 1.0;
#pragma omp target teams distribute num_teams(4) thread_limit(64) private(nt) firstprivate(n) map(tofrom: a)
  for (int i = 0; i < 64; i++) {
    nt = i;
    a[i] += nt + n * 0;
  }
#pragma omp target map(tofrom: counts)
  {
#pragma omp parallel num_threads(nt) proc_bind(spread) shared(counts)
    {
#pragma omp atomic
      counts[0]++;
    }
#pragma omp parallel num_threads(4) proc_bind(close) default(none) shared(counts)
    {
#pragma omp atomic
      counts[1]++;
    }
#pragma omp parallel num_threads(n > 10 ? 8 : 1) proc_bind(master) if(n > 0)
    {
#pragma omp atomic
      counts[2]++;
    }
#pragma omp parallel proc_bind(primary) if(parallel: 0)
    {
#pragma omp atomic
      counts[3]++;
    }
  }
#pragma omp target teams distribute parallel for num_teams(TEAMS) thread_limit(LIMIT) num_threads(32) map(tofrom: a)
  for (int i = 0; i < 64; i++) a[i] *= 2.0;
  printf("%f %d %d %d %d\n", a[63], counts[0], counts[1], counts[2], counts[3]);
  return 0;
}
