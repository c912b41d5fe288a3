/* EPCC-style OpenMP offload overhead kernels (syncbench + schedbench, after J. M. Bull 1999),
 * one target region (one team: no teams construct) per measurement. Built by every OpenMP variant (ompgpu,
 * clang 19, gcc 12) from this one source, so all variants time the same code.
 *
 * This program is a thin executor: the Python runner (epcc_bench/runner.py) owns the method
 * (delay calibration, innerreps doubling, outer repetitions, statistics). It talks to this
 * program over stdin/stdout, one command per line, so that the GPU is initialised once:
 *
 *   probe T                          -> "ok <threads a parallel region really got>"
 *   run NAME T REPS DELAY ITERS CHUNK -> "ok <seconds> <constructs> <check> <expected>"
 *                                        or "err <why>"
 *   quit
 *
 * -DEPCC_NO_CRITICAL leaves the critical test out (clang 19's NVPTX device runtime has no
 * definition of impl::setCriticalLock, so ptxas cannot link a program that uses critical);
 * `run critical ...` then answers "err unknown test".
 *
 * <seconds> is measured on the device with omp_get_wtime() around the timed loop inside the
 * target region (globaltimer on all three runtimes), except for the target_* tests, which are
 * timed on the host around the target constructs (end to end). <constructs> is the number of
 * construct instances on the critical path: the runner divides the time by it. <check> is
 * what the test counted (critical/lock sections, atomic additions, reduction sum, single and
 * master executions, loop iterations) and <expected> what a correct runtime gives; the runner
 * reports a mismatch as a wrong answer instead of a time. Tests that count nothing print 0 0.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#pragma omp declare target
float epcc_delay_sink;
/* EPCC's delay: a chain of dependent float additions (no fast-math, so it cannot be
 * reassociated or vectorised); the sink keeps the result live. */
void epcc_delay(int length) {
  float a = 0.0f;
  for (int i = 0; i < length; i++) a += (float)i;
  if (a < 0.0f) epcc_delay_sink = a;
}
#pragma omp end declare target

static double host_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* res[0] = seconds, res[1] = constructs on the critical path, res[2] = check, res[3] = expected */

static void t_reference(int nthr, int reps, int dl, double *res) {
  (void)nthr;
#pragma omp target thread_limit(32) map(tofrom: res[0:4])
  {
    double t0 = omp_get_wtime();
    for (int j = 0; j < reps; j++) epcc_delay(dl);
    res[0] = omp_get_wtime() - t0;
    res[1] = reps;
  }
}

static void t_parallel(int nthr, int reps, int dl, double *res) {
#pragma omp target thread_limit(nthr) map(tofrom: res[0:4])
  {
    double t0 = omp_get_wtime();
    for (int j = 0; j < reps; j++) {
#pragma omp parallel num_threads(nthr)
      epcc_delay(dl);
    }
    res[0] = omp_get_wtime() - t0;
    res[1] = reps;
  }
}

static void t_for(int nthr, int reps, int dl, double *res) {
#pragma omp target thread_limit(nthr) map(tofrom: res[0:4])
  {
    int done = 0, expected = 0;
    double t0 = omp_get_wtime();
#pragma omp parallel num_threads(nthr)
    {
      int n = omp_get_num_threads(), mine = 0;
      for (int j = 0; j < reps; j++) {
#pragma omp for
        for (int i = 0; i < n; i++) {
          epcc_delay(dl);
          mine++;
        }
      }
#pragma omp atomic
      done += mine;
      if (omp_get_thread_num() == 0) expected = reps * n;
    }
    res[0] = omp_get_wtime() - t0;
    res[1] = reps;
    res[2] = done;
    res[3] = expected;
  }
}

static void t_parallel_for(int nthr, int reps, int dl, double *res) {
#pragma omp target thread_limit(nthr) map(tofrom: res[0:4])
  {
    double t0 = omp_get_wtime();
    for (int j = 0; j < reps; j++) {
#pragma omp parallel for num_threads(nthr)
      for (int i = 0; i < nthr; i++) epcc_delay(dl);
    }
    res[0] = omp_get_wtime() - t0;
    res[1] = reps;
  }
}

static void t_barrier(int nthr, int reps, int dl, double *res) {
#pragma omp target thread_limit(nthr) map(tofrom: res[0:4])
  {
    double t0 = omp_get_wtime();
#pragma omp parallel num_threads(nthr)
    {
      for (int j = 0; j < reps; j++) {
        epcc_delay(dl);
#pragma omp barrier
      }
    }
    res[0] = omp_get_wtime() - t0;
    res[1] = reps;
  }
}

static void t_single(int nthr, int reps, int dl, double *res) {
#pragma omp target thread_limit(nthr) map(tofrom: res[0:4])
  {
    int count = 0;
    double t0 = omp_get_wtime();
#pragma omp parallel num_threads(nthr)
    {
      for (int j = 0; j < reps; j++) {
#pragma omp single
        {
          epcc_delay(dl);
          count++;
        }
      }
    }
    res[0] = omp_get_wtime() - t0;
    res[1] = reps;
    res[2] = count;
    res[3] = reps;
  }
}

static void t_master(int nthr, int reps, int dl, double *res) {
#pragma omp target thread_limit(nthr) map(tofrom: res[0:4])
  {
    int count = 0;
    double t0 = omp_get_wtime();
#pragma omp parallel num_threads(nthr)
    {
      for (int j = 0; j < reps; j++) {
#pragma omp master
        {
          epcc_delay(dl);
          count++;
        }
      }
    }
    res[0] = omp_get_wtime() - t0;
    res[1] = reps;
    res[2] = count;
    res[3] = reps;
  }
}

/* critical, lock, atomic: innerreps constructs in all, shared out among the threads, as in
 * EPCC; every thread does reps / nthreads of them (the real team size, not the request). */
#ifndef EPCC_NO_CRITICAL
static void t_critical(int nthr, int reps, int dl, double *res) {
#pragma omp target thread_limit(nthr) map(tofrom: res[0:4])
  {
    int total = 0, count = 0;
    double t0 = omp_get_wtime();
#pragma omp parallel num_threads(nthr)
    {
      int n = reps / omp_get_num_threads();
      for (int j = 0; j < n; j++) {
#pragma omp critical
        {
          epcc_delay(dl);
          count = count + 1; /* not atomic: only mutual exclusion makes it exact */
        }
      }
      if (omp_get_thread_num() == 0) total = n * omp_get_num_threads();
    }
    res[0] = omp_get_wtime() - t0;
    res[1] = total;
    res[2] = count;
    res[3] = total;
  }
}
#endif

static void t_lock(int nthr, int reps, int dl, double *res) {
#pragma omp target thread_limit(nthr) map(tofrom: res[0:4])
  {
    omp_lock_t lock;
    omp_init_lock(&lock);
    int total = 0, count = 0;
    double t0 = omp_get_wtime();
#pragma omp parallel num_threads(nthr)
    {
      int n = reps / omp_get_num_threads();
      for (int j = 0; j < n; j++) {
        omp_set_lock(&lock);
        epcc_delay(dl);
        count = count + 1; /* not atomic: only mutual exclusion makes it exact */
        omp_unset_lock(&lock);
      }
      if (omp_get_thread_num() == 0) total = n * omp_get_num_threads();
    }
    res[0] = omp_get_wtime() - t0;
    res[1] = total;
    res[2] = count;
    res[3] = total;
    omp_destroy_lock(&lock);
  }
}

static void t_atomic(int nthr, int reps, int dl, double *res) {
  (void)dl;
#pragma omp target thread_limit(nthr) map(tofrom: res[0:4])
  {
    double sum = 0.0;
    int total = 0;
    double t0 = omp_get_wtime();
#pragma omp parallel num_threads(nthr)
    {
      int n = reps / omp_get_num_threads();
      for (int j = 0; j < n; j++) {
#pragma omp atomic
        sum += 1.0;
      }
      if (omp_get_thread_num() == 0) total = n * omp_get_num_threads();
    }
    res[0] = omp_get_wtime() - t0;
    res[1] = total;
    res[2] = sum;
    res[3] = total;
  }
}

static void t_reduction(int nthr, int reps, int dl, double *res) {
#pragma omp target thread_limit(nthr) map(tofrom: res[0:4])
  {
    int sum = 0, team = 0;
    double t0 = omp_get_wtime();
    for (int j = 0; j < reps; j++) {
#pragma omp parallel num_threads(nthr) reduction(+: sum)
      {
        epcc_delay(dl);
        sum += 1;
        if (j == 0 && omp_get_thread_num() == 0) team = omp_get_num_threads();
      }
    }
    res[0] = omp_get_wtime() - t0;
    res[1] = reps;
    res[2] = sum;
    res[3] = (double)reps * team;
  }
}

/* schedbench: a worksharing loop of iters x nthreads delays per repetition. The schedule kind
 * must be written in the pragma, so there is one function per kind; the chunk is a value. */
#define EPCC_SCHED_TEST(fname, SCHED)                                                 \
  static void fname(int nthr, int reps, int dl, int iters, int chunk, double *res) { \
    (void)chunk;                                                                      \
    _Pragma("omp target thread_limit(nthr) map(tofrom: res[0:4])") \
    {                                                                                 \
      int done = 0, expected = 0;                                                     \
      double t0 = omp_get_wtime();                                                    \
      _Pragma("omp parallel num_threads(nthr)")                                       \
      {                                                                               \
        int n = iters * omp_get_num_threads(), mine = 0;                              \
        for (int j = 0; j < reps; j++) {                                              \
          _Pragma(SCHED)                                                              \
          for (int i = 0; i < n; i++) {                                               \
            epcc_delay(dl);                                                           \
            mine++;                                                                   \
          }                                                                           \
        }                                                                             \
        _Pragma("omp atomic")                                                         \
        done += mine;                                                                 \
        if (omp_get_thread_num() == 0) expected = reps * n;                           \
      }                                                                               \
      res[0] = omp_get_wtime() - t0;                                                  \
      res[1] = reps;                                                                  \
      res[2] = done;                                                                  \
      res[3] = expected;                                                              \
    }                                                                                 \
  }
EPCC_SCHED_TEST(t_sched_static, "omp for schedule(static)")
EPCC_SCHED_TEST(t_sched_static_n, "omp for schedule(static, chunk)")
EPCC_SCHED_TEST(t_sched_dynamic_n, "omp for schedule(dynamic, chunk)")
EPCC_SCHED_TEST(t_sched_guided_n, "omp for schedule(guided, chunk)")

/* schedbench's reference: the same iters delays per repetition on one thread. */
static void t_sched_reference(int nthr, int reps, int dl, int iters, int chunk, double *res) {
  (void)nthr;
  (void)chunk;
#pragma omp target thread_limit(32) map(tofrom: res[0:4])
  {
    double t0 = omp_get_wtime();
    for (int j = 0; j < reps; j++)
      for (int i = 0; i < iters; i++) epcc_delay(dl);
    res[0] = omp_get_wtime() - t0;
    res[1] = reps;
  }
}

/* End to end, timed on the host: launch + (tiny) kernel + completion of each construct. */
static void t_target_empty(int reps, double *res) {
  double t0 = host_seconds();
  for (int j = 0; j < reps; j++) {
#pragma omp target
    {
    }
  }
  res[0] = host_seconds() - t0;
  res[1] = reps;
}

static void t_target_map(int reps, double *res) {
  int small[16];
  for (int i = 0; i < 16; i++) small[i] = i;
  double t0 = host_seconds();
  for (int j = 0; j < reps; j++) {
#pragma omp target map(tofrom: small[0:16])
    { small[0] += 1; }
  }
  res[0] = host_seconds() - t0;
  res[1] = reps;
  res[2] = small[0];
  res[3] = reps; /* small[0] started at 0 and each region added 1 */
}

static int probe_threads(int nthr) {
  int got[1] = {0};
#pragma omp target thread_limit(nthr) map(tofrom: got[0:1])
  {
#pragma omp parallel num_threads(nthr)
    {
      if (omp_get_thread_num() == 0) got[0] = omp_get_num_threads();
    }
  }
  return got[0];
}

typedef void (*sync_fn)(int, int, int, double *);
typedef void (*sched_fn)(int, int, int, int, int, double *);
static const struct { const char *name; sync_fn fn; } sync_tests[] = {
    {"reference", t_reference}, {"parallel", t_parallel}, {"for", t_for},
    {"parallel_for", t_parallel_for}, {"barrier", t_barrier}, {"single", t_single},
#ifndef EPCC_NO_CRITICAL
    {"critical", t_critical},
#endif
    {"lock", t_lock}, {"atomic", t_atomic},
    {"reduction", t_reduction}, {"master", t_master},
};
static const struct { const char *name; sched_fn fn; } sched_tests[] = {
    {"sched_reference", t_sched_reference}, {"static", t_sched_static},
    {"static_n", t_sched_static_n}, {"dynamic_n", t_sched_dynamic_n},
    {"guided_n", t_sched_guided_n},
};

int main(void) {
  char line[512];
  setvbuf(stdout, NULL, _IOLBF, 0);
  printf("ready epcc_omp\n");
  while (fgets(line, sizeof line, stdin)) {
    char name[64];
    int nthr = 0, reps = 0, dl = 0, iters = 0, chunk = 0;
    double res[4] = {0.0, 0.0, 0.0, 0.0};
    if (strncmp(line, "quit", 4) == 0) break;
    if (sscanf(line, "probe %d", &nthr) == 1) {
      printf("ok %d\n", probe_threads(nthr));
      continue;
    }
    if (sscanf(line, "run %63s %d %d %d %d %d", name, &nthr, &reps, &dl, &iters, &chunk) != 6) {
      printf("err cannot parse: %s", line);
      continue;
    }
    int found = 0;
    if (strcmp(name, "target_empty") == 0) { t_target_empty(reps, res); found = 1; }
    if (strcmp(name, "target_map") == 0) { t_target_map(reps, res); found = 1; }
    for (size_t k = 0; !found && k < sizeof sync_tests / sizeof sync_tests[0]; k++)
      if (strcmp(name, sync_tests[k].name) == 0) { sync_tests[k].fn(nthr, reps, dl, res); found = 1; }
    for (size_t k = 0; !found && k < sizeof sched_tests / sizeof sched_tests[0]; k++)
      if (strcmp(name, sched_tests[k].name) == 0) { sched_tests[k].fn(nthr, reps, dl, iters, chunk, res); found = 1; }
    if (!found) printf("err unknown test %s\n", name);
    else printf("ok %.9e %.0f %.0f %.0f\n", res[0], res[1], res[2], res[3]);
  }
  return 0;
}
