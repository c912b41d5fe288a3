/* covers: dispatch construct (OpenMP 5.1) with declare variant match(construct={dispatch}), adjust_args(need_device_ptr / nothing), novariants, nocontext, device, is_device_ptr, depend, nowait, the assignment form, dispatch of a function without variants */
/* The dispatch construct calls the variant made for it; need_device_ptr arguments arrive as
   device addresses, which the variant hands to a target region with is_device_ptr. */
#include <omp.h>
#include <stdio.h>

#define N 64

/* the variant: works on device memory through is_device_ptr */
void scale_on_device(double *v, int n, double factor) {
  #pragma omp target teams distribute parallel for is_device_ptr(v)
  for (int i = 0; i < n; ++i) v[i] *= factor;
}

#pragma omp declare variant(scale_on_device) match(construct={dispatch}) adjust_args(need_device_ptr: v) adjust_args(nothing: n)
void scale(double *v, int n, double factor) {
  for (int i = 0; i < n; ++i) v[i] *= -factor;   /* the base function: negates too */
}

/* a variant that reports which device is the default during the call */
int default_device_seen(int tag) { return 1000 * tag + omp_get_default_device(); }
#pragma omp declare variant(default_device_seen) match(construct={dispatch})
int which_device(int tag) { return -tag; }

/* a variant that reads host memory */
int for_dispatch(int x) { return x + 200; }
#pragma omp declare variant(for_dispatch) match(construct={dispatch})
int picked(int x) { return x; }

double sum_on_host(const double *v, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += v[i];
  return s;
}
#pragma omp declare variant(sum_on_host) match(construct={dispatch})
double host_sum(const double *v, int n) { return -1; }

/* sums device memory through a device pointer */
double sum_on_device(const double *v, int n) {
  double s = 0;
  #pragma omp target map(tofrom: s) is_device_ptr(v)
  for (int i = 0; i < n; ++i) s += v[i];
  return s;
}
#pragma omp declare variant(sum_on_device) match(construct={dispatch}) adjust_args(need_device_ptr: v)
double sum(const double *v, int n) { return -1; }

int plain(int x) { return 3 * x; }

int main(void) {
  double a[N];
  int failures = 0;
  for (int i = 0; i < N; ++i) a[i] = i;

  /* 1. need_device_ptr: `a` is mapped, the variant gets its device address */
  #pragma omp target enter data map(to: a)
  #pragma omp dispatch
  scale(a, N, 2.0);
  /* 2. novariants(true): the base function itself */
  int yes = 1, no = 0;
  double c[4] = {1, 2, 3, 4};
  #pragma omp dispatch novariants(yes)
  scale(c, 4, 1.0);
  printf("novariants(true) calls the base function: %s\n", c[0] == -1 && c[3] == -4 ? "ok" : "WRONG");
  failures += c[0] != -1 || c[3] != -4;
  /* 3. novariants(false), nocontext(false): the variant */
  #pragma omp dispatch novariants(no) nocontext(no)
  scale(a, N, 0.5);
  double total = -5;
  #pragma omp dispatch
  total = sum(a, N);   /* the assignment form */
  #pragma omp target exit data map(from: a)
  int bad = 0;
  for (int i = 0; i < N; ++i) bad += a[i] != (double)i;
  printf("need_device_ptr, variant on device data: %s\n", bad ? "WRONG" : "ok");
  printf("sum through the variant: %s\n", total == N * (N - 1) / 2 ? "ok" : "WRONG");
  failures += bad != 0 || total != N * (N - 1) / 2;

  /* 4. nocontext(true): dispatch is not in the context, the base function runs */
  int r = 0;
  #pragma omp dispatch nocontext(yes)
  r = which_device(7);
  printf("nocontext(true) calls the base function: %s\n", r == -7 ? "ok" : "WRONG");
  failures += r != -7;

  /* 5. device(n): the default device during the call, restored after */
  int dev = omp_get_default_device();
  int before = omp_get_default_device();
  #pragma omp dispatch device(dev)
  r = which_device(3);
  printf("device clause: %s, default device restored: %s\n", r == 3000 + dev ? "ok" : "WRONG",
         omp_get_default_device() == before ? "ok" : "WRONG");
  failures += r != 3000 + dev || omp_get_default_device() != before;

  /* 6. is_device_ptr on the construct: device memory passed as it is */
  double *d = (double *)omp_target_alloc(N * sizeof(double), dev);
  double dsum = 0;
  if (d != NULL) {
    #pragma omp target teams distribute parallel for is_device_ptr(d) device(dev)
    for (int i = 0; i < N; ++i) d[i] = 1.5;
    #pragma omp dispatch is_device_ptr(d) device(dev)
    dsum = sum(d, N);
    omp_target_free(d, dev);
  }
  printf("is_device_ptr argument: %s\n", dsum == 1.5 * N ? "ok" : "WRONG");
  failures += dsum != 1.5 * N;

  /* 7. need_device_ptr of storage that is not mapped: the pointer as it is (here: device memory) */
  double *e = (double *)omp_target_alloc(N * sizeof(double), dev);
  double esum = 0;
  if (e != NULL) {
    #pragma omp target teams distribute parallel for is_device_ptr(e) device(dev)
    for (int i = 0; i < N; ++i) e[i] = 2.0;
    #pragma omp dispatch
    esum = sum(e, N);
    omp_target_free(e, dev);
  }
  printf("unmapped pointer kept: %s\n", esum == 2.0 * N ? "ok" : "WRONG");
  failures += esum != 2.0 * N;

  /* 8. depend: the dispatch waits for the sibling task that writes its input */
  double b[N];
  for (int i = 0; i < N; ++i) b[i] = 0;
  double bsum = 0;
  #pragma omp parallel num_threads(2)
  #pragma omp single
  {
    #pragma omp task depend(out: b)
    for (int i = 0; i < N; ++i) b[i] = 1;
    #pragma omp dispatch depend(in: b) nowait
    bsum = host_sum(b, N);
  }
  printf("depend on the dispatch: %s\n", bsum == N ? "ok" : "WRONG");
  failures += bsum != N;

  /* 9. the base function outside dispatch, the dispatch variant inside */
  int outside = picked(1), inside = 0;
  #pragma omp dispatch
  inside = picked(1);
  printf("base function outside: %d, dispatch variant inside: %d\n", outside, inside);
  failures += outside != 1 || inside != 201;

  /* 10. a function without variants: the call itself */
  #pragma omp dispatch
  r = plain(5);
  printf("no variant: %d\n", r);
  failures += r != 15;

  printf("%s\n", failures ? "FAIL" : "PASS");
  return failures != 0;
}
