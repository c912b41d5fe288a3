/* covers: declare target functions: static and static inline helpers, pointer and array parameters, struct return values, a recursive function (small depth), function pointers taken and called in device code, the same function called on the host and in target regions, a function with a local static-free accumulator called from parallel for */
#include <stdio.h>

typedef struct {
  int lo, hi;
} range_t;

#pragma omp declare target
static inline int clamp(int x, int lo, int hi) { return x < lo ? lo : (x > hi ? hi : x); }

static range_t minmax(const int *v, int n) {
  range_t r = {v[0], v[0]};
  for (int i = 1; i < n; i++) {
    if (v[i] < r.lo) r.lo = v[i];
    if (v[i] > r.hi) r.hi = v[i];
  }
  return r;
}

static int gcd(int a, int b) { return b == 0 ? a : gcd(b, a % b); } /* recursion */

static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); } /* recursion, depth <= 15 */

static int op_add(int a, int b) { return a + b; }
static int op_mul(int a, int b) { return a * b; }
static int op_max(int a, int b) { return a > b ? a : b; }

static void fill_row(int *row, int n, int seed) {
  for (int i = 0; i < n; i++) row[i] = clamp((seed * 31 + i * 17) % 200 - 50, 0, 100);
}
#pragma omp end declare target

#define NROWS 32
#define NCOLS 50

int main(void) {
  static int m[NROWS][NCOLS];
  range_t rr[NROWS];
  int g[NROWS];
  long fibs[16];

#pragma omp target teams distribute parallel for map(from: m, rr, g)
  for (int r = 0; r < NROWS; r++) {
    fill_row(m[r], NCOLS, r);
    rr[r] = minmax(m[r], NCOLS);
    g[r] = gcd(m[r][0] + 12, m[r][1] + 18);
  }

#pragma omp target map(from: fibs)
  for (int i = 0; i < 16; i++) fibs[i] = fib(i);

  /* function pointers chosen on the device */
  int folded[3];
#pragma omp target map(from: folded)
  {
    int (*ops[3])(int, int) = {op_add, op_mul, op_max};
    for (int k = 0; k < 3; k++) {
      int acc = k == 1 ? 1 : 0;
      for (int i = 1; i <= 10; i++) acc = ops[k](acc, i);
      folded[k] = acc;
    }
  }

  /* host calls of the same functions */
  int ok = 1;
  int hrow[NCOLS];
  for (int r = 0; r < NROWS; r++) {
    fill_row(hrow, NCOLS, r);
    range_t h = minmax(hrow, NCOLS);
    if (h.lo != rr[r].lo || h.hi != rr[r].hi || gcd(hrow[0] + 12, hrow[1] + 18) != g[r]) ok = 0;
    for (int c = 0; c < NCOLS; c++)
      if (hrow[c] != m[r][c]) ok = 0;
  }
  long gs = 0, ms = 0;
  for (int r = 0; r < NROWS; r++) {
    gs += g[r];
    for (int c = 0; c < NCOLS; c++) ms += m[r][c];
  }
  printf("rows: sum=%ld range[3]=[%d,%d] gcd sum=%ld\n", ms, rr[3].lo, rr[3].hi, gs);
  printf("fib(15)=%ld fib(10)=%ld\n", fibs[15], fibs[10]);
  printf("function pointers: add=%d mul=%d max=%d\n", folded[0], folded[1], folded[2]);
  printf("%s\n", ok && fibs[15] == 610 && folded[0] == 55 && folded[1] == 3628800 && folded[2] == 10 ? "PASS" : "FAIL");
  return 0;
}
