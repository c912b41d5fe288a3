/* covers: target, parallel, values a region receives by value: kernel parameters the target region never changes, and ones its serial code changes between forks (each fork sees the value at the fork) */
#include <omp.h>
#include <stdio.h>

int main(int argc, char **argv) {
  int n = 5 + argc, m = 7, k = 11;
  int out[4] = {0, 0, 0, 0};
  (void)argv;
#pragma omp target map(tofrom: out) thread_limit(64)
  {
#pragma omp parallel num_threads(64)
    {
      if (omp_get_thread_num() == 1) out[0] = n * 100 + m * 10 + k;
    }
    m = m * 3;
#pragma omp parallel num_threads(64)
    {
      if (omp_get_thread_num() == 2) out[1] = n * 100 + m;
    }
    k += n;
#pragma omp parallel num_threads(32)
    {
      if (omp_get_thread_num() == 3) out[2] = k + m;
    }
  }
  printf("first fork %d, after m changed %d, after k changed %d\n", out[0], out[1], out[2]);
  int ok = out[0] == (5 + argc) * 100 + 70 + 11 && out[1] == (5 + argc) * 100 + 21 && out[2] == 11 + 5 + argc + 21;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
