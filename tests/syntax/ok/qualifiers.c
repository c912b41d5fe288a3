/* const, volatile, restrict, static and register-free locals in and around target regions; const global tables in declare target */
#include <stdio.h>

#pragma omp declare target
static const int weights[5] = {1, 4, 6, 4, 1};
static const double scale = 1.0 / 16.0;
#pragma omp end declare target

static void blur(const double *restrict in, double *restrict out, const int n) {
#pragma omp target teams distribute parallel for map(to: in[0:n]) map(from: out[0:n])
  for (int i = 2; i < n - 2; i++) {
    double acc = 0.0;
    for (int k = -2; k <= 2; k++) acc += weights[k + 2] * in[i + k];
    out[i] = acc * scale;
  }
}

int main(void) {
  enum { N = 64 };
  double in[N], out[N] = {0};
  for (int i = 0; i < N; i++) in[i] = i % 5;
  blur(in, out, N);

  volatile int spin = 0;
  const int limit = 10;
  int count = 0;
#pragma omp target map(tofrom: count) firstprivate(limit)
  {
    volatile int local = 0;
    for (int i = 0; i < limit; i++) local += i;
    count = local;
  }
  const double *const cp = in;
  double *restrict rp = out;
  (void)spin;
  printf("%f %f %d\n", cp[3], rp[3], count);
  return 0;
}
