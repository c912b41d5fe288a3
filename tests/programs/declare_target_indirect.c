/* covers: declare target to(...) indirect, begin declare target indirect, indirect(1), function pointers made on the host called in target regions (implicit firstprivate, mapped arrays of them, struct members, parameters of declare target functions), in teams/parallel loops, pointers taken in device code, OpenMP 5.1 pointer initialization (no mapped storage: the pointer keeps its value) */
/* declare target ... indirect (OpenMP 5.1): a function pointer holding the host's address of
   an indirect function may be called in a target region, which runs the device's copy. Each
   function says where it runs (omp_is_initial_device), and the region checks that it is where
   the region runs: the device's copy on a GPU, the host's in a host fallback. */
#include <omp.h>
#include <stdio.h>

#define N 64

typedef int (*unary_fn)(int);

int add_one(int x) { return x + 1 + 1000 * omp_is_initial_device(); }
int twice(int x) { return 2 * x + 1000 * omp_is_initial_device(); }
static int square(int x) { return x * x + 1000 * omp_is_initial_device(); }
#pragma omp declare target to(add_one, twice, square) indirect

#pragma omp begin declare target indirect
int negate(int x) { return -x + 1000 * omp_is_initial_device(); }
int triple(int x) { return 3 * x + 1000 * omp_is_initial_device(); }
#pragma omp end declare target

int cube(int x) { return x * x * x + 1000 * omp_is_initial_device(); }
#pragma omp declare target to(cube) indirect(1)

/* not indirect: device code may call it directly and through pointers it takes itself */
#pragma omp declare target
int halve(int x) { return x / 2 + 1000 * omp_is_initial_device(); }
int apply_twice(unary_fn f, int x) { return f(f(x)); }
#pragma omp end declare target

struct op {
  const char *name;
  unary_fn fn;
  int arg;
};

/* what f(x) is where the code runs: `host` is 1 in a host fallback */
static int expected(unary_fn f, int x, int host) {
  int r = f(x) - 1000 * omp_is_initial_device();
  return r + 1000 * host;
}

int main(void) {
  int failures = 0;

  /* 1. one pointer, chosen on the host, used in the region without a clause */
  unary_fn chosen = N > 32 ? twice : add_one;
  int r = 0, host = 1;
  #pragma omp target map(from: r, host)
  {
    host = omp_is_initial_device();
    r = chosen(20);
  }
  printf("implicit pointer: %s\n", r == expected(twice, 20, host) ? "ok" : "WRONG");
  failures += r != expected(twice, 20, host);

  /* 2. an array of pointers mapped to the device, called from every iteration of a team loop */
  unary_fn table[6] = {add_one, twice, square, negate, triple, cube};
  int out[N], where[N];
  #pragma omp target teams distribute parallel for map(to: table) map(from: out, where)
  for (int i = 0; i < N; ++i) {
    where[i] = omp_is_initial_device();
    out[i] = table[i % 6](i);
  }
  int bad = 0;
  for (int i = 0; i < N; ++i) bad += out[i] != expected(table[i % 6], i, where[i]);
  printf("mapped table in a parallel loop: %s\n", bad ? "WRONG" : "ok");
  failures += bad != 0;

  /* 3. pointers in a mapped array of structs, a region in generic mode (serial code around a
        parallel region) */
  struct op ops[4] = {{"square", square, 7}, {"negate", negate, 5}, {"cube", cube, 3}, {"triple", triple, 11}};
  int results[4] = {0, 0, 0, 0};
  #pragma omp target teams num_teams(1) map(to: ops) map(tofrom: results) map(from: host)
  {
    host = omp_is_initial_device();
    int base = ops[0].fn(2);   /* serial code of the team */
    #pragma omp parallel for num_threads(4)
    for (int k = 0; k < 4; ++k)
      results[k] = ops[k].fn(ops[k].arg) + base;
  }
  bad = 0;
  for (int k = 0; k < 4; ++k) {
    int want = expected(ops[k].fn, ops[k].arg, host) + expected(square, 2, host);
    printf("  %s(%d) + square(2): %s\n", ops[k].name, ops[k].arg, results[k] == want ? "ok" : "WRONG");
    bad += results[k] != want;
  }
  failures += bad != 0;

  /* 4. a host pointer passed on to a declare target function that calls it; a pointer taken
        in device code (the device's address already) through the same function */
  int via_param = 0, via_device = 0;
  unary_fn t = triple;
  #pragma omp target map(from: via_param, via_device, host)
  {
    host = omp_is_initial_device();
    via_param = apply_twice(t, 2);   /* triple(triple(2)) */
    unary_fn h = halve;
    via_device = apply_twice(h, 40);   /* halve(halve(40)) */
  }
  int want_param = host ? 3 * (3 * 2 + 1000) + 1000 : 18;
  int want_device = host ? (40 / 2 + 1000) / 2 + 1000 : 10;
  printf("pointer parameter: %s\n", via_param == want_param ? "ok" : "WRONG");
  printf("pointer taken in device code: %s\n", via_device == want_device ? "ok" : "WRONG");
  failures += (via_param != want_param) + (via_device != want_device);

  /* 5. a pointer that is NULL on the host stays NULL on the device */
  unary_fn none = 0;
  int was_null = 0;
  #pragma omp target map(from: was_null)
  was_null = none == 0;
  printf("null pointer: %s\n", was_null ? "ok" : "WRONG");
  failures += !was_null;

  /* 6. OpenMP 5.1: a pointer into no mapped storage keeps its value in the region; here device
        memory from omp_target_alloc, used without is_device_ptr */
  int dev_num = omp_get_default_device();
  int *buffer = (int *)omp_target_alloc(N * sizeof(int), dev_num);
  int sum = -1;
  if (buffer != NULL) {
    #pragma omp target teams distribute parallel for device(dev_num)
    for (int i = 0; i < N; ++i) buffer[i] = i;
    #pragma omp target device(dev_num) map(from: sum)
    {
      sum = 0;
      for (int i = 0; i < N; ++i) sum += buffer[i];
    }
    omp_target_free(buffer, dev_num);
  }
  printf("omp_target_alloc pointer without a clause: %s\n", sum == N * (N - 1) / 2 ? "ok" : "WRONG");
  failures += sum != N * (N - 1) / 2;

  printf("%s\n", failures ? "FAIL" : "PASS");
  return failures != 0;
}
