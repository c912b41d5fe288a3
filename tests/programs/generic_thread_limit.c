/* covers: thread_limit on teams whose parallel regions the master forks (generic mode: the team's
   serial code calls a function that writes memory): a constant limit below a warp (16), one between
   warps (40), one known only at run time (20), and OMP_TEAMS_THREAD_LIMIT's absence; num_threads above
   and below the limit. Each region's team is at most the limit (its threads 0..n-1, each once),
   omp_get_thread_limit() is the limit, and per-thread slots sized by the limit are never overrun
   (a generic team's workers are whole warps: a region must not take all of them) */
#include <omp.h>
#include <stdio.h>

#define TEAMS 4
#define GUARD 64

static int slots[TEAMS][3][GUARD + 64], sizes[TEAMS][3], limits[TEAMS], visits[TEAMS];

#pragma omp declare target
/* not pure: keeps the team's serial code on its master (generic mode) */
static void visit(int *count) { (*count)++; }
#pragma omp end declare target

static void clear(void) {
  for (int t = 0; t < TEAMS; t++) {
    limits[t] = -1;
    visits[t] = 0;
    for (int r = 0; r < 3; r++) {
      sizes[t][r] = -1;
      for (int i = 0; i < GUARD + 64; i++) slots[t][r][i] = 0;
    }
  }
}

/* region r of every team: threads 0..size-1 once each, none past them, size in [1, most] */
static void check(const char *what, int limit, const int most[3]) {
  long bad_size = 0, bad_slots = 0, bad_limit = 0, bad_visits = 0;
  for (int t = 0; t < TEAMS; t++) {
    bad_limit += limits[t] != limit;
    bad_visits += visits[t] != 1;
    for (int r = 0; r < 3; r++) {
      bad_size += sizes[t][r] < 1 || sizes[t][r] > most[r];
      for (int i = 0; i < GUARD + 64; i++) bad_slots += slots[t][r][i] != (i < sizes[t][r]);
    }
  }
  printf("%s: team sizes %s, thread slots %s, omp_get_thread_limit %s, serial code %s\n", what,
         bad_size ? "WRONG" : "ok", bad_slots ? "WRONG" : "ok", bad_limit ? "WRONG" : "ok",
         bad_visits ? "WRONG" : "ok");
}

#define TEAM_BODY                                                  \
  {                                                                \
    visit(&visits[t]);                                             \
    limits[t] = omp_get_thread_limit();                            \
    _Pragma("omp parallel")                                        \
    {                                                              \
      int me = omp_get_thread_num();                               \
      _Pragma("omp atomic")                                        \
      slots[t][0][me]++;                                           \
      if (me == 0) sizes[t][0] = omp_get_num_threads();            \
    }                                                              \
    _Pragma("omp parallel num_threads(64)")                        \
    {                                                              \
      int me = omp_get_thread_num();                               \
      _Pragma("omp atomic")                                        \
      slots[t][1][me]++;                                           \
      if (me == 0) sizes[t][1] = omp_get_num_threads();            \
    }                                                              \
    _Pragma("omp parallel num_threads(3)")                         \
    {                                                              \
      int me = omp_get_thread_num();                               \
      _Pragma("omp atomic")                                        \
      slots[t][2][me]++;                                           \
      if (me == 0) sizes[t][2] = omp_get_num_threads();            \
    }                                                              \
  }

int main(void) {
  clear();
#pragma omp target teams distribute num_teams(TEAMS) thread_limit(16) map(tofrom: slots, sizes, limits, visits)
  for (int t = 0; t < TEAMS; t++) TEAM_BODY
  check("thread_limit(16)", 16, (const int[3]){16, 16, 3});

  clear();
#pragma omp target teams distribute num_teams(TEAMS) thread_limit(40) map(tofrom: slots, sizes, limits, visits)
  for (int t = 0; t < TEAMS; t++) TEAM_BODY
  check("thread_limit(40)", 40, (const int[3]){40, 40, 3});

  int limit = 20;
  clear();
#pragma omp target teams distribute num_teams(TEAMS) thread_limit(limit) map(tofrom: slots, sizes, limits, visits)
  for (int t = 0; t < TEAMS; t++) TEAM_BODY
  check("thread_limit(limit), limit = 20", 20, (const int[3]){20, 20, 3});

  printf("generic_thread_limit: done\n");
  return 0;
}
