/* all the usual C headers together with omp.h, used in host and device code */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include <limits.h>
#include <float.h>
#include <assert.h>
#include <sys/time.h>
#include <time.h>
#include <omp.h>

static double now(void) {
  struct timeval tv;
  gettimeofday(&tv, NULL);
  return tv.tv_sec + tv.tv_usec * 1e-6;
}

int main(int argc, char **argv) {
  size_t n = argc > 1 ? (size_t)strtoul(argv[1], NULL, 10) : 1000;
  float *x = malloc(n * sizeof *x);
  uint32_t *h = calloc(n, sizeof *h);
  bool *flag = malloc(n * sizeof *flag);
  assert(x && h && flag);
  memset(x, 0, n * sizeof *x);
  double t0 = now(), w0 = omp_get_wtime();
  int64_t big = INT64_MAX / 2;
  float eps = FLT_EPSILON;
  ptrdiff_t off = 3;

#pragma omp target teams distribute parallel for map(tofrom: x[0:n], h[0:n]) map(from: flag[0:n]) firstprivate(big, eps, off)
  for (size_t i = 0; i < n; i++) {
    x[i] = sqrtf((float)i) + fabsf(-eps) + (float)pow(2.0, 0.5) + expf(0.0f) + floorf(1.5f);
    h[i] = (uint32_t)(i * 2654435761u) ^ (uint32_t)(big & 0xffff);
    flag[i] = (h[i] & 1u) == 0 && i + off > 0;
  }
  printf("%zu %f %u %d %.3f %.3f %ld\n", n, x[n - 1], h[0], flag[0], now() - t0, omp_get_wtime() - w0,
         (long)time(NULL) % 1);
  free(x);
  free(h);
  free(flag);
  return EXIT_SUCCESS;
}
