/* declare variant (OpenMP 5.0): in device code a call of the base function becomes a call of
   the variant whose context selector the GPU matches; the host compiler picks the host's. */
#include <stdio.h>
#define N 8

double scale_gpu(double x) { return 2 * x; }
double scale_sm90(double x) { return 3 * x; }
double scale_host(double x) { return -x; }
int twice_in_target(int x) { return 20 * x; }

/* The most specific matching selector wins: on sm_90 the second (three traits). */
#pragma omp declare variant(scale_gpu) match(device={kind(gpu)})
#pragma omp declare variant(scale_sm90) match(device={kind(gpu), isa("sm_90")}, user={condition(N > 4)})
#pragma omp declare variant(scale_host) match(device={kind(host)})
double scale(double x) { return x; }

#pragma omp declare variant(twice_in_target) match(construct={target}, device={arch(nvptx64)})
int twice(int x) { return 2 * x; }

#pragma omp declare variant(scale_gpu) match(device={kind(fpga)})
double untouched(double x) { return x + 0.5; }

#pragma omp declare target
double apply(double x) { return scale(x) + untouched(x); }   /* device code: called from a region */
#pragma omp end declare target

int main(void) {
  double a[N], b[N];
  int t[N];
  #pragma omp target teams distribute parallel for map(from: a, b, t)
  for (int i = 0; i < N; i++) {
    a[i] = scale(i);
    b[i] = apply(i);
    t[i] = twice(i);
  }
  printf("device: scale %g apply %g twice %d\n", a[2], b[2], t[2]);
  printf("host: scale %g apply %g twice %d\n", scale(2.0), apply(2.0), twice(2));
  return 0;
}
