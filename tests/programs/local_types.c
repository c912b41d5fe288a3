/* covers: types declared inside functions and used in target regions: typedef'd anonymous struct, tagged struct and union, enum with explicit values, anonymous enum constants as loop bounds and array sizes, array typedef, an anonymous-struct variable captured by a region, types declared inside the target region itself and inside a declare target function, the same typedef in two functions, a variable-length typedef that stays on the host; in map clauses, local variables, casts, sizeof and loop bounds */
#include <stdio.h>

#pragma omp declare target
static double weigh(double x) {
  typedef struct { double w; int n; } acc_t;
  enum { SCALE = 3 };
  acc_t a = {x, SCALE};
  return a.w * a.n;
}
#pragma omp end declare target

static int count_kinds(int n) {
  typedef struct { int key; double val; } item_t;  /* the same typedef as in main */
  enum kind { SMALL = 1, LARGE = 10 };
  int total = 0;
#pragma omp target map(tofrom: total)
  for (int i = 0; i < n; i++) {
    item_t it = {i, 0.0};
    enum kind k = it.key < n / 2 ? SMALL : LARGE;
    total += (int)k;
  }
  return total;
}

int main(void) {
  typedef struct { int key; double val; } item_t;
  struct pair { int a, b; };
  union bits { float f; unsigned u; };
  enum color { RED, GREEN = 5, BLUE };
  enum { N = 37, M = 4 };
  typedef double vec3[3];
  item_t items[N];
  struct pair pairs[N];
  vec3 dirs[M];
  struct { int lo, hi; } window = {3, 30};
  int n = N;
  typedef double row_t[n]; /* variably modified: host only */
  row_t host_row;
  for (int i = 0; i < n; i++) host_row[i] = i;
  for (int i = 0; i < N; i++) {
    items[i].key = i;
    items[i].val = 0.5 * i;
    pairs[i].a = i;
    pairs[i].b = -2 * i;
  }
  for (int j = 0; j < M; j++)
    for (int c = 0; c < 3; c++) dirs[j][c] = j + c;

  double sum = 0.0;
  long colors = 0, inside = 0;
  int sizes_ok = 0;
#pragma omp target teams distribute parallel for map(tofrom: items[0:N], pairs) map(to: dirs, window) \
    reduction(+: sum, colors, inside)
  for (int i = 0; i < N; i++) {
    item_t it = items[i];
    struct pair p = pairs[i];
    union bits b;
    b.f = 1.0f;
    enum color c = (i % 2) ? GREEN : BLUE;
    vec3 *d = &dirs[i % M];
    sum += it.val + (double)(p.a + p.b) + (double)(int)(enum color)RED + (*d)[2] + (b.u == 0x3f800000u);
    colors += c;
    inside += (i >= window.lo && i < window.hi);
    items[i].key = (int)sizeof(item_t) + p.a;
  }
#pragma omp target map(from: sizes_ok)
  {
    typedef struct { char tag; int value; } cell_t;
    enum { CELLS = 5 };
    cell_t cells[CELLS];
    int total = 0;
    for (int k = 0; k < CELLS; k++) {
      cells[k].tag = (char)('a' + k);
      cells[k].value = k * k;
      total += cells[k].value + (cells[k].tag - 'a');
    }
    sizes_ok = total == 40 && sizeof(struct pair) == 2 * sizeof(int) && (int)weigh(2.0) == 6;
  }
  double host_sum = 0.0;
  for (int i = 0; i < n; i++) host_sum += host_row[i];
  printf("sum=%.1f colors=%ld inside=%ld key3=%d\n", sum, colors, inside, items[3].key);
  printf("sizes_ok=%d kinds=%d host_row=%.1f\n", sizes_ok, count_kinds(10), host_sum);
  /* the serial reference */
  double ref_sum = 0.0;
  for (int i = 0; i < N; i++)
    ref_sum += 0.5 * i + (double)(i - 2 * i) + (double)RED + dirs[i % M][2] + 1.0;
  int ok = sum == ref_sum && colors == 18 * GREEN + 19 * BLUE && inside == 27 &&
           items[3].key == (int)sizeof(item_t) + 3 && sizes_ok == 1 && count_kinds(10) == 55;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return 0;
}
