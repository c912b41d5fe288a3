/* covers: private and firstprivate on target constructs: a firstprivate scalar and struct modified on the device (host copies unchanged), a private array and scalar used as scratch, a pointer to mapped data (translated), private on target teams with a distribute loop, firstprivate with nowait */
#include <stdio.h>

#define N 256

struct params {
  int shift;
  double gain;
};

int main(void) {
  static double out[N];
  int base = 7;
  struct params p = {3, 0.5};
  double scratch[16];
  int tmp = -1;
#pragma omp target firstprivate(base, p) private(scratch, tmp) map(from: out)
  {
    for (int k = 0; k < 16; k++) scratch[k] = k * p.gain;
    for (int i = 0; i < N; i++) {
      tmp = i % 16;
      out[i] = scratch[tmp] + base + p.shift;
    }
    base = 1000;      /* private to the region */
    p.shift = -1000;
  }
  printf("host copies unchanged: base=%d shift=%d tmp=%d\n", base, p.shift, tmp);

  static int counts[N];
  int *cp = counts;
#pragma omp target teams distribute map(tofrom: counts) private(tmp)
  for (int i = 0; i < N; i++) {
    tmp = i * 2;
    cp[i] = tmp + 1;
  }

  static int later[4];
#pragma omp parallel num_threads(2)
#pragma omp single
  {
    for (int k = 0; k < 4; k++) {
      int val = k * 11;
#pragma omp target nowait firstprivate(val) map(tofrom: later[k:1])
      later[k] = val;
    }
#pragma omp taskwait
  }
  double s = 0;
  long c = 0;
  for (int i = 0; i < N; i++) {
    s += out[i];
    c += counts[i];
  }
  printf("out sum=%.1f counts sum=%ld later=%d %d %d %d\n", s, c, later[0], later[1], later[2], later[3]);
  int ok = base == 7 && p.shift == 3 && tmp == -1 && c == (long)N * N && later[3] == 33;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return 0;
}
