/* unstructured data directives: enter/exit data with every map type, several items per clause, sections, scalars, structs, motion clauses to/from with several items and sections, device and if clauses, always modifier */
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  int n;
  double *v;
} vec_t;

static vec_t make(int n) {
  vec_t x = {n, calloc(n, sizeof(double))};
#pragma omp target enter data map(to: x) map(alloc: x.v[0:n])
  return x;
}

int main(void) {
  int n = 1000, steps = 3;
  double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
  double s = 0.0;
  for (int i = 0; i < n; i++) a[i] = b[i] = c[i] = i;

#pragma omp target enter data map(to: a[0:n], b[0:n]) map(alloc: c[0:n]) map(to: n, steps)
#pragma omp target enter data map(always, to: a[0:n]) device(0)
#pragma omp target enter data map(to: s) if(n > 0)

  for (int t = 0; t < steps; t++) {
#pragma omp target teams distribute parallel for map(a[0:n], b[0:n], c[0:n])
    for (int i = 0; i < n; i++) c[i] = a[i] + t * b[i];
#pragma omp target update from(c[0:n / 2]) from(c[n / 2:n - n / 2])
#pragma omp target update to(a[1:n - 2], b[0:1]) from(s)
  }
#pragma omp target update from(a[0:n], b[0:n]) to(s) device(0) if(steps > 1)

#pragma omp target exit data map(from: c[0:n]) map(release: a[0:n]) map(delete: b[0:n])
#pragma omp target exit data map(release: a[0:n]) map(delete: n, steps)
#pragma omp target exit data map(always, from: s)
  vec_t v = make(16);
#pragma omp target update to(v.v[0:v.n])
#pragma omp target exit data map(from: v.v[0:v.n]) map(release: v)
  printf("%f %f\n", c[n - 1], s);
  free(a);
  free(b);
  free(c);
  free(v.v);
  return 0;
}
