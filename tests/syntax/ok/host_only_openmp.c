/* host-side OpenMP that is not offloaded and must pass through untouched next to target regions: tasks, taskloop, taskgroup, ordered, threadprivate, copyin, copyprivate, cancel, declare reduction, depend on tasks */
#include <omp.h>
#include <stdio.h>

int tp_counter;
#pragma omp threadprivate(tp_counter)

typedef struct {
  double lo, hi;
} interval;

#pragma omp declare reduction(merge : interval : omp_out.lo = omp_in.lo < omp_out.lo ? omp_in.lo : omp_out.lo, \
                                                 omp_out.hi = omp_in.hi > omp_out.hi ? omp_in.hi : omp_out.hi) \
    initializer(omp_priv = (interval){1e300, -1e300})

static long fib(int n) {
  if (n < 2) return n;
  long x, y;
#pragma omp task shared(x) firstprivate(n) if(n > 10)
  x = fib(n - 1);
#pragma omp task shared(y) firstprivate(n) if(n > 10)
  y = fib(n - 2);
#pragma omp taskwait
  return x + y;
}

int main(void) {
  double v[100];
  long f = 0;
  int seed = 0;
  tp_counter = 3;

#pragma omp target teams distribute parallel for map(from: v)
  for (int i = 0; i < 100; i++) v[i] = i * 0.5 - 10.0;

#pragma omp parallel
  {
#pragma omp single
    f = fib(18);
  }

#pragma omp parallel copyin(tp_counter)
  {
    tp_counter += omp_get_thread_num();
#pragma omp single copyprivate(seed)
    seed = 42;
  }

  interval iv = {1e300, -1e300};
#pragma omp parallel for reduction(merge : iv)
  for (int i = 0; i < 100; i++) {
    if (v[i] < iv.lo) iv.lo = v[i];
    if (v[i] > iv.hi) iv.hi = v[i];
  }

  double acc = 0.0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp taskloop grainsize(10) reduction(+: acc)
    for (int i = 0; i < 100; i++) acc += v[i];
#pragma omp taskgroup
    {
#pragma omp task depend(out: v[0])
      v[0] = 1.0;
#pragma omp task depend(in: v[0])
      v[1] = v[0] + 1.0;
    }
  }

#pragma omp parallel for ordered schedule(static, 1)
  for (int i = 0; i < 8; i++) {
#pragma omp ordered
    printf("%d ", i);
  }
  printf("\n");

#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < 100; i++) {
      if (v[i] > 1e9) {
#pragma omp cancel for
      }
    }
#pragma omp cancellation point parallel
  }
  printf("%ld %d %f %f %f\n", f, seed, iv.lo, iv.hi, acc);
  return 0;
}
