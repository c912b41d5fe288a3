/* covers: parallel num_threads(n) with n different from the team size and not a multiple of 32 (7, 33, 40, 96, 100), in kernels that run SPMD and in generic ones: exactly n threads, with single, master, critical, barrier, atomic, a worksharing loop and sections inside; combined target parallel num_threads; thread_limit larger than n */
#include <stdio.h>
#include <omp.h>

#define NR 5
static const int sizes[NR] = {40, 7, 33, 96, 100};

int main(void) {
  int ok = 1;
  /* SPMD-shaped: no serial local shared with the region; results through mapped arrays */
  int got[2][NR][7];
  int req[NR];
  for (int r = 0; r < NR; r++) req[r] = sizes[r];
#pragma omp target teams num_teams(2) thread_limit(128) map(from: got) map(to: req)
  {
    int team = omp_get_team_num();
    for (int r = 0; r < NR; r++) {
      int *g = got[team][r];
      g[0] = g[1] = g[2] = g[3] = g[4] = g[5] = g[6] = 0;
#pragma omp parallel num_threads(req[r])
      {
        int n = omp_get_num_threads();
#pragma omp atomic
        g[0] += 1;
#pragma omp single
        g[1] += 1;
#pragma omp master
        g[2] += n;
#pragma omp critical
        g[3] += 1;
#pragma omp barrier
        if (omp_get_thread_num() == n - 1) g[4] = g[0]; /* every thread counted before the barrier */
#pragma omp for
        for (int i = 0; i < 1000; i++) {
#pragma omp atomic
          g[5] += i % 7;
        }
#pragma omp sections
        {
#pragma omp section
          {
#pragma omp atomic
            g[6] += 1;
          }
#pragma omp section
          {
#pragma omp atomic
            g[6] += 10;
          }
        }
      }
    }
  }
  int ref = 0;
  for (int i = 0; i < 1000; i++) ref += i % 7;
  for (int t = 0; t < 2; t++)
    for (int r = 0; r < NR; r++) {
      int *g = got[t][r], n = sizes[r];
      int good = g[0] == n && g[1] == 1 && g[2] == n && g[3] == n && g[4] == n && g[5] == ref && g[6] == 11;
      if (t == 0) printf("teams, num_threads(%d): threads %d single %d master saw %d critical %d after barrier %d loop %s sections %d\n",
                         n, g[0], g[1], g[2], g[3], g[4], g[5] == ref ? "ok" : "BAD", g[6]);
      ok = ok && good;
    }

  /* generic-shaped: serial locals shared with the region */
  for (int r = 0; r < NR; r++) {
    int n = sizes[r], cnt = 0, singles = 0, crit = 0, after = 0, nth = -1;
#pragma omp target map(tofrom: cnt, singles, crit, after, nth) thread_limit(160)
    {
      int local_cnt = 0;
#pragma omp parallel num_threads(n)
      {
#pragma omp atomic
        local_cnt++;
#pragma omp single
        {
          singles++;
          nth = omp_get_num_threads();
        }
#pragma omp critical
        crit++;
#pragma omp barrier
#pragma omp atomic
        after += (local_cnt == n);
      }
      cnt = local_cnt;
    }
    printf("target, num_threads(%d): threads %d single %d team %d critical %d all-arrived %d\n", n, cnt, singles, nth,
           crit, after);
    ok = ok && cnt == n && singles == 1 && nth == n && crit == n && after == n;
  }

  /* combined construct */
  int combined = 0;
#pragma omp target parallel num_threads(40) map(tofrom: combined)
  {
#pragma omp atomic
    combined++;
#pragma omp barrier
  }
  printf("target parallel num_threads(40): %d threads\n", combined);
  ok = ok && combined == 40;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return 0;
}
