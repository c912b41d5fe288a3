/* function pointers and callbacks in host code around target regions, function pointer typedefs, arrays of function pointers on the device, qsort with a comparator */
#include <stdio.h>
#include <stdlib.h>

typedef double (*unary_fn)(double);
typedef void (*kernel_fn)(double *, int);

#pragma omp declare target
static double twice(double x) { return 2.0 * x; }
static double square(double x) { return x * x; }
static double negate(double x) { return -x; }
#pragma omp end declare target

static void k_twice(double *a, int n) {
#pragma omp target teams distribute parallel for map(tofrom: a[0:n])
  for (int i = 0; i < n; i++) a[i] = twice(a[i]);
}

static void k_apply_table(double *a, int n) {
#pragma omp target teams distribute parallel for map(tofrom: a[0:n])
  for (int i = 0; i < n; i++) {
    unary_fn table[3] = {twice, square, negate};
    a[i] = table[i % 3](a[i]);
  }
}

static int cmp_double(const void *p, const void *q) {
  double x = *(const double *)p, y = *(const double *)q;
  return (x > y) - (x < y);
}

static void run_all(kernel_fn *ks, int nk, double *a, int n) {
  for (int k = 0; k < nk; k++) ks[k](a, n);
}

int main(void) {
  int n = 100;
  double *a = malloc(n * sizeof *a);
  for (int i = 0; i < n; i++) a[i] = i - 50;
  kernel_fn kernels[] = {k_twice, k_apply_table, &k_twice};
  run_all(kernels, (int)(sizeof kernels / sizeof kernels[0]), a, n);
  qsort(a, n, sizeof *a, cmp_double);
  double (*pick)(double) = n > 10 ? square : twice;
  printf("%f %f\n", a[0], pick(a[n - 1]));
  free(a);
  return 0;
}
