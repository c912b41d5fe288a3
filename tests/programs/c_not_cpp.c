/* covers: host C that is not valid C++ around target regions: malloc without a cast, sizeof *p, designated initialisers (struct and array), compound literals, variables named new/class/this/template/delete/operator, restrict pointers, implicit void* conversions, _Bool, enum arithmetic, flexible array member, VLA in host code */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct config {
  int n;
  double alpha;
  const char *name;
  int flags[4];
};

enum color { RED = 1, GREEN = 2, BLUE = 4 };

struct bag {
  int count;
  int items[]; /* flexible array member */
};

static void saxpy(int n, double alpha, const double *restrict x, double *restrict y) {
#pragma omp target teams distribute parallel for map(to: x[0:n]) map(tofrom: y[0:n])
  for (int i = 0; i < n; i++) y[i] = alpha * x[i] + y[i];
}

int main(void) {
  struct config cfg = {.n = 500, .alpha = 2.0, .name = "cfg", .flags = {[2] = 7, [0] = 1}};
  int new = 3, class = 4, this = 5, template = 6, delete = 7, operator = 8;
  double *x = malloc(cfg.n * sizeof *x);
  double *y = malloc(cfg.n * sizeof *y);
  void *raw = malloc(16 * sizeof(int));
  int *ints = raw; /* implicit conversion from void * */
  for (int i = 0; i < cfg.n; i++) {
    x[i] = i;
    y[i] = new;
  }
  saxpy(cfg.n, cfg.alpha, x, y);
  double ys = 0;
  for (int i = 0; i < cfg.n; i++) ys += y[i];
  printf("%s: n=%d flags=%d,%d,%d,%d saxpy sum=%.0f\n", cfg.name, cfg.n, cfg.flags[0], cfg.flags[1], cfg.flags[2],
         cfg.flags[3], ys);

  /* C++ keywords as variable names, used inside a target region too */
  int result = 0;
#pragma omp target map(from: result)
  result = new * 1000 + class * 100 + this * 10 + template + delete + operator;
  printf("keyword-named variables: %d\n", result);

  /* designated array initialiser and compound literal */
  int table[8] = {[1] = 10, [5] = 50, [7] = 70};
  int *cl = (int[]){1, 2, 3, 4};
  long tsum = 0;
#pragma omp target map(to: table, cl[0:4]) map(from: tsum)
  {
    long t = 0;
    for (int i = 0; i < 8; i++) t += table[i];
    for (int i = 0; i < 4; i++) t += cl[i] * 1000;
    tsum = t;
  }
  printf("designated + compound literal: %ld\n", tsum);

  /* _Bool, enum arithmetic */
  _Bool flags[16];
  enum color c = RED | BLUE;
  int cc = c;
#pragma omp target map(from: flags) firstprivate(cc)
  for (int i = 0; i < 16; i++) flags[i] = (i & cc) != 0;
  int nset = 0;
  for (int i = 0; i < 16; i++) nset += flags[i];
  printf("bool/enum: set=%d\n", nset);

  /* flexible array member allocated with malloc, data mapped through a pointer to the items */
  struct bag *bg = malloc(sizeof *bg + 10 * sizeof bg->items[0]);
  bg->count = 10;
  for (int i = 0; i < 10; i++) bg->items[i] = i * i;
  int *items = bg->items;
  int cnt = bg->count;
#pragma omp target map(tofrom: items[0:cnt])
  for (int i = 0; i < cnt; i++) items[i] += 1;
  int isum = 0;
  for (int i = 0; i < bg->count; i++) isum += bg->items[i];
  printf("flexible array: sum=%d\n", isum);

  /* VLA on the host, mapped by section */
  int vn = 12;
  int vla[vn];
  for (int i = 0; i < vn; i++) vla[i] = i;
#pragma omp target map(tofrom: vla[0:vn])
  for (int i = 0; i < vn; i++) vla[i] *= 2;
  int vs = 0;
  for (int i = 0; i < vn; i++) vs += vla[i];
  memset(ints, 0, 16 * sizeof *ints);
  printf("vla: sum=%d\n", vs);
  int pass = ys == 2.0 * 124750 + 1500 && result == 3000 + 400 + 50 + 6 + 7 + 8 && tsum == 130 + 10000 && nset == 12 &&
             isum == 295 && vs == 132;
  printf("%s\n", pass ? "PASS" : "FAIL");
  free(x);
  free(y);
  free(raw);
  free(bg);
  return 0;
}
