/* covers: defaultmap in every OpenMP 5.0/5.1 form: none with explicit maps of a scalar, an array,
   a struct and a pointer section (and firstprivate and is_device_ptr items); a behaviour without a
   category (firstprivate, to, from, tofrom, alloc, present) covering every variable, pointers
   included (a pointer keeps the host's value, its own storage is what is mapped); present for the
   scalar and aggregate categories on data an enclosing construct mapped; per-category clauses */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <omp.h>

struct pt { int x, y; };

int main(void) {
  int s = 5, arr[8];
  struct pt p = {1, 2};
  double *v = malloc(8 * sizeof(double));
  for (int i = 0; i < 8; i++) { arr[i] = i; v[i] = i; }
  int scale = 3;

  /* none: every variable the region uses is listed */
#pragma omp target defaultmap(none) map(tofrom: s, arr, p) map(tofrom: v[0:8]) firstprivate(scale)
  {
    s += arr[3] + p.x;
    p.y = 10 * scale;
    arr[7] = 70;
    for (int i = 0; i < 8; i++) v[i] *= 2;
  }
  printf("none: s %d arr[7] %d p.y %d v[7] %g\n", s, arr[7], p.y, v[7]);

  double *dv = (double *)omp_target_alloc(8 * sizeof(double), omp_get_default_device());
#pragma omp target defaultmap(none) is_device_ptr(dv) map(tofrom: v[0:8])
  {
    for (int i = 0; i < 8; i++) dv[i] = v[i] + 1;
    for (int i = 0; i < 8; i++) v[i] = dv[i];
  }
  omp_target_free(dv, omp_get_default_device());
  printf("none with is_device_ptr: v[7] %g\n", v[7]);

  /* firstprivate without a category: scalars, arrays (the region's own copy) and pointers (the
     host's value, kept) */
  int t = 3;
  int *q = arr;
  uintptr_t host_q = (uintptr_t)q, same_fp = 0;
#pragma omp target defaultmap(firstprivate) map(from: same_fp)
  {
    t += 1;
    arr[0] = 100;
    same_fp = (uintptr_t)q == host_q;
  }
  printf("firstprivate: t %d arr[0] %d pointer kept %d\n", t, arr[0], (int)same_fp);

  /* tofrom without a category: scalars and arrays written back; a pointer's own storage mapped */
  uintptr_t same_tf = 0;
#pragma omp target defaultmap(tofrom)
  {
    t += 1;
    arr[1] = 11;
    same_tf = (uintptr_t)q == host_q;
  }
  printf("tofrom: t %d arr[1] %d pointer value %d\n", t, arr[1], (int)same_tf);

  /* to and from without a category, alloc for the scalars */
  int in = 7, out = 0;
#pragma omp target defaultmap(to) map(from: out)
  { out = in * 2; in = 0; }
  int got = -1;
#pragma omp target defaultmap(from) map(to: in)
  { got = in + 1; }
  int scratch = 0, copy = 0;
#pragma omp target defaultmap(alloc: scalar) map(from: copy)
  { scratch = 41; copy = scratch + 1; }
  printf("to: out %d in %d; from: got %d; alloc: copy %d\n", out, in, got, copy);

  /* present: data an enclosing construct mapped */
  int count = 1;
#pragma omp target enter data map(to: count)
#pragma omp target data map(tofrom: arr)
  {
#pragma omp target defaultmap(present: aggregate) defaultmap(present: scalar)
    {
      arr[2] = 22;
      count += 1;
    }
#pragma omp target defaultmap(present)
    arr[3] = 33 + count;
  }
#pragma omp target exit data map(from: count)
  printf("present: arr[2] %d arr[3] %d count %d\n", arr[2], arr[3], count);

  /* per-category clauses side by side */
  int k = 1;
  uintptr_t same_pc = 0;
#pragma omp target defaultmap(tofrom: scalar) defaultmap(to: aggregate) defaultmap(firstprivate: pointer)
  {
    k += arr[4];
    arr[4] = -1;
    same_pc = (uintptr_t)q == host_q;
  }
  printf("categories: k %d arr[4] %d pointer kept %d\n", k, arr[4], (int)same_pc);
  free(v);
  return 0;
}
