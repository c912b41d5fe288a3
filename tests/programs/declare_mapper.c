/* declare mapper (OpenMP 5.0): a default mapper and a named one for struct types with pointer
   members; explicit maps, target enter/exit data and an implicit map all use them. */
#include <stdio.h>
#include <stdlib.h>

typedef struct { int len; double *data; } vec_t;
struct pair { int n; int *a; int *b; };

#pragma omp declare mapper(vec_t v) map(v, v.data[0:v.len])
#pragma omp declare mapper(halves: struct pair p) map(to: p, p.a[0:p.n]) map(from: p.b[0:p.n])

int main(void) {
  vec_t x;
  x.len = 100;
  x.data = malloc(100 * sizeof(double));
  for (int i = 0; i < 100; i++) x.data[i] = i;

  /* explicit map: x and x.data[0:x.len] */
  #pragma omp target map(tofrom: x)
  for (int i = 0; i < x.len; i++) x.data[i] *= 2;
  printf("explicit: x.data[99]=%g\n", x.data[99]);

  /* implicit map (x named in no clause): the default mapper too */
  #pragma omp target
  for (int i = 0; i < x.len; i++) x.data[i] += 1;
  printf("implicit: x.data[99]=%g\n", x.data[99]);

  /* enter/exit data: mapped once, used by a region, copied back at the exit */
  #pragma omp target enter data map(to: x)
  #pragma omp target
  for (int i = 0; i < 100; i++) x.data[i] *= 10;
  #pragma omp target exit data map(from: x)
  printf("enter/exit: x.data[99]=%g\n", x.data[99]);

  /* a named mapper: a copied in, b copied out only */
  struct pair p;
  p.n = 50;
  p.a = malloc(50 * sizeof(int));
  p.b = malloc(50 * sizeof(int));
  for (int i = 0; i < 50; i++) { p.a[i] = i; p.b[i] = -1; }
  #pragma omp target teams distribute parallel for map(mapper(halves), tofrom: p)
  for (int i = 0; i < p.n; i++) p.b[i] = p.a[i] * 3;
  printf("named: p.b[49]=%d p.a[49]=%d\n", p.b[49], p.a[49]);
  free(x.data);
  free(p.a);
  free(p.b);
  return 0;
}
