/* covers: generic kernels whose parallel regions read no thread state (the workers skip storing it at the fork) beside regions that read it: private arrays, firstprivate, if(false), num_threads in stateless regions; omp_get_thread_num/num_threads/level after them; regions whose every shared value is an unchanged by-value capture (the fork copies no pack) beside a capture the kernel changes */
#include <stdio.h>
#include <omp.h>

#define MAXT 256

#pragma omp declare target
int seen[4]; /* written by regions whose captures are all by value */
static int fill(int *v, int k) {
  for (int i = 0; i < 4; i++) v[i] = k + i;
  return v[0] + v[3];
}
#pragma omp end declare target

int main(void) {
  /* only stateless regions: every thread computes the same value */
  int sums[3] = {0, 0, 0}, bad = 0, serial_threads = -1;
#pragma omp target map(tofrom: sums, bad, serial_threads)
  {
    int k = 5;
    for (int rep = 0; rep < 3; rep++) {
#pragma omp parallel num_threads(64) firstprivate(k) if(rep != 1)
      {
        int v[4];
        int s = fill(v, k + rep);
        if (s != 2 * (k + rep) + 3 || v[2] != k + rep + 2) bad = 1;
        sums[rep] = s;
      }
    }
    serial_threads = omp_get_num_threads();
  }
  printf("stateless regions: sums=%d,%d,%d bad=%d serial num_threads=%d\n", sums[0], sums[1], sums[2], bad,
         serial_threads);

  /* a stateless region, then regions that read the team: ids are exactly 0..n-1 each time */
  int ids[2][MAXT], nth[2] = {0, 0}, lvl = -1, same = 0;
  for (int r = 0; r < 2; r++)
    for (int t = 0; t < MAXT; t++) ids[r][t] = 0;
#pragma omp target map(tofrom: ids, nth, lvl, same)
  {
    int k = 7, v0 = 0;
#pragma omp parallel num_threads(32)
    {
      int v[4];
      if (fill(v, k) == 17) v0 = 17;
    }
    for (int r = 0; r < 2; r++) {
#pragma omp parallel num_threads(r == 0 ? 64 : 32)
      {
        int t = omp_get_thread_num();
#pragma omp atomic
        ids[r][t] += 1;
        if (t == 0) {
          nth[r] = omp_get_num_threads();
          lvl = omp_get_level();
        }
      }
    }
    same = v0;
  }
  int ok = 1;
  for (int r = 0; r < 2; r++) {
    if (nth[r] < 1 || nth[r] > (r == 0 ? 64 : 32)) ok = 0;
    for (int t = 0; t < MAXT; t++)
      if (ids[r][t] != (t < nth[r] ? 1 : 0)) ok = 0;
  }
  printf("stateful regions after a stateless one: ids exactly 0..n-1=%d level=%d value=%d\n", ok, lvl, same);
  /* regions reading only by-value captures: unchanged ones (the workers take them from the
     kernel's parameters), then one the kernel changes between forks */
  int base = 40, step = 2;
#pragma omp target firstprivate(base, step)
  {
#pragma omp parallel num_threads(64)
    seen[0] = base + step;
  }
#pragma omp target firstprivate(base, step)
  {
    for (int r = 1; r < 4; r++) {
#pragma omp parallel num_threads(32) if(r != 2)
      seen[r] = base * r + step;
      base += 1;
    }
  }
#pragma omp target update from(seen)
  printf("by-value captures: %d %d %d %d\n", seen[0], seen[1], seen[2], seen[3]);
  const int captures_ok = seen[0] == 42 && seen[1] == 42 && seen[2] == 84 && seen[3] == 128;
  printf("%s\n", captures_ok && ok && !bad && sums[0] == 13 && sums[1] == 15 && sums[2] == 17 && lvl == 1 && same == 17 ? "PASS" : "FAIL");
  return 0;
}
