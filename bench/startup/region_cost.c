/* What one synchronous target region costs beyond its kernel (issue 48: streamcluster's eight
 * regions a repetition): mean microseconds over many regions of
 *   empty     `target` with nothing mapped and an empty body
 *   teams     `target teams distribute` over n = 0 iterations, in a host loop that ompgpu runs as
 *             one persistent kernel (issue 50): what a fused loop's iteration costs
 *   mapped    the same with seven arrays present (a target data region around), as streamcluster
 *   teams64   mapped, over 64 iterations
 * One line each: "region_cost case NAME us MEAN" (bench/startup/startup.py parses them).
 *   region_cost [regions]                                          */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return 1e6 * (double)ts.tv_sec + 1e-3 * (double)ts.tv_nsec;
}

int main(int argc, char **argv) {
  const int regions = argc > 1 ? atoi(argv[1]) : 2000;
  const int n = 1 << 16;
  float *p = calloc(n, sizeof *p), *w = calloc(n, sizeof *w), *cost = calloc(n, sizeof *cost), *gain = calloc(8, sizeof *gain);
  int *assign = calloc(n, sizeof *assign), *sw = calloc(8, sizeof *sw);
  float *lower = calloc(256, sizeof *lower);
  int zero = 0, sixty_four = 64, ok = 1;
  double t;
#pragma omp target
  { }
  t = now_us();
  for (int r = 0; r < regions; r++) {
#pragma omp target
    { }
  }
  printf("region_cost case empty us %.2f\n", (now_us() - t) / regions);
  t = now_us();
  for (int r = 0; r < regions; r++) {
#pragma omp target teams distribute firstprivate(zero)
    for (int i = 0; i < zero; i++) { }
  }
  printf("region_cost case teams us %.2f\n", (now_us() - t) / regions);
#pragma omp target data map(to: p[0:n], w[0:n], cost[0:n], assign[0:n]) map(tofrom: gain[0:8], lower[0:256], sw[0:8])
  {
    for (int m = 0; m < 2; m++) {
      const int count = m ? sixty_four : zero;
      t = now_us();
      for (int r = 0; r < regions; r++) {
        const int c = r & 7;
#pragma omp target teams distribute thread_limit(128) firstprivate(c)
        for (int i = 0; i < count; i++) {
          float d = 0;
#pragma omp parallel for reduction(+: d)
          for (int k = 0; k < 128; k++) d += p[(i * 128 + k) % n];
          d *= w[i];
          if (d < cost[i]) {
#pragma omp atomic
            gain[c] += cost[i] - d;
#pragma omp atomic
            sw[c]++;
          } else {
#pragma omp atomic
            lower[c * 32 + assign[i]] += d - cost[i];
          }
        }
      }
      printf("region_cost case %s us %.2f\n", m ? "teams64" : "mapped", (now_us() - t) / regions);
    }
  }
  for (int c = 0; c < 8; c++) ok &= sw[c] == 0 && gain[c] == 0;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
