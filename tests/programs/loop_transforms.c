/* covers: tile sizes(...) (OpenMP 5.1) alone and under target teams distribute parallel for collapse(2), partial tiles, iteration order; unroll partial(n) under worksharing loops (downward, stepped, a variable declared outside, a != test, a remainder block), unroll partial without a factor, unroll full, unroll alone, tile over unroll partial, the transformations in host code and in generic-mode target regions */
#include <stdio.h>

#define R 5
#define C 7

/* The order tile sizes(2, 3) visits a R x C nest in: the tiles row by row, each tile row by row. */
static int tiled_order_ok(const int *seen, int n) {
  int k = 0;
  for (int ti = 0; ti < R; ti += 2)
    for (int tj = 0; tj < C; tj += 3)
      for (int i = ti; i < ti + 2 && i < R; i++)
        for (int j = tj; j < tj + 3 && j < C; j++)
          if (k >= n || seen[k++] != i * C + j) return 0;
  return k == n;
}

int main(void) {
  int fails = 0;
  int seen[R * C], n = 0;

  /* 1. tile alone, host code: the order of the iterations */
#pragma omp tile sizes(2, 3)
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) seen[n++] = i * C + j;
  printf("host tile order: %s\n", tiled_order_ok(seen, n) ? "ok" : "WRONG");
  fails += !tiled_order_ok(seen, n);

  /* 2. the same in a target region (one thread), braces between the loops */
  n = 0;
#pragma omp target map(tofrom: seen, n)
  {
#pragma omp tile sizes(2, 3)
    for (int i = 0; i < R; i++) {
      for (int j = 0; j < C; j++) {
        seen[n] = i * C + j;
        n++;
      }
    }
  }
  printf("device tile order: %s\n", tiled_order_ok(seen, n) ? "ok" : "WRONG");
  fails += !tiled_order_ok(seen, n);

  /* 3. a worksharing loop over the floor loops of a tile: every element once */
  static int a[61][45];
  for (int i = 0; i < 61; i++)
    for (int j = 0; j < 45; j++) a[i][j] = i - j;
#pragma omp target teams distribute parallel for collapse(2) map(tofrom: a)
#pragma omp tile sizes(8, 16)
  for (int i = 0; i < 61; i++)
    for (int j = 0; j < 45; j++) a[i][j] = 3 * a[i][j] + 1;
  long bad = 0;
  for (int i = 0; i < 61; i++)
    for (int j = 0; j < 45; j++) bad += a[i][j] != 3 * (i - j) + 1;
  printf("tiled worksharing: %s\n", bad ? "WRONG" : "ok");
  fails += bad != 0;

  /* 4. unroll partial under a worksharing loop: downward, step 3, 100 iterations (a short last block) */
  static int b[300];
  for (int k = 0; k < 300; k++) b[k] = 0;
#pragma omp target teams distribute parallel for map(tofrom: b)
#pragma omp unroll partial(7)
  for (int k = 299; k >= 2; k -= 3) b[k] += k;
  bad = 0;
  for (int k = 0; k < 300; k++) bad += b[k] != ((k % 3 == 2) ? k : 0);
  printf("unrolled downward: %s\n", bad ? "WRONG" : "ok");
  fails += bad != 0;

  /* 5. a reduction over an unrolled loop whose variable is declared outside, with a != test */
  long sum = 0;
  int m;
#pragma omp target teams distribute parallel for reduction(+: sum) map(tofrom: sum)
#pragma omp unroll partial
  for (m = 0; m != 1001; m++) sum += m;
  printf("unrolled reduction: %ld\n", sum);
  fails += sum != 500500;

  /* 6. tile over unroll partial, in a generic-mode region (serial code around it), and unroll
        full and unroll alone in its serial code */
  long t = 0;
#pragma omp target map(tofrom: t)
  {
    long local = 0;
#pragma omp parallel for reduction(+: local)
#pragma omp tile sizes(4)
#pragma omp unroll partial(3)
    for (int k = 0; k < 50; k++) local += k;
#pragma omp unroll full
    for (int k = 0; k < 10; k++) local += 1000;
#pragma omp unroll
    for (int k = 0; k < 10; k++) local += 100000;
    t = local;
  }
  printf("nested transformations: %ld\n", t);
  fails += t != 1225 + 10000 + 1000000;

  printf("%s\n", fails ? "FAIL" : "PASS");
  return fails != 0;
}
