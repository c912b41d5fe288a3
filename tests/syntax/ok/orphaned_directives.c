/* orphaned worksharing and synchronisation directives in declare target functions */
#include <omp.h>

#pragma omp declare target
void orphan_for(double *a, int n) {
#pragma omp for schedule(static) nowait
  for (int i = 0; i < n; i++) a[i] += 1.0;
}
void orphan_sync(int *flag) {
#pragma omp barrier
#pragma omp single
  *flag = 1;
#pragma omp master
  *flag += 1;
#pragma omp masked filter(0)
  *flag += 1;
#pragma omp critical
  *flag += 1;
#pragma omp flush
#pragma omp atomic
  *flag += 1;
}
void orphan_sections(double *a) {
#pragma omp sections
  {
#pragma omp section
    a[0] = 1.0;
#pragma omp section
    a[1] = 2.0;
  }
}
void orphan_parallel(double *a, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) a[i] *= 2.0;
}
double orphan_reduce(const double *a, int n) {
  static double s;
#pragma omp single
  s = 0.0;
#pragma omp for reduction(+: s)
  for (int i = 0; i < n; i++) s += a[i];
  return s;
}
#pragma omp end declare target

int main(void) {
  double a[100] = {0};
  int flag = 0;
  double r = 0.0;
#pragma omp target map(tofrom: a, flag, r)
  {
    orphan_parallel(a, 100);
#pragma omp parallel
    {
      orphan_for(a, 100);
      orphan_sync(&flag);
      orphan_sections(a);
      double t = orphan_reduce(a, 100);
#pragma omp master
      r = t;
    }
  }
  return (int)r + flag == 0;
}
