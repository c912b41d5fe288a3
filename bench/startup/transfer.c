/* Host <-> device bandwidth of `target update` by size (issue 33), from 4 KB to max_mb MB in
 * steps of 4x, on a mapping made once (target enter data), host memory malloc'd and touched;
 * and from the device into fresh memory (issue 49: malloc'd and never touched, as a program's
 * result arrays are; a new buffer each repetition).
 *   transfer [max_mb]      one line per size: bytes, GB/s each way and into fresh memory
 *                          (median of the repetitions) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  const long max_mb = argc > 1 ? atol(argv[1]) : 4096;
  int ok = 1;
  {   /* the device's start-up is not part of the measurements */
    int touched = 0;
#pragma omp target map(tofrom: touched)
    touched = 1;
    ok &= touched;
  }
  for (size_t size = 4096; size <= (size_t)max_mb << 20; size *= 4) {
    unsigned char *h = (unsigned char *)malloc(size);
    for (size_t i = 0; i < size; i++) h[i] = (unsigned char)(i * 7 + 1);
#pragma omp target enter data map(to: h[0:size])
    const int reps = size <= ((size_t)64 << 20) ? 9 : 3;
    double to[9], from[9];
    for (int r = 0; r < reps; r++) {
      double t = now();
#pragma omp target update to(h[0:size])
      to[r] = now() - t;
      t = now();
#pragma omp target update from(h[0:size])
      from[r] = now() - t;
    }
    /* the data came back unchanged, and a change on the host goes there and back */
    for (size_t i = 0; i < size; i += 4093) ok &= h[i] == (unsigned char)(i * 7 + 1);
    memset(h, 0, size);
#pragma omp target update from(h[0:size])
    for (size_t i = 0; i < size; i += 4093) ok &= h[i] == (unsigned char)(i * 7 + 1);
#pragma omp target exit data map(delete: h[0:size])
    double fresh[9];
    for (int r = 0; r < reps; r++) {
      unsigned char *f = (unsigned char *)malloc(size);   /* large: fresh pages from the system */
#pragma omp target enter data map(alloc: f[0:size])
      double t = now();
#pragma omp target update from(f[0:size])
      fresh[r] = now() - t;
#pragma omp target exit data map(delete: f[0:size])
      free(f);
    }
    qsort(to, reps, sizeof(double), by_value);
    qsort(from, reps, sizeof(double), by_value);
    qsort(fresh, reps, sizeof(double), by_value);
    printf("transfer bytes %zu to_gbs %.3f from_gbs %.3f fresh_from_gbs %.3f\n", size, size / to[reps / 2] / 1e9,
           size / from[reps / 2] / 1e9, size / fresh[reps / 2] / 1e9);
    fflush(stdout);
    free(h);
  }
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
