/* The first target region of a run (issue 33): the time from main to the end of the first
 * target region, which maps 16 MB both ways, after `host_ms` milliseconds of the program's own
 * set-up (a busy loop over its data, as a program that reads and builds its input).
 *   first_region [host_ms]        prints one line: host_ms, first-region and main-to-end times */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv) {
  const double t0 = now();
  const int host_ms = argc > 1 ? atoi(argv[1]) : 0;
  const long n = 4L << 20;   /* 16 MB of floats */
  float *a = (float *)malloc(sizeof(float) * n);
  long sweeps = 0;
  do {   /* the program's own start-up */
    for (long i = 0; i < n; i++) a[i] = (float)((i + sweeps) & 1023);
    sweeps++;
  } while ((now() - t0) * 1e3 < host_ms);
  for (long i = 0; i < n; i++) a[i] = (float)(i & 1023);
  const double t1 = now();
#pragma omp target teams distribute parallel for map(tofrom: a[0:n])
  for (long i = 0; i < n; i++) a[i] = a[i] * 2 + 1;
  const double t2 = now();
  long bad = 0;
  for (long i = 0; i < n; i++) bad += a[i] != (float)(i & 1023) * 2 + 1;
  printf("first_region host_ms %.1f region_ms %.3f main_to_end_ms %.3f\n", (t1 - t0) * 1e3, (t2 - t1) * 1e3,
         (t2 - t0) * 1e3);
  printf("%s\n", bad ? "FAIL" : "PASS");
  free(a);
  return bad != 0;
}
