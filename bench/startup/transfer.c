/* Host <-> device bandwidth of `target update` by size (issue 33), from 4 KB to max_mb MB in
 * steps of 4x, on a mapping made once (target enter data), host memory malloc'd and touched;
 * and (issue 49) from the device into fresh memory (malloc'd and never touched, as a program's
 * result arrays are; a new buffer each repetition), both ways at once (two host threads, one
 * updating the device from one array while the other updates another array from the device:
 * the rate of each), and four arrays of a quarter of the size each in one construct.
 *   transfer [max_mb]      one line per size: bytes, GB/s each way, into fresh memory, both ways
 *                          at once and of four arrays to / from the device (median of the
 *                          repetitions) */
#include <pthread.h>
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

struct update {
  unsigned char *p;
  size_t size;
  int to_device;
};

static void *update_one(void *arg) {
  struct update *u = (struct update *)arg;
  unsigned char *p = u->p;
  size_t size = u->size;
  if (u->to_device) {
#pragma omp target update to(p[0:size])
  } else {
#pragma omp target update from(p[0:size])
  }
  return NULL;
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
    /* both ways at once: h to the device on one thread, g from it on another */
    unsigned char *g = (unsigned char *)malloc(size);
    memset(g, 0, size);
#pragma omp target enter data map(to: g[0:size])
#pragma omp target teams distribute parallel for
    for (size_t i = 0; i < size; i++) g[i] = (unsigned char)(i * 5 + 3);
    double both[9], four_to[9], four_from[9];
    for (int r = 0; r < reps; r++) {
      struct update up = {h, size, 1}, down = {g, size, 0};
      pthread_t other;
      double t = now();
      if (pthread_create(&other, NULL, update_one, &down) != 0) return 3;
      update_one(&up);
      pthread_join(other, NULL);
      both[r] = now() - t;
    }
    for (size_t i = 0; i < size; i += 4093) ok &= g[i] == (unsigned char)(i * 5 + 3);
#pragma omp target exit data map(delete: g[0:size])
    free(g);
    /* four arrays of a quarter each in one construct */
    {
      const size_t q = size / 4;
      unsigned char *a0 = h, *a1 = h + q, *a2 = h + 2 * q, *a3 = h + 3 * q;
      for (int r = 0; r < reps; r++) {
        double t = now();
#pragma omp target update to(a0[0:q], a1[0:q], a2[0:q], a3[0:q])
        four_to[r] = now() - t;
        t = now();
#pragma omp target update from(a0[0:q], a1[0:q], a2[0:q], a3[0:q])
        four_from[r] = now() - t;
      }
      for (size_t i = 0; i < size; i += 4093) ok &= h[i] == (unsigned char)(i * 7 + 1);
    }
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
    qsort(both, reps, sizeof(double), by_value);
    qsort(four_to, reps, sizeof(double), by_value);
    qsort(four_from, reps, sizeof(double), by_value);
    printf("transfer bytes %zu to_gbs %.3f from_gbs %.3f fresh_from_gbs %.3f both_gbs %.3f four_to_gbs %.3f "
           "four_from_gbs %.3f\n",
           size, size / to[reps / 2] / 1e9, size / from[reps / 2] / 1e9, size / fresh[reps / 2] / 1e9,
           size / both[reps / 2] / 1e9, size / four_to[reps / 2] / 1e9, size / four_from[reps / 2] / 1e9);
    fflush(stdout);
    free(h);
  }
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
