/* covers: if(target: expr) with run-time conditions (device or host fallback per call, the data is right either way), if without modifier on a combined construct, if on target data / enter data / update, if(target:) combined with nowait and depend */
#include <omp.h>
#include <stdio.h>

#define N 500

static int run(int use_device, int *a) {
  int where = -1;
#pragma omp target teams distribute parallel for if(target: use_device) map(tofrom: a[0:N])
  for (int i = 0; i < N; i++) a[i] += 1;
#pragma omp target if(use_device > 1) map(from: where)
  where = omp_is_initial_device();
  return where;
}

int main(void) {
  static int a[N];
  int host_runs = 0;
  for (int k = 0; k < 4; k++) host_runs += run(k % 2, a);
  printf("the if(false) regions ran on the host: %d of 4\n", host_runs);

  int c = 0;
#pragma omp target data map(tofrom: a) if(c)
  {
#pragma omp target teams distribute parallel for if(c)
    for (int i = 0; i < N; i++) a[i] *= 2;
  }
#pragma omp target enter data map(to: a) if(target enter data: c)
#pragma omp target update from(a) if(c)

  static int b[N];
#pragma omp parallel num_threads(2)
#pragma omp single
  {
    for (int k = 0; k < 4; k++) {
#pragma omp target nowait if(target: k % 2) map(tofrom: b) depend(inout: b)
      for (int i = 0; i < N; i++) b[i] = b[i] * 2 + k;
    }
#pragma omp taskwait
  }
  long s = 0, t = 0;
  for (int i = 0; i < N; i++) {
    s += a[i];
    t += b[i];
  }
  printf("a sum=%ld b sum=%ld\n", s, t);
  printf("%s\n", host_runs == 4 && s == 8L * N && t == 11L * N ? "PASS" : "FAIL");
  return 0;
}
