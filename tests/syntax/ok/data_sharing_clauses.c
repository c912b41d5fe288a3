/* data-sharing clauses on every construct that takes them: private, firstprivate, lastprivate, shared, default, reduction, linear, copyprivate-free forms, defaultmap, is_device_ptr, use_device_ptr, use_device_addr */
#include <omp.h>
#include <stdio.h>

static double work(double x) { return x * 0.5; }
#pragma omp declare target to(work)

void clauses(double *a, int n) {
  int i, j = 0, k = 5;
  double t = 0.0, u = 1.0, sum = 0.0, prod = 1.0;
  double *d = (double *)omp_target_alloc(n * sizeof(double), omp_get_default_device());

#pragma omp target private(t) firstprivate(k) map(tofrom: a[0:n])
  {
    t = k;
    a[0] = t;
  }
#pragma omp target teams private(t) firstprivate(u) default(shared) num_teams(4) reduction(+: sum) map(tofrom: sum)
  {
    t = u;
    sum += t;
  }
#pragma omp target teams distribute private(t) firstprivate(u) lastprivate(j) map(tofrom: a[0:n], j)
  for (i = 0; i < n; i++) {
    t = u + i;
    a[i] = t;
    j = i;
  }
#pragma omp target parallel for default(none) shared(a) firstprivate(n, u) private(t) lastprivate(j) map(tofrom: a[0:n], j)
  for (int q = 0; q < n; q++) {
    t = work(u);
    a[q] += t;
    j = q;
  }
#pragma omp target map(tofrom: a[0:n], sum, prod)
#pragma omp parallel default(none) shared(a, sum, prod) firstprivate(n)
  {
#pragma omp for reduction(+: sum) reduction(*: prod) private(t) nowait
    for (int q = 0; q < n; q++) {
      t = a[q];
      sum += t;
      prod *= 1.0;
    }
#pragma omp for linear(k: 2) firstprivate(t)
    for (int q = 0; q < n; q++) {
      a[q] = k;
      k += 2;
    }
  }
#pragma omp target is_device_ptr(d)
  d[0] = 1.0;
#pragma omp target teams distribute parallel for is_device_ptr(d) firstprivate(n)
  for (int q = 0; q < n; q++) d[q] = q;
#pragma omp target data map(tofrom: a[0:n]) use_device_ptr(a)
  {
#pragma omp target is_device_ptr(a)
    a[0] = 2.0;
  }
  double loc[8] = {0};
#pragma omp target data map(tofrom: loc) use_device_addr(loc)
  {
    printf("%p\n", (void *)loc);
  }
#pragma omp target defaultmap(tofrom: scalar) map(tofrom: a[0:n])
  {
    sum = a[0];
  }
#pragma omp target defaultmap(firstprivate: scalar) defaultmap(tofrom: aggregate)
  {
    u = 3.0;
  }
  omp_target_free(d, omp_get_default_device());
  printf("%f %f %d %d\n", sum, prod, j, k);
}

int main(void) {
  double a[32] = {0};
  clauses(a, 32);
  return 0;
}
