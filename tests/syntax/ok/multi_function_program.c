/* a program split into many functions the way real codes are: prototypes first, static and extern globals, helpers called from several target regions, target regions in functions taking pointers and sizes, recursion on the host */
#include <stdio.h>
#include <stdlib.h>

typedef struct solver solver_t;
struct solver {
  int n;
  double *x, *r;
  double tol;
};

static solver_t *solver_new(int n, double tol);
static void solver_free(solver_t *s);
static double residual(const solver_t *s);
static void relax(solver_t *s, int sweeps);
static int count_partitions(int n, int k);
extern int verbosity;
int verbosity = 0;

#pragma omp declare target
static double weight(int i, int n);
#pragma omp end declare target

static double weight(int i, int n) { return 1.0 + (double)i / n; }

static solver_t *solver_new(int n, double tol) {
  solver_t *s = malloc(sizeof *s);
  s->n = n;
  s->tol = tol;
  s->x = calloc(n, sizeof *s->x);
  s->r = calloc(n, sizeof *s->r);
  double *x = s->x;
#pragma omp target enter data map(to: x[0:n])
  return s;
}

static void solver_free(solver_t *s) {
  double *x = s->x;
  int n = s->n;
#pragma omp target exit data map(from: x[0:n])
  free(s->x);
  free(s->r);
  free(s);
}

static double residual(const solver_t *s) {
  double *x = s->x, *r = s->r, res = 0.0;
  int n = s->n;
#pragma omp target teams distribute parallel for reduction(max: res) map(from: r[0:n]) map(tofrom: res)
  for (int i = 1; i < n - 1; i++) {
    r[i] = weight(i, n) - (2.0 * x[i] - x[i - 1] - x[i + 1]);
    res = r[i] > res ? r[i] : (-r[i] > res ? -r[i] : res);
  }
  return res;
}

static void relax(solver_t *s, int sweeps) {
  double *x = s->x;
  int n = s->n;
  for (int k = 0; k < sweeps; k++) {
    for (int color = 0; color < 2; color++) {
#pragma omp target teams distribute parallel for firstprivate(color)
      for (int i = 1 + color; i < n - 1; i += 2) x[i] = 0.5 * (weight(i, n) + x[i - 1] + x[i + 1]);
    }
  }
}

static int count_partitions(int n, int k) {
  if (n == 0) return 1;
  if (n < 0 || k == 0) return 0;
  return count_partitions(n - k, k) + count_partitions(n, k - 1);
}

int main(int argc, char **argv) {
  (void)argv;
  solver_t *s = solver_new(128 + argc, 1e-6);
  relax(s, 50);
  double res = residual(s);
  if (verbosity) printf("res=%g\n", res);
  printf("%d %g\n", count_partitions(10, 10), res);
  solver_free(s);
  return 0;
}
