/* covers: OpenMP 5.0 defaultmap implicit behaviours and categories: to/from/tofrom/alloc/firstprivate/default/none
   for scalar and aggregate (arrays and structs), firstprivate and none for pointer, a clause without a category,
   on target and on a combined target teams distribute parallel for. No variable that the device may not write
   back is printed after the region, so the output is the same wherever the region runs. */
#include <stdio.h>

struct pair { int a, b; };

int main(void) {
  int k = 5, out[4] = {0, 0, 0, 0};
  int arr[8], scratch[8], fp[4] = {1, 2, 3, 4};
  struct pair s = {3, 4}, t = {10, 20};
  int *p = fp;
  double x = 1.5;

  /* to: scalar: the device reads k */
#pragma omp target defaultmap(to: scalar) map(from: out)
  out[0] = k * 2;
  printf("to scalar: %d\n", out[0]);

  /* from: aggregate: arr is written on the device and comes back */
#pragma omp target defaultmap(from: aggregate)
  for (int i = 0; i < 8; i++) arr[i] = i * i;
  printf("from aggregate: %d %d %d\n", arr[1], arr[4], arr[7]);

  /* alloc: aggregate: scratch lives on the device only; the sum comes back through out */
#pragma omp target defaultmap(alloc: aggregate) map(tofrom: out[0:4])
  {
    for (int i = 0; i < 8; i++) scratch[i] = 2 * i;
    int sum = 0;
    for (int i = 0; i < 8; i++) sum += scratch[i];
    out[1] = sum;
  }
  printf("alloc aggregate: %d\n", out[1]);

  /* firstprivate: aggregate: the device works on its own copies of fp and t */
#pragma omp target defaultmap(firstprivate: aggregate) map(from: out[0:4])
  {
    fp[0] += 100;
    t.a += 1;
    out[2] = fp[0] + fp[3] + t.a + t.b;
  }
  printf("firstprivate aggregate: %d (host fp[0]=%d t.a=%d)\n", out[2], fp[0], t.a);

  /* tofrom: aggregate on a struct; tofrom: scalar: both come back */
#pragma omp target defaultmap(tofrom: aggregate) defaultmap(tofrom: scalar)
  {
    s.a += 1;
    s.b *= 2;
    x *= 2.0;
  }
  printf("tofrom: s=(%d,%d) x=%.1f\n", s.a, s.b, x);

  /* no category: scalars and aggregates; pointers are not used */
#pragma omp target defaultmap(tofrom)
  {
    k += 1;
    arr[0] = 42;
  }
  printf("tofrom, no category: k=%d arr[0]=%d\n", k, arr[0]);

  /* firstprivate: pointer: the device gets the host address as a value (not dereferenced) */
#pragma omp target defaultmap(firstprivate: pointer) map(from: out[0:4])
  out[3] = p != 0;
  printf("firstprivate pointer: %d\n", out[3]);

  /* none: every variable the region uses is listed; default: the usual rules */
  int m = 7;
#pragma omp target defaultmap(none) firstprivate(m) map(tofrom: out[0:4])
  out[0] = m + 1;
#pragma omp target defaultmap(default: scalar) map(from: arr)
  for (int i = 0; i < 8; i++) arr[i] = m;
  printf("none: %d default: %d\n", out[0], arr[5]);

  /* a combined construct: the loop's own variable needs no clause under defaultmap(none) */
  int i, sq[16];
#pragma omp target teams distribute parallel for defaultmap(none) map(from: sq)
  for (i = 0; i < 16; i++) sq[i] = i * i;
  printf("combined none: %d %d\n", sq[3], sq[15]);
  return 0;
}
