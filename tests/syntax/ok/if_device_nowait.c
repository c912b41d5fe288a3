/* if clauses with and without directive-name modifiers, device clauses, nowait and depend on target constructs with taskwait */
#include <omp.h>
#include <stdio.h>

int main(void) {
  int n = 512;
  double a[512], b[512];
  int dev = omp_get_default_device();
  int use_gpu = omp_get_num_devices() > 0;
  for (int i = 0; i < n; i++) a[i] = b[i] = i;

#pragma omp target if(use_gpu) device(dev) map(tofrom: a)
  a[0] = 1.0;
#pragma omp target if(target: n > 100) map(tofrom: a)
  a[1] = 1.0;
#pragma omp target parallel for if(target: use_gpu) if(parallel: n > 64) map(tofrom: a)
  for (int i = 0; i < n; i++) a[i] += 1.0;
#pragma omp target teams distribute parallel for if(n > 256) device(0) map(tofrom: a)
  for (int i = 0; i < n; i++) a[i] += 1.0;
#pragma omp target data if(target data: use_gpu) map(tofrom: a) device(dev)
  {
#pragma omp target update if(target update: use_gpu) to(a)
#pragma omp target map(tofrom: a)
    a[2] = 2.0;
  }
#pragma omp target enter data if(target enter data: use_gpu) map(to: b)
#pragma omp target exit data if(target exit data: use_gpu) map(from: b)

#pragma omp target nowait map(tofrom: a) depend(out: a)
  for (int i = 0; i < n; i++) a[i] *= 2.0;
#pragma omp target nowait map(tofrom: b) depend(out: b)
  for (int i = 0; i < n; i++) b[i] *= 2.0;
#pragma omp target teams distribute parallel for nowait map(tofrom: a, b) depend(in: b) depend(inout: a)
  for (int i = 0; i < n; i++) a[i] += b[i];
#pragma omp taskwait

#pragma omp target enter data map(to: b) nowait depend(out: b)
#pragma omp target update from(b) nowait depend(inout: b)
#pragma omp target exit data map(release: b) nowait depend(in: b)
#pragma omp taskwait
  printf("%f %f\n", a[n - 1], b[n - 1]);
  return 0;
}
