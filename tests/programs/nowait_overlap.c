/* covers: 8 independent target nowait regions of about 1 ms each (a spin on omp_get_wtime in one team) created by one thread of a parallel region; they finish after taskwait with correct results. Benchmark, not a test: with OMPGPU_BENCH=1 it prints how long the 8 took against one alone (overlap on separate streams) */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define R 8
#define SPIN 1.0e-3

static double result[R];

static void run_batch(int count) {
#pragma omp parallel num_threads(R)
#pragma omp single
  {
    for (int r = 0; r < count; r++) {
#pragma omp target nowait firstprivate(r) map(tofrom: result[r:1])
      {
        double t0 = omp_get_wtime();
        long spins = 0;
        while (omp_get_wtime() - t0 < SPIN) spins++;
        result[r] = r + (spins > 0 ? 0.5 : 0.0);
      }
    }
#pragma omp taskwait
  }
}

int main(void) {
  int bench = getenv("OMPGPU_BENCH") != NULL;
  /* the result array stays present: the regions only launch */
#pragma omp target data map(tofrom: result)
  {
    run_batch(1);   /* warm-up: module load, streams */
    run_batch(R);
    double t_one = 1e30, t_all = 1e30;
    for (int rep = 0; rep < (bench ? 5 : 1); rep++) {
      double t0 = omp_get_wtime();
      run_batch(1);
      double t1 = omp_get_wtime();
      run_batch(R);
      double t2 = omp_get_wtime();
      if (t1 - t0 < t_one) t_one = t1 - t0;
      if (t2 - t1 < t_all) t_all = t2 - t1;
    }
    if (bench)
      fprintf(stderr, "nowait_overlap: one region %.3f ms, %d regions %.3f ms (%.2fx one region; %s)\n", t_one * 1e3, R,
              t_all * 1e3, t_all / t_one, t_all < 0.5 * R * t_one ? "overlapped" : "NOT overlapped");
  }
  int ok = 1;
  for (int r = 0; r < R; r++) ok &= result[r] == r + 0.5;
  printf("%d regions done: %s\n", R, ok ? "results ok" : "results wrong");
  printf("%s\n", ok ? "PASS" : "FAIL");
  return 0;
}
