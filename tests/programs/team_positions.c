/* covers: omp_get_thread_num() and omp_get_num_threads() in team-level parallel regions of SPMD
   kernels, where the compiler knows the team (codegen/device/printer.py team_position): the whole
   block, num_threads(N), a team below a warp (thread_limit(16)), a team striding a loop by them (each
   element counted once), and places where the runtime answers: a nested region (a team of one),
   a device function called from the region, generic mode (the same output) */
#include <omp.h>
#include <stdio.h>

#define TEAMS 6
#define N 3000

static int seen[TEAMS][256], sizes[TEAMS], hits[TEAMS][N], nested_sizes[TEAMS], called[TEAMS][256];

#pragma omp declare target
static int my_number(void) { return omp_get_thread_num(); }
#pragma omp end declare target

/* each team's threads 0..size-1 seen once each, none past them, its size at most `most` (a team
   may have fewer threads than its limit: OpenMP leaves the count to the implementation) */
static void summary(const char *what, int most) {
  long bad = 0;
  for (int t = 0; t < TEAMS; t++) {
    bad += sizes[t] < 1 || sizes[t] > most;
    for (int i = 0; i < 256; i++) bad += seen[t][i] != (i < sizes[t]);
  }
  printf("%s: %ld wrong\n", what, bad);
}

static void clear(void) {
  for (int t = 0; t < TEAMS; t++) {
    sizes[t] = -1;
    for (int i = 0; i < 256; i++) seen[t][i] = 0;
  }
}

int main(void) {
  /* the whole block */
  clear();
#pragma omp target teams distribute num_teams(TEAMS) thread_limit(128) map(tofrom: seen, sizes)
  for (int t = 0; t < TEAMS; t++) {
#pragma omp parallel
    {
      int me = omp_get_thread_num(), all = omp_get_num_threads();
#pragma omp atomic
      seen[t][me]++;
      if (me == 0) sizes[t] = all;
    }
  }
  summary("whole block", 128);

  /* num_threads(40): a partial warp */
  clear();
#pragma omp target teams distribute num_teams(TEAMS) thread_limit(128) map(tofrom: seen, sizes)
  for (int t = 0; t < TEAMS; t++) {
#pragma omp parallel num_threads(40)
    {
      int me = omp_get_thread_num();
#pragma omp atomic
      seen[t][me]++;
      if (me == 0) sizes[t] = omp_get_num_threads();
    }
  }
  summary("num_threads(40)", 40);

  /* a team below a warp: thread_limit(16) */
  clear();
#pragma omp target teams distribute num_teams(TEAMS) thread_limit(16) map(tofrom: seen, sizes)
  for (int t = 0; t < TEAMS; t++) {
#pragma omp parallel
    {
      int me = omp_get_thread_num();
#pragma omp atomic
      seen[t][me]++;
      if (me == 0) sizes[t] = omp_get_num_threads();
    }
  }
  /* generic mode too: its workers are a whole warp, of which the region takes 16 */
  summary("thread_limit(16)", 16);

  /* a loop strided by the team's size; a nested region; a device function */
  for (int t = 0; t < TEAMS; t++) {
    nested_sizes[t] = -1;
    for (int i = 0; i < N; i++) hits[t][i] = 0;
    for (int i = 0; i < 256; i++) called[t][i] = -1;
  }
#pragma omp target teams distribute num_teams(TEAMS) thread_limit(64) map(tofrom: hits, nested_sizes, called)
  for (int t = 0; t < TEAMS; t++) {
#pragma omp parallel
    {
      int me = omp_get_thread_num(), all = omp_get_num_threads();
      for (int i = me; i < N; i += all) hits[t][i]++;
      called[t][me] = my_number() == me;
#pragma omp parallel
      {
        if (me == 0) nested_sizes[t] = omp_get_num_threads() * 100 + omp_get_thread_num();
      }
    }
  }
  long bad = 0, calls = 0;
  for (int t = 0; t < TEAMS; t++) {
    for (int i = 0; i < N; i++) bad += hits[t][i] != 1;
    for (int i = 0; i < 64; i++) calls += called[t][i] != 1;
    bad += nested_sizes[t] != 100;
  }
  printf("strided loop and nested region: %ld wrong; device function: %ld wrong\n", bad, calls);
  printf("team_positions: done\n");
  return 0;
}
