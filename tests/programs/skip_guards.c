/* Distribute loops whose body opens with `if (C) continue;` (analysis/skip_guard.py): a lean
 * SPMD kernel's team tests C for as many iterations as it has threads at once and runs the
 * first that does not skip. The team's one thread would have tested C after each earlier
 * iteration of its chunk: here the bodies write what later iterations' tests read (mark[u + 1],
 * mark[u + 2]), so a test made too early, and kept, skips or runs the wrong iterations (a
 * template that kept the batch's tests gave 2000-2250 wrong a kernel). Teams of 32, 16 and 8
 * threads (packed, several a block), of 128 and of 100 (a block each), and a body that is one
 * `if (!C) { ... }`; the chunks are dist_schedule(static) blocks of a known size, so no body
 * writes a mark another team tests.
 * Each result is checked against the same loop run on the host. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#define N 6144
#define TEAMS 12
#define CHUNK (N / TEAMS)
#define INNER 40

static int mark[N], out[N], ref_mark[N], ref_out[N];
static double weight[N];
static int values[N * 2];

static int visit(int u) { return (u * 7 + 3) % 11; }

/* The loop every kernel runs, on the host: for the reference. */
static void host_loop(int *m, int *o, const int *vals) {
  for (int u = 0; u < N; u++) {
    if (m[u] != 0) continue;
    int sum = 0;
    for (int e = 0; e < INNER; e++) sum += vals[u + e] & 3;
    o[u] = sum + (u * 7 + 3) % 11;
    if ((u + 1) % CHUNK != 0 && sum % 3 == 0) m[u + 1] = 2;  /* skip the next iteration */
    if ((u + 2) % CHUNK > 1 && sum % 5 == 1) m[u + 2] = 0;   /* or un-skip the one after */
  }
}

static void reset(void) {
  for (int u = 0; u < N; u++) {
    mark[u] = (u % 4 == 1) || (u % 29 == 0);
    out[u] = -1;
    weight[u] = (u % 13) * 0.25;
  }
}

static int report(const char *what) {
  int wrong = 0, ran = 0;
  for (int u = 0; u < N; u++) {
    wrong += out[u] != ref_out[u] || mark[u] != ref_mark[u];
    ran += out[u] >= 0;
  }
  printf("%s: %d iterations ran, %d wrong\n", what, ran, wrong);
  return wrong;
}

int main(void) {
  int wrong = 0;
  int *m = mark, *o = out, *vals = values;
  double *w = weight;
  for (int i = 0; i < N * 2; i++) values[i] = (i * 2654435761u) >> 13;
  reset();
  memcpy(ref_mark, mark, sizeof mark);
  memcpy(ref_out, out, sizeof out);
  host_loop(ref_mark, ref_out, values);

  /* teams of one warp */
#pragma omp target teams distribute num_teams(TEAMS) thread_limit(32) dist_schedule(static) \
    map(tofrom: m[0:N], o[0:N]) map(to: vals[0:N * 2])
  for (int u = 0; u < N; u++) {
    if (m[u] != 0) continue;
    int sum = 0;
#pragma omp parallel for reduction(+: sum)
    for (int e = 0; e < INNER; e++) sum += vals[u + e] & 3;
    o[u] = sum + (u * 7 + 3) % 11;
    if ((u + 1) % CHUNK != 0 && sum % 3 == 0) m[u + 1] = 2;
    if ((u + 2) % CHUNK > 1 && sum % 5 == 1) m[u + 2] = 0;
  }
  wrong += report("32 threads");

  /* teams of 16 and of 8 threads (several a warp) */
  reset();
#pragma omp target teams distribute num_teams(TEAMS) thread_limit(16) dist_schedule(static) \
    map(tofrom: m[0:N], o[0:N]) map(to: vals[0:N * 2])
  for (int u = 0; u < N; u++) {
    if (m[u] != 0) continue;
    int sum = 0;
#pragma omp parallel for reduction(+: sum)
    for (int e = 0; e < INNER; e++) sum += vals[u + e] & 3;
    o[u] = sum + (u * 7 + 3) % 11;
    if ((u + 1) % CHUNK != 0 && sum % 3 == 0) m[u + 1] = 2;
    if ((u + 2) % CHUNK > 1 && sum % 5 == 1) m[u + 2] = 0;
  }
  wrong += report("16 threads");
  reset();
#pragma omp target teams distribute num_teams(TEAMS) thread_limit(8) dist_schedule(static) \
    map(tofrom: m[0:N], o[0:N]) map(to: vals[0:N * 2])
  for (int u = 0; u < N; u++) {
    if (m[u] != 0) continue;
    int sum = 0;
#pragma omp parallel for reduction(+: sum)
    for (int e = 0; e < INNER; e++) sum += vals[u + e] & 3;
    o[u] = sum + (u * 7 + 3) % 11;
    if ((u + 1) % CHUNK != 0 && sum % 3 == 0) m[u + 1] = 2;
    if ((u + 2) % CHUNK > 1 && sum % 5 == 1) m[u + 2] = 0;
  }
  wrong += report("8 threads");

  /* teams of a block: 128 threads, and 100 (a last warp of 4 threads) */
  for (int threads = 128; threads >= 100; threads -= 28) {
    reset();
#pragma omp target teams distribute num_teams(TEAMS) thread_limit(threads) dist_schedule(static) \
    map(tofrom: m[0:N], o[0:N]) map(to: vals[0:N * 2])
    for (int u = 0; u < N; u++) {
      if (m[u] != 0) continue;
      int sum = 0;
#pragma omp parallel for reduction(+: sum)
      for (int e = 0; e < INNER; e++) sum += vals[u + e] & 3;
      o[u] = sum + (u * 7 + 3) % 11;
      if ((u + 1) % CHUNK != 0 && sum % 3 == 0) m[u + 1] = 2;
      if ((u + 2) % CHUNK > 1 && sum % 5 == 1) m[u + 2] = 0;
    }
    wrong += report(threads == 128 ? "128 threads" : "100 threads");
  }

  /* a body that is one if: the iteration is skipped where its condition fails */
  reset();
#pragma omp target teams distribute num_teams(TEAMS) thread_limit(32) dist_schedule(static) \
    map(tofrom: m[0:N], o[0:N]) map(to: vals[0:N * 2])
  for (int u = 0; u < N; u++) {
    if (m[u] == 0) {
      int sum = 0;
#pragma omp parallel for reduction(+: sum)
      for (int e = 0; e < INNER; e++) sum += vals[u + e] & 3;
      o[u] = sum + (u * 7 + 3) % 11;
      if ((u + 1) % CHUNK != 0 && sum % 3 == 0) m[u + 1] = 2;
      if ((u + 2) % CHUNK > 1 && sum % 5 == 1) m[u + 2] = 0;
    }
  }
  wrong += report("one if");

  /* a test that calls a math function, and a braced continue; the loop runs backwards */
  reset();
  int kept = 0, ref_kept = 0;
  for (int u = N - 1; u >= 0; u -= 3)
    if (!(fabs(weight[u] - 1.5) < 0.3)) ref_kept += u % 7;
#pragma omp target teams distribute thread_limit(32) map(to: w[0:N]) map(tofrom: o[0:N])
  for (int u = N - 1; u >= 0; u -= 3) {
    if (fabs(w[u] - 1.5) < 0.3) {
      continue;
    }
    int part = 0;
#pragma omp parallel for reduction(+: part)
    for (int e = 0; e < 8; e++) part += e == 0 ? u % 7 : 0;
    o[u] = part;
  }
  for (int u = 0; u < N; u++) kept += out[u] > 0 ? out[u] : 0;
  printf("math test: %s\n", kept == ref_kept ? "same" : "different");
  wrong += kept != ref_kept;

  /* tests the team may not make ahead: a subscript read from memory, a user function */
  reset();
  int firsts = 0, ref_firsts = 0;
  for (int u = 0; u < N; u++)
    if (!(mark[values[u] % N] != 0) && !(visit(u) == 4)) ref_firsts++;
#pragma omp target teams distribute thread_limit(32) map(to: m[0:N], vals[0:N * 2]) map(tofrom: o[0:N])
  for (int u = 0; u < N; u++) {
    if (m[vals[u] % N] != 0 || visit(u) == 4) continue;
    int one = 0;
#pragma omp parallel for reduction(max: one)
    for (int e = 0; e < 4; e++) one = 1;
    o[u] = one;
  }
  for (int u = 0; u < N; u++) firsts += out[u] == 1;
  printf("other tests: %s\n", firsts == ref_firsts ? "same" : "different");
  wrong += firsts != ref_firsts;

  printf("%s\n", wrong ? "FAIL" : "PASS");
  return wrong != 0;
}
