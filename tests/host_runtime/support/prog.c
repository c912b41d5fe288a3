/* Test driver for the ompgpu host runtime, written in C against ompgpu_host.h.
 * `prog <scenario> [args]`: runs one scenario; exit 0 = pass, 2 = a CHECK failed.
 * Built against the runtime compiled in emulator mode (the real cuda_emu.h or the test
 * mock), where "device memory" is host-addressable, so the scenarios read device copies
 * directly and the fake launch functions below play the kernels. */
#include "ompgpu_host.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tc_err_launch_failure(void);
int tc_live_allocations(void);
long long tc_malloc_calls(void);
long long tc_used_bytes(void);
long long tc_stream_calls(int which);   /* 0: cudaStreamSynchronize, 1: cudaStreamWaitEvent */
/* the runtime's test hook (device_cache.cpp): blocks in a device's memory cache */
int ompgpu_debug_device_cache(int device, long long *bytes);

#define CHECK(c)                                                                  \
  do {                                                                            \
    if (!(c)) {                                                                   \
      fprintf(stderr, "CHECK failed at prog.c:%d: %s\n", __LINE__, #c);           \
      exit(2);                                                                    \
    }                                                                             \
  } while (0)

#define DEF OMPGPU_DEVICE_DEFAULT
#define TO OMPGPU_MAP_TO
#define FROM OMPGPU_MAP_FROM
#define ARG OMPGPU_MAP_ARG

static ompgpu_srcloc LOC = {"prog.c", 10, 9, "target data"};
static ompgpu_srcloc ENTER = {"prog.c", 20, 9, "target enter data"};
static ompgpu_srcloc EXIT = {"prog.c", 30, 9, "target exit data"};
static ompgpu_srcloc UPD = {"prog.c", 40, 9, "target update"};

static ompgpu_map_entry ent(void *base, void *begin, long long size, int flags, const char *name) {
  ompgpu_map_entry e;
  e.base = base;
  e.begin = begin;
  e.size = size;
  e.flags = flags;
  e.name = name;
  return e;
}

static int launch_ok(const ompgpu_launch_config *cfg, void **args) {
  (void)cfg;
  (void)args;
  return 0;
}

static ompgpu_kernel_desc kdesc(ompgpu_launch_fn fn) {
  ompgpu_kernel_desc k;
  memset(&k, 0, sizeof k);
  k.name = "__omp_offloading_main_l12";
  k.file = "prog.c";
  k.line = 12;
  k.col = 9;
  k.mode = OMPGPU_MODE_GENERIC;
  k.launch = fn;
  k.max_threads = 1024;
  return k;
}

static double *dev_of(void *p) { return (double *)ompgpu_get_device_ptr(&LOC, DEF, p); }
static int present(void *p) { return ompgpu_omp_target_is_present(p, ompgpu_omp_get_default_device()); }
/* blocks kept by the runtime's device memory caches (OMPGPU_DEVICE_CACHE_BYTES), all devices */
static int cached_blocks(void) {
  int d, n = 0;
  for (d = 0; d < ompgpu_omp_get_num_devices(); ++d) {
    int c = ompgpu_debug_device_cache(d, NULL);
    if (c > 0) n += c;
  }
  return n;
}
/* everything unmapped: the only device memory left is what the cache keeps */
static void check_no_allocations(void) {
  int n = tc_live_allocations();
  CHECK(n == -1 || n == cached_blocks());
}

/* ------------------------------------------------------------------ data regions */

static int t_refcount(void) {
  double a[100];
  int i;
  for (i = 0; i < 100; ++i) a[i] = i;
  ompgpu_map_entry m[1];
  m[0] = ent(a, a, sizeof a, TO | FROM, "a[0:100]");
  CHECK(!present(a));
  ompgpu_target_data_begin(&LOC, DEF, 1, 1, m);
  CHECK(present(a) && present(&a[99]) && !present(&a[100]));
  double *d = dev_of(a);
  CHECK(d && d != a && d[5] == 5 && d[99] == 99);
  a[5] = 50;                                      /* host change: not copied again */
  ompgpu_target_data_begin(&LOC, DEF, 1, 1, m);   /* nested: refcount 2 */
  CHECK(dev_of(a) == d && d[5] == 5);
  d[6] = 60;                                      /* device change */
  ompgpu_target_data_end(&LOC, DEF, 1, 1, m);     /* refcount 1: no copy back */
  CHECK(present(a) && a[6] == 6);
  ompgpu_target_data_end(&LOC, DEF, 1, 1, m);     /* refcount 0: copy back, free */
  CHECK(!present(a) && a[6] == 60 && a[5] == 5);
  check_no_allocations();
  /* if(false): nothing happens */
  ompgpu_target_data_begin(&LOC, DEF, 0, 1, m);
  CHECK(!present(a));
  return 0;
}

static int t_subsection(void) {
  double a[100];
  int i;
  for (i = 0; i < 100; ++i) a[i] = i;
  ompgpu_map_entry outer = ent(a, a, sizeof a, TO, "a[0:100]");
  ompgpu_map_entry inner = ent(a, a + 10, 20 * sizeof(double), TO | FROM, "a[10:20]");
  ompgpu_target_data_begin(&LOC, DEF, 1, 1, &outer);
  double *d = dev_of(a);
  CHECK(dev_of(a + 10) == d + 10 && dev_of(a + 99) == d + 99);
  a[15] = -1;
  ompgpu_target_data_begin(&LOC, DEF, 1, 1, &inner);   /* present: no allocation, no copy */
  CHECK(dev_of(a + 10) == d + 10 && d[15] == 15);
  d[16] = -16;
  ompgpu_target_data_end(&LOC, DEF, 1, 1, &inner);     /* refcount 1 again: no copy back */
  CHECK(a[16] == 16 && present(a));
  ompgpu_target_data_end(&LOC, DEF, 1, 1, &outer);     /* to only: no copy back */
  CHECK(!present(a) && a[16] == 16 && a[15] == -1);
  check_no_allocations();
  return 0;
}

static int t_overlap(const char *which) {
  static double a[300];
  ompgpu_map_entry first, second;
  if (!strcmp(which, "end")) {           /* the new section starts inside, ends beyond */
    first = ent(a, a, 100 * sizeof(double), TO, "a[0:100]");
    second = ent(a, a, 200 * sizeof(double), TO, "a[0:200]");
  } else {                               /* it starts before and reaches into the mapping */
    first = ent(a, a + 50, 100 * sizeof(double), TO, "a[50:100]");
    second = ent(a, a, 100 * sizeof(double), TO, "a[0:100]");
  }
  ompgpu_target_data_begin(&LOC, DEF, 1, 1, &first);
  ompgpu_target_data_begin(&LOC, DEF, 1, 1, &second);
  return 3; /* not reached */
}

static int t_always(void) {
  double a[10] = {0};
  ompgpu_map_entry m = ent(a, a, sizeof a, TO | FROM, "a");
  ompgpu_map_entry at = ent(a, a, sizeof a, TO | OMPGPU_MAP_ALWAYS, "a");
  ompgpu_map_entry af = ent(a, a, sizeof a, FROM | OMPGPU_MAP_ALWAYS, "a");
  ompgpu_target_data_begin(&LOC, DEF, 1, 1, &m);
  double *d = dev_of(a);
  a[1] = 11;
  ompgpu_target_data_begin(&LOC, DEF, 1, 1, &at);   /* present, but always: copied */
  CHECK(d[1] == 11);
  d[2] = 22;
  ompgpu_target_data_end(&LOC, DEF, 1, 1, &af);     /* refcount 2 -> 1, always: copied back */
  CHECK(a[2] == 22 && present(a));
  d[3] = 33;
  ompgpu_target_data_end(&LOC, DEF, 1, 1, &m);
  CHECK(a[3] == 33 && !present(a));
  check_no_allocations();
  return 0;
}

static int t_delete_release(void) {
  double a[10] = {0};
  ompgpu_map_entry to = ent(a, a, sizeof a, TO, "a");
  ompgpu_map_entry from = ent(a, a, sizeof a, FROM, "a");
  ompgpu_map_entry rel = ent(a, a, sizeof a, OMPGPU_MAP_RELEASE, "a");
  ompgpu_map_entry del = ent(a, a, sizeof a, OMPGPU_MAP_DELETE, "a");
  double *d;
  /* release decrements without copying */
  ompgpu_target_data_begin(&ENTER, DEF, 1, 1, &to);
  ompgpu_target_data_begin(&ENTER, DEF, 1, 1, &to);
  d = dev_of(a);
  d[0] = 5;
  ompgpu_target_data_end(&EXIT, DEF, 1, 1, &rel);
  CHECK(present(a));
  ompgpu_target_data_end(&EXIT, DEF, 1, 1, &rel);
  CHECK(!present(a) && a[0] == 0);
  /* delete forces the count to 0 */
  ompgpu_target_data_begin(&ENTER, DEF, 1, 1, &to);
  ompgpu_target_data_begin(&ENTER, DEF, 1, 1, &to);
  ompgpu_target_data_begin(&ENTER, DEF, 1, 1, &to);
  ompgpu_target_data_end(&EXIT, DEF, 1, 1, &del);
  CHECK(!present(a));
  /* from copies only at the last reference */
  ompgpu_target_data_begin(&ENTER, DEF, 1, 1, &to);
  ompgpu_target_data_begin(&ENTER, DEF, 1, 1, &to);
  d = dev_of(a);
  d[1] = 7;
  ompgpu_target_data_end(&EXIT, DEF, 1, 1, &from);
  CHECK(present(a) && a[1] == 0);
  ompgpu_target_data_end(&EXIT, DEF, 1, 1, &from);
  CHECK(!present(a) && a[1] == 7);
  /* exit of something not present: nothing */
  ompgpu_target_data_end(&EXIT, DEF, 1, 1, &from);
  ompgpu_target_data_end(&EXIT, DEF, 1, 1, &del);
  check_no_allocations();
  /* enter data inside target data, delete inside: the region's end skips it */
  ompgpu_map_entry tf = ent(a, a, sizeof a, TO | FROM, "a");
  ompgpu_target_data_begin(&LOC, DEF, 1, 1, &tf);
  ompgpu_target_data_end(&EXIT, DEF, 1, 1, &del);
  ompgpu_target_data_end(&LOC, DEF, 1, 1, &tf);
  CHECK(!present(a));
  check_no_allocations();
  return 0;
}

static int t_update(void) {
  double a[10] = {0}, b[10] = {0};
  ompgpu_map_entry alloc = ent(a, a, sizeof a, 0, "a");
  ompgpu_target_data_begin(&LOC, DEF, 1, 1, &alloc);
  double *d = dev_of(a);
  a[3] = 3;
  ompgpu_map_entry up_to = ent(a, a, sizeof a, TO, "a");
  ompgpu_target_update(&UPD, DEF, 1, 1, &up_to);
  CHECK(d[3] == 3);
  d[4] = 44;
  d[5] = 55;
  ompgpu_map_entry up_from = ent(a, a + 4, sizeof(double), FROM, "a[4:1]");   /* sub-section */
  ompgpu_target_update(&UPD, DEF, 1, 1, &up_from);
  CHECK(a[4] == 44 && a[5] == 0);
  ompgpu_map_entry nb = ent(b, b, sizeof b, FROM, "b");   /* not present: skipped */
  ompgpu_target_update(&UPD, DEF, 1, 1, &nb);
  ompgpu_target_update(&UPD, DEF, 0, 1, &up_from);         /* if(false) */
  ompgpu_target_data_end(&LOC, DEF, 1, 1, &alloc);         /* alloc: no copy back */
  CHECK(a[5] == 0 && !present(a));
  check_no_allocations();
  return 0;
}

static int t_present_modifier(void) {
  double b[10];
  ompgpu_map_entry m = ent(b, b, sizeof b, TO | OMPGPU_MAP_PRESENT, "b[0:10]");
  ompgpu_map_entry plain = ent(b, b, sizeof b, TO, "b[0:10]");
  ompgpu_target_data_begin(&LOC, DEF, 1, 1, &plain);
  ompgpu_target_data_begin(&LOC, DEF, 1, 1, &m);   /* fine: present */
  ompgpu_target_data_end(&LOC, DEF, 1, 1, &m);
  ompgpu_target_data_end(&LOC, DEF, 1, 1, &plain);
  ompgpu_target_data_begin(&LOC, DEF, 1, 1, &m);   /* error */
  return 3;
}

/* ------------------------------------------------------------------ kernel arguments */

struct S { int x; double y; };
static double *host_a;
static double host_arr[100];
static double *host_b;
static double *host_unmapped;   /* storage that no construct maps */
static int called;

static int launch_args(const ompgpu_launch_config *cfg, void **args) {
  int i;
  called++;
  CHECK(cfg->num_teams >= 1 && cfg->threads_per_team >= 64);
  int n = *(int *)args[0];                       /* LITERAL */
  double *a = *(double **)args[1];               /* MAP_PTR a[10:20] */
  double *p = *(double **)args[2];               /* ATTACH_ONLY, pointee present (same construct) */
  double *q = *(double **)args[3];               /* ATTACH_ONLY, not present -> its own value (5.1) */
  struct S *s = *(struct S **)args[4];           /* object */
  double *arr = *(double **)args[5];             /* array section of an array: the array's address */
  double *z0 = *(double **)args[6];              /* zero-length section, not present -> its own value */
  double *z1 = *(double **)args[7];              /* zero-length section inside a mapping */
  double *pb = *(double **)args[8];              /* ATTACH_ONLY into an enclosing data region */
  double *ysub = *(double **)args[9];            /* struct member of a mapped struct */
  CHECK(n == 7);
  CHECK(a != NULL && a != host_a);
  for (i = 10; i < 30; ++i) CHECK(a[i] == i);
  CHECK(p == a + 15);
  CHECK(q == host_unmapped);
  CHECK(s != NULL && s->x == 3 && s->y == 2.5);
  CHECK(arr != host_arr);
  for (i = 10; i < 30; ++i) CHECK(arr[i] == 1000 + i);
  CHECK(z0 == host_unmapped);
  CHECK(z1 == a + 12);
  CHECK(pb != NULL && pb != host_b + 3 && *pb == 3);
  CHECK(ysub == &s->y);
  for (i = 10; i < 30; ++i) a[i] *= 2;
  for (i = 10; i < 30; ++i) arr[i] += 100;
  s->x = 42;
  *ysub = 9.5;
  pb[1] = -4;
  return 0;
}

static int t_args(void) {
  int i, n = 7;
  struct S s = {3, 2.5};
  double b[10], unmapped[4];
  double *qptr = unmapped, *zptr = unmapped;
  host_unmapped = unmapped;
  host_a = (double *)malloc(100 * sizeof(double));
  host_b = b;
  for (i = 0; i < 100; ++i) host_a[i] = i, host_arr[i] = 1000 + i;
  for (i = 0; i < 10; ++i) b[i] = i;
  double *p = host_a + 15;
  double *z1 = host_a + 12;
  double *pb = b + 3;
  ompgpu_map_entry db = ent(b, b, sizeof b, TO | FROM, "b");
  ompgpu_target_data_begin(&LOC, DEF, 1, 1, &db);
  ompgpu_map_entry m[10];
  m[0] = ent(&n, &n, 0, OMPGPU_MAP_LITERAL | ARG, "n");
  m[1] = ent(host_a, host_a + 10, 20 * sizeof(double), OMPGPU_MAP_PTR | TO | FROM | ARG, "a[10:20]");
  m[2] = ent(p, p, 0, OMPGPU_MAP_ATTACH_ONLY | ARG, "p");
  m[3] = ent(qptr, qptr, 0, OMPGPU_MAP_ATTACH_ONLY | ARG, "q");
  m[4] = ent(&s, &s, sizeof s, TO | FROM | ARG | OMPGPU_MAP_IMPLICIT, "s");
  m[5] = ent(host_arr, host_arr + 10, 20 * sizeof(double), TO | FROM | ARG, "arr[10:20]");
  m[6] = ent(zptr, zptr, 0, OMPGPU_MAP_PTR | TO | FROM | ARG, "z0[0:0]");
  m[7] = ent(z1, z1, 0, OMPGPU_MAP_PTR | TO | FROM | ARG, "z1[0:0]");
  m[8] = ent(pb, pb, 0, OMPGPU_MAP_ATTACH_ONLY | ARG, "pb");
  m[9] = ent(&s.y, &s.y, sizeof s.y, TO | FROM | ARG, "s.y");
  ompgpu_kernel_desc k = kdesc(launch_args);
  CHECK(ompgpu_target(&k, DEF, 1, 0, 0, 10, m) == 0);
  CHECK(called == 1);
  for (i = 0; i < 100; ++i) CHECK(host_a[i] == ((i >= 10 && i < 30) ? 2 * i : i));
  for (i = 0; i < 100; ++i) CHECK(host_arr[i] == 1000 + i + ((i >= 10 && i < 30) ? 100 : 0));
  CHECK(s.x == 42 && s.y == 9.5);
  CHECK(!present(host_a) && !present(host_arr) && !present(&s));
  CHECK(b[4] == 4 && present(b));        /* still mapped by the data region */
  ompgpu_target_data_end(&LOC, DEF, 1, 1, &db);
  CHECK(b[4] == -4 && !present(b));
  check_no_allocations();
  /* if(false): host fallback, nothing mapped, no launch */
  CHECK(ompgpu_target(&k, DEF, 0, 0, 0, 10, m) == 1);
  CHECK(called == 1 && !present(host_a));
  free(host_a);
  return 0;
}

/* the same list item twice in one construct: one reference, the from copy still happens */
static int launch_twice(const ompgpu_launch_config *cfg, void **args) {
  (void)cfg;
  double *a = *(double **)args[0];
  a[0] = 99;
  return 0;
}

static int t_twice(void) {
  double a[4] = {1, 2, 3, 4};
  ompgpu_map_entry m[2];
  m[0] = ent(a, a, sizeof a, TO | ARG, "a");
  m[1] = ent(a, a, sizeof a, FROM, "a");
  ompgpu_kernel_desc k = kdesc(launch_twice);
  CHECK(ompgpu_target(&k, DEF, 1, 0, 0, 2, m) == 0);
  CHECK(a[0] == 99 && a[1] == 2 && !present(a));
  check_no_allocations();
  return 0;
}

/* ------------------------------------------------------------------ launch configuration */

static int launch_print(const ompgpu_launch_config *cfg, void **args) {
  (void)args;
  printf("cfg %u %u\n", cfg->num_teams, cfg->threads_per_team);
  return 0;
}

/* prog launch <generic|spmd> num_teams thread_limit default_threads max_threads static_teams
   [trip_count [grid_tiles [grid_waves]]] */
static int t_launch(int argc, char **argv) {
  CHECK(argc >= 8 && argc <= 11);
  ompgpu_kernel_desc k = kdesc(launch_print);
  k.mode = !strcmp(argv[2], "spmd") ? OMPGPU_MODE_SPMD : OMPGPU_MODE_GENERIC;
  k.default_threads = atoi(argv[5]);
  k.max_threads = atoi(argv[6]);
  k.static_teams = atoll(argv[7]);
  if (argc >= 10) k.grid_tiles = atoi(argv[9]);
  if (argc == 11) k.grid_waves = atoi(argv[10]);
  if (argc >= 9) /* a loop over the grid whose iteration count the host computed */
    CHECK(ompgpu_target_loop(&k, DEF, 1, atoi(argv[3]), atoi(argv[4]), atoll(argv[8]), 0, NULL) == 0);
  else
    CHECK(ompgpu_target(&k, DEF, 1, atoi(argv[3]), atoi(argv[4]), 0, NULL) == 0);
  return 0;
}

/* prog persistent: ompgpu_persistent_loop's frame (runtime/host/persistent.cpp). Items: an array
   present through a pointer, a scalar present (its cells start with its device value; its home is
   its device copy), a scalar not present, a scalar declared inside the loop (no host storage);
   the "kernel" checks what it gets and changes the loop's scalars, which come back. Then an array
   not present: the loop runs as written (1), nothing launched. */
static int g_loop_launches;
static double g_loop_array[64];
static int occupancy_eight(int threads, unsigned dyn, int *local_bytes) {
  (void)threads;
  (void)dyn;
  *local_bytes = 0;
  return 8;
}
static double g_host_flag_value;
static int launch_loop(const ompgpu_launch_config *cfg, void **args) {
  void *const *items = *(void *const **)args[0];
  void *const *homes = *(void *const **)args[1];
  const unsigned *barrier = *(unsigned **)args[2];
  const unsigned long long *present = *(const unsigned long long **)args[3];
  double *scalars = *(double **)args[4];
  double flag_cell, flag_home;
  const int dev = ompgpu_omp_get_default_device(), host = ompgpu_omp_get_initial_device();
  g_loop_launches++;
  CHECK(*barrier == 0);
  /* The barrier word has its cache line to itself (the frame starts at the items; cudaMalloc
     aligns it to 256 bytes): every other field, and every scalar's cells, lie outside its line. */
  const char *frame = (const char *)items, *line = (const char *)barrier;
  CHECK((line - frame) % 128 == 0);
  CHECK((const char *)(homes + 4) <= line && (const char *)present >= line + 128 && (const char *)scalars >= line + 128);
  for (int i = 1; i < 4; i++) CHECK((const char *)items[i] >= line + 128);
  CHECK(present[0] == 0x3ull);   /* the array and the present scalar */
  CHECK(homes[0] == NULL && homes[1] != NULL && homes[2] == NULL && homes[3] == NULL);
  CHECK(items[1] != homes[1] && items[2] != NULL && items[3] != NULL && items[2] != items[3]);
  CHECK(ompgpu_omp_target_memcpy(&flag_cell, items[1], sizeof flag_cell, 0, 0, host, dev) == 0);
  CHECK(ompgpu_omp_target_memcpy(&flag_home, homes[1], sizeof flag_home, 0, 0, host, dev) == 0);
  CHECK(flag_cell == flag_home && flag_home == g_host_flag_value);
  double got[2], changed[2];
  CHECK(ompgpu_omp_target_memcpy(got, scalars, sizeof got, 0, 0, host, dev) == 0);
  CHECK(got[0] == 1.5 && got[1] == 2.5);
  changed[0] = got[0] * 2;
  changed[1] = got[1] * 2;
  CHECK(ompgpu_omp_target_memcpy(scalars, changed, sizeof changed, 0, 0, dev, host) == 0);
  printf("loop %u %u %s\n", cfg->num_teams, cfg->threads_per_team, items[0] == (void *)dev_of(g_loop_array) ? "translated" : "?");
  return 0;
}
static int t_persistent(void) {
  double flag = 7.0, s = 0, other[8];
  ompgpu_kernel_desc k = kdesc(launch_loop);
  k.mode = OMPGPU_MODE_SPMD;
  k.default_threads = k.max_threads = 256;
  k.occupancy = occupancy_eight;
  ompgpu_map_entry data[2] = {ent(g_loop_array, g_loop_array, sizeof g_loop_array, OMPGPU_MAP_TO, "a"),
                              ent(&flag, &flag, sizeof flag, OMPGPU_MAP_TO, "flag")};
  ompgpu_target_data_begin(&LOC, DEF, 1, 2, data);
  g_host_flag_value = flag;
  flag = -1;   /* the host's copy changes; the device's keeps 7 */
  ompgpu_map_entry items[4] = {ent(g_loop_array, g_loop_array, 0, OMPGPU_MAP_PTR, "a"),
                               ent(&flag, &flag, sizeof flag, OMPGPU_MAP_LOOP_COPY, "flag"),
                               ent(&s, &s, sizeof s, OMPGPU_MAP_LOOP_COPY, "s"),
                               ent(NULL, NULL, sizeof(double), OMPGPU_MAP_LOOP_COPY, "local")};
  double state[2] = {1.5, 2.5};
  CHECK(ompgpu_persistent_loop(&k, DEF, 4, items, state, sizeof state, 1000) == 0);
  CHECK(g_loop_launches == 1 && state[0] == 3.0 && state[1] == 5.0);
  /* an array that is not present: the caller runs the loop as written */
  ompgpu_map_entry missing[1] = {ent(other, other, sizeof other, OMPGPU_MAP_PTR, "other")};
  CHECK(ompgpu_persistent_loop(&k, DEF, 1, missing, state, sizeof state, 0) == 1);
  CHECK(g_loop_launches == 1 && state[0] == 3.0);
  ompgpu_target_data_end(&LOC, DEF, 1, 2, data);
  return 0;
}

/* prog occupancy PLAIN_TEAMS PLAIN_LOCAL DENSE_TEAMS DENSE_LOCAL [num_teams]: a kernel whose
   occupancy calculator answers PLAIN_TEAMS resident teams per SM (PLAIN_LOCAL bytes of local
   memory a thread), with a dense instance that answers DENSE_TEAMS / DENSE_LOCAL (0 0: none) */
static int g_occ[4];
static int occupancy_plain(int threads, unsigned dyn, int *local_bytes) {
  (void)threads;
  (void)dyn;
  *local_bytes = g_occ[1];
  return g_occ[0];
}
static int occupancy_dense(int threads, unsigned dyn, int *local_bytes) {
  (void)threads;
  (void)dyn;
  *local_bytes = g_occ[3];
  return g_occ[2];
}
static int launch_dense_print(const ompgpu_launch_config *cfg, void **args) {
  printf("dense ");
  return launch_print(cfg, args);
}
static int t_occupancy(int argc, char **argv) {
  CHECK(argc == 6 || argc == 7);
  for (int i = 0; i < 4; i++) g_occ[i] = atoi(argv[2 + i]);
  ompgpu_kernel_desc k = kdesc(launch_print), dense = kdesc(launch_dense_print);
  k.mode = dense.mode = OMPGPU_MODE_SPMD;
  k.occupancy = occupancy_plain;
  dense.occupancy = occupancy_dense;
  if (g_occ[2] > 0) k.dense = &dense;
  CHECK(ompgpu_target(&k, DEF, 1, argc == 7 ? atoi(argv[6]) : 0, 0, 0, NULL) == 0);
  return 0;
}

/* ------------------------------------------------------------------ offload policy, devices */

static int t_fallback(void) {
  double a[4] = {0};
  ompgpu_map_entry m = ent(a, a, sizeof a, TO | FROM | ARG, "a");
  ompgpu_kernel_desc k = kdesc(launch_args);
  ompgpu_target_data_begin(&LOC, DEF, 1, 1, &m);      /* no-op */
  CHECK(dev_of(a) == a);                              /* use_device_ptr on the host: itself */
  int r = ompgpu_target(&k, DEF, 1, 0, 0, 1, &m);
  ompgpu_target_data_end(&LOC, DEF, 1, 1, &m);
  ompgpu_target_update(&UPD, DEF, 1, 1, &m);
  CHECK(called == 0);
  printf("target returned %d, devices %d, initial %d\n", r, ompgpu_omp_get_num_devices(),
         ompgpu_omp_get_initial_device());
  return 0;
}

static int t_nolaunch(void) {
  double a[4] = {0};
  ompgpu_map_entry m = ent(a, a, sizeof a, TO | FROM | ARG, "a");
  ompgpu_kernel_desc k = kdesc(NULL);
  int r = ompgpu_target(&k, DEF, 1, 0, 0, 1, &m);
  CHECK(!present(a));
  printf("target returned %d\n", r);
  return 0;
}

/* prog device <n>: a target region with device(n) */
static int t_device(int argc, char **argv) {
  CHECK(argc == 3);
  double a[4] = {0};
  ompgpu_map_entry m = ent(a, a, sizeof a, TO | FROM | ARG, "a");
  ompgpu_kernel_desc k = kdesc(launch_ok);
  int r = ompgpu_target(&k, atoll(argv[2]), 1, 0, 0, 1, &m);
  printf("target returned %d\n", r);
  return 0;
}

/* two devices (mock with MOCK_CUDA_DEVICES=2): separate present tables */
static double *dev1_expect;
static int launch_dev1(const ompgpu_launch_config *cfg, void **args) {
  (void)cfg;
  double *a = *(double **)args[0];
  CHECK(a == dev1_expect);
  a[0] = 77;
  return 0;
}

static int t_multidevice(void) {
  double a[4] = {1, 2, 3, 4};
  CHECK(ompgpu_omp_get_num_devices() == 2 && ompgpu_omp_get_initial_device() == 2);
  ompgpu_map_entry m = ent(a, a, sizeof a, TO | FROM, "a");
  ompgpu_target_data_begin(&LOC, 1, 1, 1, &m);
  CHECK(ompgpu_omp_target_is_present(a, 1) && !ompgpu_omp_target_is_present(a, 0));
  dev1_expect = (double *)ompgpu_get_device_ptr(&LOC, 1, a);
  CHECK(dev1_expect != a && ompgpu_get_device_ptr(&LOC, 0, a) == a);
  ompgpu_map_entry ma = ent(a, a, sizeof a, TO | FROM | ARG, "a");
  ompgpu_kernel_desc k = kdesc(launch_dev1);
  CHECK(ompgpu_target(&k, 1, 1, 0, 0, 1, &ma) == 0);
  CHECK(a[0] == 1);                                   /* still mapped: no copy back */
  ompgpu_omp_set_default_device(1);
  CHECK(ompgpu_omp_get_default_device() == 1);
  CHECK(ompgpu_target(&k, DEF, 1, 0, 0, 1, &ma) == 0);   /* the default device is now 1 */
  ompgpu_target_data_end(&LOC, 1, 1, 1, &m);
  CHECK(a[0] == 77 && !ompgpu_omp_target_is_present(a, 1));
  CHECK(ompgpu_target(&k, 2, 1, 0, 0, 1, &ma) == 1);    /* device(2) = the host */
  ompgpu_omp_set_default_device(ompgpu_omp_get_initial_device());
  CHECK(ompgpu_target(&k, DEF, 1, 0, 0, 1, &ma) == 1);  /* default device = the host */
  check_no_allocations();
  return 0;
}

/* ------------------------------------------------------------------ errors */

static int launch_fault(const ompgpu_launch_config *cfg, void **args) {
  (void)cfg;
  (void)args;
  return tc_err_launch_failure();
}

static int t_fault(void) {
  double a[4] = {0};
  ompgpu_map_entry m = ent(a, a, sizeof a, TO | FROM | ARG, "a");
  ompgpu_kernel_desc k = kdesc(launch_fault);
  ompgpu_target(&k, DEF, 1, 0, 0, 1, &m);
  return 3;
}

static int t_oom(void) {
  static char small[16];
  ompgpu_map_entry m = ent(small, small, 1LL << 50, 0, "huge[0:n]");
  ompgpu_target_data_begin(&ENTER, DEF, 1, 1, &m);
  return 3;
}

static int t_negative(int argc, char **argv) {
  double a[4];
  ompgpu_map_entry m = ent(a, a, -8, TO, "a[0:n]");
  if (argc > 2 && !strcmp(argv[2], "null")) m = ent(NULL, NULL, 8, TO, "p[0:1]");
  ompgpu_target_data_begin(&LOC, DEF, 1, 1, &m);
  return 3;
}

/* ------------------------------------------------------------------ OMPGPU_INFO */

static int t_info(void) {
  double a[100] = {0};
  int n = 100;
  ompgpu_map_entry m[2];
  m[0] = ent(&n, &n, 0, OMPGPU_MAP_LITERAL | ARG, "n");
  m[1] = ent(a, a, sizeof a, TO | FROM | ARG, "a[0:n]");
  ompgpu_kernel_desc k = kdesc(launch_ok);
  k.static_teams = 4;
  k.default_threads = 160;
  CHECK(ompgpu_target(&k, DEF, 1, 0, 0, 2, m) == 0);
  k.mode = OMPGPU_MODE_SPMD;
  k.static_teams = 0;
  CHECK(ompgpu_target(&k, DEF, 1, 8, 128, 1, m) == 0);   /* n only */
  CHECK(ompgpu_target(&k, DEF, 0, 8, 128, 1, m) == 1);
  return 0;
}

/* ------------------------------------------------------------------ threads */

#define NTHREADS 8
#define ITERS 200
static double shared_arr[64];

static int launch_incr(const ompgpu_launch_config *cfg, void **args) {
  (void)cfg;
  double *mine = *(double **)args[0];
  double *sh = *(double **)args[1];
  int i;
  CHECK(sh != shared_arr);
  for (i = 0; i < 32; ++i) mine[i] += 1;
  return 0;
}

static void *thread_body(void *arg) {
  double *mine = (double *)arg;
  int it;
  ompgpu_map_entry sh = ent(shared_arr, shared_arr, sizeof shared_arr, TO | FROM, "shared");
  ompgpu_kernel_desc k = kdesc(launch_incr);
  for (it = 0; it < ITERS; ++it) {
    ompgpu_map_entry m[2];
    m[0] = ent(mine, mine, 32 * sizeof(double), TO | FROM | ARG, "mine");
    m[1] = ent(shared_arr, shared_arr, sizeof shared_arr, TO | FROM | ARG, "shared");
    ompgpu_target_data_begin(&LOC, DEF, 1, 1, &sh);
    CHECK(ompgpu_target(&k, DEF, 1, 0, 0, 2, m) == 0);
    ompgpu_target_data_end(&LOC, DEF, 1, 1, &sh);
  }
  return NULL;
}

static int t_threads(void) {
  static double mine[NTHREADS][32];
  pthread_t th[NTHREADS];
  int t, i;
  for (t = 0; t < NTHREADS; ++t) CHECK(pthread_create(&th[t], NULL, thread_body, mine[t]) == 0);
  for (t = 0; t < NTHREADS; ++t) pthread_join(th[t], NULL);
  for (t = 0; t < NTHREADS; ++t)
    for (i = 0; i < 32; ++i) CHECK(mine[t][i] == ITERS);
  CHECK(!present(shared_arr));
  check_no_allocations();
  return 0;
}

/* ------------------------------------------------------------------ omp_* device memory API */

static double *api_expect;
static int launch_api(const ompgpu_launch_config *cfg, void **args) {
  (void)cfg;
  double *a = *(double **)args[0];
  CHECK(a == api_expect);
  a[1] = 123;
  return 0;
}

static int t_api(void) {
  int dev = ompgpu_omp_get_default_device();
  int host = ompgpu_omp_get_initial_device();
  double h[8], back[8];
  int i;
  CHECK(ompgpu_omp_get_num_devices() >= 1 && host == ompgpu_omp_get_num_devices());
  CHECK(ompgpu_omp_is_initial_device() == 1);
  for (i = 0; i < 8; ++i) h[i] = i;
  double *d = (double *)ompgpu_omp_target_alloc(sizeof h, dev);
  CHECK(d != NULL && d != h);
  CHECK(ompgpu_omp_target_memcpy(d, h, sizeof h, 0, 0, dev, host) == 0);
  CHECK(ompgpu_omp_target_memcpy(back, d, 4 * sizeof(double), sizeof(double), 2 * sizeof(double), host, dev) == 0);
  CHECK(back[1] == 2 && back[4] == 5);
  CHECK(!ompgpu_omp_target_is_present(h, dev));
  CHECK(ompgpu_omp_target_is_present(h, host));
  CHECK(ompgpu_omp_target_associate_ptr(h, d, sizeof h, 0, dev) == 0);
  CHECK(ompgpu_omp_target_associate_ptr(h, d, sizeof h, 0, dev) == 0);        /* same again: fine */
  CHECK(ompgpu_omp_target_associate_ptr(h, d, sizeof h, 8, dev) != 0);        /* different: fails */
  CHECK(ompgpu_omp_target_is_present(h + 3, dev));
  CHECK(ompgpu_get_device_ptr(&LOC, DEF, h + 2) == (void *)(d + 2));
  /* a target region uses the association; present, so no copies */
  api_expect = d;
  ompgpu_map_entry m = ent(h, h, sizeof h, TO | FROM | ARG, "h");
  ompgpu_kernel_desc k = kdesc(launch_api);
  CHECK(ompgpu_target(&k, DEF, 1, 0, 0, 1, &m) == 0);
  CHECK(h[1] == 1 && ompgpu_omp_target_is_present(h, dev));
  CHECK(ompgpu_omp_target_memcpy(back, d, sizeof h, 0, 0, host, dev) == 0 && back[1] == 123);
  CHECK(ompgpu_omp_target_disassociate_ptr(h, dev) == 0);
  CHECK(ompgpu_omp_target_disassociate_ptr(h, dev) != 0);
  CHECK(!ompgpu_omp_target_is_present(h, dev));
  ompgpu_omp_target_free(d, dev);
  /* the host as a device */
  void *hp = ompgpu_omp_target_alloc(64, host);
  CHECK(hp != NULL);
  CHECK(ompgpu_omp_target_memcpy(hp, h, 64, 0, 0, host, host) == 0 && ((double *)hp)[3] == 3);
  ompgpu_omp_target_free(hp, host);
  /* invalid device numbers */
  CHECK(ompgpu_omp_target_alloc(64, host + 5) == NULL);
  CHECK(ompgpu_omp_target_memcpy(back, h, 8, 0, 0, host + 5, host) != 0);
  CHECK(ompgpu_omp_target_alloc(0, dev) == NULL);
  ompgpu_omp_target_free(NULL, dev);
  check_no_allocations();
  return 0;
}

/* ------------------------------------------------------------------ pointer attachment */

struct holder {
  int n;
  double *p;
  double *q;
};
static struct holder *attach_expect_h;
static double *attach_dev_sec;
static int launch_attach(const ompgpu_launch_config *cfg, void **args) {
  (void)cfg;
  struct holder *dh = *(struct holder **)args[0];
  CHECK(dh != attach_expect_h);
  /* the device struct's pointer is the device address of the section minus its offset */
  CHECK(dh->p == attach_dev_sec - 2);
  CHECK(dh->q == NULL);   /* zero-length section that is not present */
  dh->p[5] = 55;          /* element 5 of the host array = section index 3 */
  dh->n = 9;
  return 0;
}

static int t_attach(void) {
  double arr[10];
  int i;
  for (i = 0; i < 10; ++i) arr[i] = i;
  struct holder h;
  h.n = 1;
  h.p = arr;
  h.q = arr + 9;   /* outside the mapped section: not present */
  ompgpu_map_entry m[5];
  m[0] = ent(&h, &h, sizeof h, TO | FROM | ARG, "h");
  m[1] = ent(h.p, h.p + 2, 6 * sizeof(double), TO | FROM | OMPGPU_MAP_PTR, "h.p[2:6]");
  m[2] = ent(&h.p, h.p + 2, 0, OMPGPU_MAP_ATTACH, "h.p[2:6]");
  m[3] = ent(h.q, h.q, 0, OMPGPU_MAP_PTR, "h.q[0:0]");
  m[4] = ent(&h.q, h.q, 0, OMPGPU_MAP_ATTACH, "h.q[0:0]");
  /* the section's device address: map it first in an enclosing data region */
  ompgpu_target_data_begin(&LOC, DEF, 1, 1, &m[1]);
  attach_dev_sec = dev_of(arr + 2);
  attach_expect_h = &h;
  ompgpu_kernel_desc k = kdesc(launch_attach);
  CHECK(ompgpu_target(&k, DEF, 1, 0, 0, 5, m) == 0);
  /* the struct came back (n), its pointers kept their host values */
  CHECK(h.n == 9 && h.p == arr && h.q == arr + 9);
  CHECK(arr[5] == 5);   /* the section is still mapped by the data region */
  ompgpu_target_data_end(&LOC, DEF, 1, 1, &m[1]);
  CHECK(arr[5] == 55);

  /* enter data: struct, then section + attach onto the present struct; update of the
     whole struct to the device keeps the attachment, update from keeps host pointers */
  ompgpu_map_entry s1 = ent(&h, &h, sizeof h, TO, "h");
  ompgpu_map_entry s2[3];
  s2[0] = ent(&h, &h, sizeof h, TO, "h");
  s2[1] = ent(h.p, h.p, 10 * sizeof(double), TO | OMPGPU_MAP_PTR, "h.p[0:10]");
  s2[2] = ent(&h.p, h.p, 0, OMPGPU_MAP_ATTACH, "h.p[0:10]");
  ompgpu_target_data_begin(&ENTER, DEF, 1, 1, &s1);
  ompgpu_target_data_begin(&ENTER, DEF, 1, 3, s2);
  struct holder *dh = (struct holder *)ompgpu_get_device_ptr(&LOC, DEF, &h);
  double *dp = dev_of(arr);
  CHECK(dh->p == dp);
  ompgpu_map_entry u = ent(&h, &h, sizeof h, TO, "h");
  ompgpu_target_update(&UPD, DEF, 1, 1, &u);
  CHECK(dh->p == dp);              /* re-attached after the copy */
  dh->n = 77;
  u.flags = FROM;
  ompgpu_target_update(&UPD, DEF, 1, 1, &u);
  CHECK(h.n == 77 && h.p == arr);  /* host pointer kept */
  ompgpu_map_entry x[2];
  x[0] = ent(&h, &h, sizeof h, 0, "h");
  x[1] = ent(h.p, h.p, 10 * sizeof(double), OMPGPU_MAP_PTR, "h.p[0:10]");
  ompgpu_target_data_end(&EXIT, DEF, 1, 2, x);
  x[0].flags = OMPGPU_MAP_DELETE;
  ompgpu_target_data_end(&EXIT, DEF, 1, 1, x);
  CHECK(!present(&h) && !present(arr));
  check_no_allocations();
  return 0;
}

static int t_attach_missing(void) {
  double arr[4];
  double *p = arr;
  ompgpu_map_entry m[2];
  m[0] = ent(p, p, sizeof arr, TO | OMPGPU_MAP_PTR, "s.p[0:4]");
  m[1] = ent(&p, p, 0, OMPGPU_MAP_ATTACH, "s.p[0:4]");
  ompgpu_target_data_begin(&ENTER, DEF, 1, 2, m);
  return 0;
}

/* ------------------------------------------------------------------ declare target link */

static double link_host[8];
static double *link_symbol;
static void *link_addr(void) { return link_symbol; }

static int t_link(void) {
  int i;
  link_symbol = (double *)ompgpu_omp_target_alloc(sizeof link_host, ompgpu_omp_get_default_device());
  ompgpu_register_link_global(link_host, sizeof link_host, link_addr, "link_host");
  CHECK(!present(link_host));   /* absent until mapped */
  for (i = 0; i < 8; ++i) link_host[i] = i;
  ompgpu_map_entry m = ent(link_host, link_host, sizeof link_host, TO | FROM, "link_host");
  ompgpu_target_data_begin(&LOC, DEF, 1, 1, &m);
  CHECK(present(link_host));
  CHECK(dev_of(link_host) == link_symbol);   /* the symbol is the storage */
  CHECK(link_symbol[3] == 3);
  link_symbol[3] = 33;
  ompgpu_target_data_begin(&LOC, DEF, 1, 1, &m);   /* refcount 2: no copy */
  ompgpu_target_data_end(&LOC, DEF, 1, 1, &m);
  CHECK(link_host[3] == 3);
  ompgpu_target_data_end(&LOC, DEF, 1, 1, &m);     /* 0: copied back, not freed */
  CHECK(link_host[3] == 33 && !present(link_host));
  /* update of an absent link variable does nothing */
  link_symbol[3] = 99;
  m.flags = FROM;
  ompgpu_target_update(&UPD, DEF, 1, 1, &m);
  CHECK(link_host[3] == 33);
  ompgpu_omp_target_free(link_symbol, ompgpu_omp_get_default_device());
  check_no_allocations();
  return 0;
}

/* ------------------------------------------------------------------ streams per host thread */

static void *seen_streams[NTHREADS];
static int launch_stream(const ompgpu_launch_config *cfg, void **args) {
  int *slot = *(int **)args[0];
  CHECK(cfg->stream != NULL);
  seen_streams[*slot] = cfg->stream;
  return 0;
}
static void *stream_thread(void *arg) {
  static int ids[NTHREADS];
  int id = (int)(intptr_t)arg;
  ids[id] = id;
  int *idp = &ids[id];
  ompgpu_map_entry m = ent(&idp, &idp, 0, OMPGPU_MAP_LITERAL | ARG, "id");
  m.begin = &idp;
  ompgpu_kernel_desc k = kdesc(launch_stream);
  CHECK(ompgpu_target(&k, DEF, 1, 0, 0, 1, &m) == 0);
  void *first = seen_streams[id];
  CHECK(ompgpu_target(&k, DEF, 1, 0, 0, 1, &m) == 0);
  CHECK(seen_streams[id] == first);   /* the same thread keeps its stream */
  return NULL;
}
static int t_streams(void) {
  pthread_t th[NTHREADS];
  int t, u;
  for (t = 0; t < NTHREADS; ++t) CHECK(pthread_create(&th[t], NULL, stream_thread, (void *)(intptr_t)t) == 0);
  for (t = 0; t < NTHREADS; ++t) pthread_join(th[t], NULL);
  for (t = 0; t < NTHREADS; ++t)
    for (u = t + 1; u < NTHREADS; ++u) CHECK(seen_streams[t] != seen_streams[u]);
  return 0;
}

/* ------------------------------------------------------------------ omp_target_memcpy_rect */

static int t_rect(void) {
  int dev = ompgpu_omp_get_default_device(), host = ompgpu_omp_get_initial_device();
  int a[4][5], b[4][5], i, j;
  for (i = 0; i < 4; ++i)
    for (j = 0; j < 5; ++j) {
      a[i][j] = i * 10 + j;
      b[i][j] = -1;
    }
  CHECK(ompgpu_omp_target_memcpy_rect(NULL, NULL, 0, 0, NULL, NULL, NULL, NULL, NULL, dev, host) > 16);
  int *d = (int *)ompgpu_omp_target_alloc(sizeof a, dev);
  size_t vol[2] = {2, 3}, doff[2] = {1, 1}, soff[2] = {2, 2}, dims[2] = {4, 5}, z[2] = {0, 0}, all[2] = {4, 5};
  CHECK(ompgpu_omp_target_memcpy_rect(d, b, sizeof(int), 2, all, z, z, dims, dims, dev, host) == 0);
  CHECK(ompgpu_omp_target_memcpy_rect(d, a, sizeof(int), 2, vol, doff, soff, dims, dims, dev, host) == 0);
  CHECK(ompgpu_omp_target_memcpy_rect(b, d, sizeof(int), 2, all, z, z, dims, dims, host, dev) == 0);
  for (i = 0; i < 4; ++i)
    for (j = 0; j < 5; ++j) {
      int in = i >= 1 && i < 3 && j >= 1 && j < 4;
      CHECK(b[i][j] == (in ? a[i + 1][j + 1] : -1));
    }
  size_t big[2] = {5, 1};
  CHECK(ompgpu_omp_target_memcpy_rect(b, d, sizeof(int), 2, big, z, z, dims, dims, host, dev) != 0);
  CHECK(ompgpu_omp_target_memcpy_rect(b, d, sizeof(int), 2, all, z, z, dims, dims, host, dev + 7) != 0);
  ompgpu_omp_target_free(d, dev);
  check_no_allocations();
  return 0;
}

/* the omp_* names are defined by the runtime (they win over libgomp's) */
int omp_get_num_devices(void);
int omp_get_initial_device(void);
void *omp_target_alloc(size_t, int);
void omp_target_free(void *, int);
static int t_omp_names(void) {
  CHECK(omp_get_num_devices() == ompgpu_omp_get_num_devices());
  CHECK(omp_get_initial_device() == ompgpu_omp_get_initial_device());
  void *p = omp_target_alloc(64, 0);
  CHECK(p != NULL && !present(p));
  omp_target_free(p, 0);
  check_no_allocations();
  return 0;
}


/* ------------------------------------------------------------------ deferred small copies */

static double deferred_a[16];

static void *deferred_other(void *arg) {
  (void)arg;
  ompgpu_map_entry from = ent(deferred_a, deferred_a, sizeof deferred_a, FROM, "a");
  ompgpu_target_update(&UPD, DEF, 1, 1, &from);
  return NULL;
}

/* prog deferred: a small update to the device from pageable memory does not wait for its DMA
   (no stream synchronisation); another thread's update from the device makes its own stream
   wait for it and reads what it wrote; once a device address reaches the program
   (omp_target_alloc), updates wait again. Prints the counts (-1: unknown, the emulator). */
static int t_deferred(void) {
  int i;
  ompgpu_map_entry alloc = ent(deferred_a, deferred_a, sizeof deferred_a, 0, "a");
  ompgpu_target_data_begin(&LOC, DEF, 1, 1, &alloc);
  for (i = 0; i < 16; ++i) deferred_a[i] = i + 0.5;
  long long s0 = tc_stream_calls(0), w0 = tc_stream_calls(1);
  ompgpu_map_entry to = ent(deferred_a, deferred_a, sizeof deferred_a, TO, "a");
  ompgpu_target_update(&UPD, DEF, 1, 1, &to);
  long long s1 = tc_stream_calls(0);
  for (i = 0; i < 16; ++i) deferred_a[i] = -1;   /* the copy holds the old values already */
  pthread_t th;
  CHECK(pthread_create(&th, NULL, deferred_other, NULL) == 0);
  pthread_join(th, NULL);
  long long w1 = tc_stream_calls(1);
  for (i = 0; i < 16; ++i) CHECK(deferred_a[i] == i + 0.5);
  void *p = ompgpu_omp_target_alloc(64, ompgpu_omp_get_default_device());
  CHECK(p != NULL);
  ompgpu_omp_target_free(p, ompgpu_omp_get_default_device());
  long long s2 = tc_stream_calls(0);
  ompgpu_target_update(&UPD, DEF, 1, 1, &to);
  long long s3 = tc_stream_calls(0);
  ompgpu_target_data_end(&LOC, DEF, 1, 1, &alloc);
  check_no_allocations();
  printf("update_syncs %lld other_waits %lld escaped_syncs %lld\n", s0 < 0 ? -1 : s1 - s0, w0 < 0 ? -1 : w1 - w0,
         s2 < 0 ? -1 : s3 - s2);
  return 0;
}

/* ------------------------------------------------------------------ device memory cache */

static void *cache_seen;   /* the device address the last cache kernel got */
static int launch_add1(const ompgpu_launch_config *cfg, void **args) {
  (void)cfg;
  int *a = *(int **)args[0];
  int n = *(int *)args[1], i;
  for (i = 0; i < n; ++i) a[i] += 1;
  cache_seen = a;
  return 0;
}

static long long cache_bytes(void) {
  long long b;
  ompgpu_debug_device_cache(0, &b);
  return b;
}

/* prog cache_cycle <regions> <bytes>: that many target regions one after another, each
   mapping (tofrom) the same int array of <bytes> bytes. Prints the cudaMalloc calls they
   made (-1: unknown), whether every region got the same device address, and what the
   cache and the device hold at the end. */
static int t_cache_cycle(int argc, char **argv) {
  CHECK(argc == 4);
  int regions = atoi(argv[2]), r, i;
  long long bytes = atoll(argv[3]);
  int n = (int)(bytes / (long long)sizeof(int));
  int *a = (int *)calloc((size_t)n, sizeof(int));
  CHECK(a != NULL && n > 0);
  for (i = 0; i < n; ++i) a[i] = i;
  ompgpu_kernel_desc k = kdesc(launch_add1);
  long long m0 = tc_malloc_calls();
  void *first = NULL;
  int same = 1;
  for (r = 0; r < regions; ++r) {
    ompgpu_map_entry m[2];
    m[0] = ent(a, a, bytes, TO | FROM | ARG, "a[0:n]");
    m[1] = ent(&n, &n, 0, OMPGPU_MAP_LITERAL | ARG, "n");
    CHECK(ompgpu_target(&k, DEF, 1, 0, 0, 2, m) == 0);
    if (r == 0) first = cache_seen;
    else if (cache_seen != first) same = 0;
    CHECK(!present(a));
  }
  for (i = 0; i < n; ++i) CHECK(a[i] == i + regions);   /* every region copied in and out */
  check_no_allocations();
  long long cb;
  int blocks = ompgpu_debug_device_cache(0, &cb);
  printf("mallocs %lld same %d blocks %d bytes %lld used %lld\n", m0 < 0 ? -1 : tc_malloc_calls() - m0, same,
         blocks, cb, tc_used_bytes());
  free(a);
  return 0;
}

/* prog cache_cap <count> <bytes>: <count> arrays of <bytes> bytes mapped at once (enter
   data), then all unmapped; then one array of twice the size mapped and unmapped; then one
   of the first size again. Prints the cache after each step (blocks, bytes, mallocs). */
static int t_cache_cap(int argc, char **argv) {
  CHECK(argc == 4);
  int count = atoi(argv[2]), i;
  long long bytes = atoll(argv[3]);
  char *h = (char *)calloc((size_t)count + 2, (size_t)bytes * 2);
  CHECK(h != NULL);
  long long m0 = tc_malloc_calls();
  for (i = 0; i < count; ++i) {
    ompgpu_map_entry e = ent(h + i * bytes, h + i * bytes, bytes, TO, "h[i]");
    ompgpu_target_data_begin(&ENTER, DEF, 1, 1, &e);
  }
  for (i = 0; i < count; ++i) {
    ompgpu_map_entry e = ent(h + i * bytes, h + i * bytes, bytes, OMPGPU_MAP_RELEASE, "h[i]");
    ompgpu_target_data_end(&EXIT, DEF, 1, 1, &e);
  }
  check_no_allocations();
  printf("after %d: blocks %d bytes %lld mallocs %lld\n", count, ompgpu_debug_device_cache(0, NULL), cache_bytes(),
         m0 < 0 ? -1 : tc_malloc_calls() - m0);
  char *big = h + count * bytes;
  ompgpu_map_entry e2 = ent(big, big, 2 * bytes, TO, "big");
  ompgpu_target_data_begin(&LOC, DEF, 1, 1, &e2);
  ompgpu_target_data_end(&LOC, DEF, 1, 1, &e2);
  check_no_allocations();
  printf("after double: blocks %d bytes %lld mallocs %lld\n", ompgpu_debug_device_cache(0, NULL), cache_bytes(),
         m0 < 0 ? -1 : tc_malloc_calls() - m0);
  ompgpu_map_entry e1 = ent(h, h, bytes, TO, "h[0]");
  ompgpu_target_data_begin(&LOC, DEF, 1, 1, &e1);
  ompgpu_target_data_end(&LOC, DEF, 1, 1, &e1);
  check_no_allocations();
  printf("after single: blocks %d bytes %lld mallocs %lld used %lld\n", ompgpu_debug_device_cache(0, NULL),
         cache_bytes(), m0 < 0 ? -1 : tc_malloc_calls() - m0, tc_used_bytes());
  free(h);
  return 0;
}

/* A block freed while a kernel of another host thread runs is not handed out again until
   that kernel finished (the kernel may still use it); blocks freed before it started are. */
static pthread_mutex_t inflight_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t inflight_cv = PTHREAD_COND_INITIALIZER;
static int inflight_state;   /* 0: not started, 1: kernel running, 2: kernel may finish */

static int launch_wait(const ompgpu_launch_config *cfg, void **args) {
  (void)cfg;
  (void)args;
  pthread_mutex_lock(&inflight_mu);
  inflight_state = 1;
  pthread_cond_broadcast(&inflight_cv);
  while (inflight_state != 2) pthread_cond_wait(&inflight_cv, &inflight_mu);
  pthread_mutex_unlock(&inflight_mu);
  return 0;
}

static void *inflight_thread(void *arg) {
  static char other[4096];   /* another size class than the arrays of the main thread */
  (void)arg;
  ompgpu_map_entry m = ent(other, other, sizeof other, TO | FROM | ARG, "other");
  ompgpu_kernel_desc k = kdesc(launch_wait);
  CHECK(ompgpu_target(&k, DEF, 1, 0, 0, 1, &m) == 0);
  return NULL;
}

static int t_cache_inflight(void) {
  int x[16], y[16], z[16], w[16];
  pthread_t th;
  ompgpu_map_entry mx = ent(x, x, sizeof x, TO, "x"), my = ent(y, y, sizeof y, TO, "y");
  ompgpu_map_entry mz = ent(z, z, sizeof z, TO, "z"), mw = ent(w, w, sizeof w, TO, "w");
  memset(x, 0, sizeof x);
  memcpy(y, x, sizeof x);
  memcpy(z, x, sizeof x);
  memcpy(w, x, sizeof x);
  ompgpu_target_data_begin(&LOC, DEF, 1, 1, &mx);
  void *px = dev_of(x);
  ompgpu_target_data_end(&LOC, DEF, 1, 1, &mx);       /* cached before the kernel starts */
  CHECK(pthread_create(&th, NULL, inflight_thread, NULL) == 0);
  pthread_mutex_lock(&inflight_mu);
  while (inflight_state != 1) pthread_cond_wait(&inflight_cv, &inflight_mu);
  pthread_mutex_unlock(&inflight_mu);
  ompgpu_target_data_begin(&LOC, DEF, 1, 1, &my);
  void *py = dev_of(y);
  CHECK(py == px);                                     /* freed before the kernel: reused */
  ompgpu_target_data_end(&LOC, DEF, 1, 1, &my);       /* freed while it runs */
  ompgpu_target_data_begin(&LOC, DEF, 1, 1, &mz);
  void *pz = dev_of(z);
  CHECK(pz != py);                                     /* not handed out while it runs */
  ompgpu_target_data_end(&LOC, DEF, 1, 1, &mz);
  pthread_mutex_lock(&inflight_mu);
  inflight_state = 2;
  pthread_cond_broadcast(&inflight_cv);
  pthread_mutex_unlock(&inflight_mu);
  pthread_join(th, NULL);
  ompgpu_target_data_begin(&LOC, DEF, 1, 1, &mw);
  CHECK(dev_of(w) == py);                              /* the kernel finished: reused (oldest first) */
  ompgpu_target_data_end(&LOC, DEF, 1, 1, &mw);
  CHECK(ompgpu_debug_device_cache(0, NULL) == 3);      /* py, pz and the other thread's block */
  check_no_allocations();
  return 0;
}

/* Out of device memory (run with 1000000 bytes of it and a cap of 2000000): the cache is
   emptied and the allocation retried; a class that does not fit is retried at the exact size. */
static int t_cache_oom(void) {
  static char a[3][204800], b[300000], c[950000];
  int i;
  ompgpu_map_entry m[3];
  for (i = 0; i < 3; ++i) m[i] = ent(a[i], a[i], sizeof a[i], TO, "a[i]");
  ompgpu_target_data_begin(&LOC, DEF, 1, 3, m);
  ompgpu_target_data_end(&LOC, DEF, 1, 3, m);
  CHECK(ompgpu_debug_device_cache(0, NULL) == 3 && cache_bytes() == 3 * 229376);
  ompgpu_map_entry mb = ent(b, b, sizeof b, TO, "b");   /* class 327680: does not fit beside them */
  ompgpu_target_data_begin(&LOC, DEF, 1, 1, &mb);
  CHECK(present(b) && ompgpu_debug_device_cache(0, NULL) == 0);
  ompgpu_target_data_end(&LOC, DEF, 1, 1, &mb);
  CHECK(ompgpu_debug_device_cache(0, NULL) == 1 && cache_bytes() == 327680);
  ompgpu_map_entry mc = ent(c, c, sizeof c, TO, "c");   /* class 1048576 never fits: 950000 bytes */
  ompgpu_target_data_begin(&LOC, DEF, 1, 1, &mc);
  CHECK(present(c) && ompgpu_debug_device_cache(0, NULL) == 0);
  long long used = tc_used_bytes();
  CHECK(used == -1 || used == (long long)sizeof c);
  ompgpu_target_data_end(&LOC, DEF, 1, 1, &mc);      /* not cacheable: freed */
  CHECK(ompgpu_debug_device_cache(0, NULL) == 0);
  used = tc_used_bytes();
  CHECK(used == -1 || used == 0);
  check_no_allocations();
  return 0;
}

int main(int argc, char **argv) {
  const char *t = argc > 1 ? argv[1] : "";
  if (!strcmp(t, "attach")) return t_attach();
  if (!strcmp(t, "attach_missing")) return t_attach_missing();
  if (!strcmp(t, "link")) return t_link();
  if (!strcmp(t, "streams")) return t_streams();
  if (!strcmp(t, "rect")) return t_rect();
  if (!strcmp(t, "omp_names")) return t_omp_names();
  if (!strcmp(t, "refcount")) return t_refcount();
  if (!strcmp(t, "subsection")) return t_subsection();
  if (!strcmp(t, "overlap")) return t_overlap(argc > 2 ? argv[2] : "end");
  if (!strcmp(t, "always")) return t_always();
  if (!strcmp(t, "delete_release")) return t_delete_release();
  if (!strcmp(t, "update")) return t_update();
  if (!strcmp(t, "present_modifier")) return t_present_modifier();
  if (!strcmp(t, "args")) return t_args();
  if (!strcmp(t, "twice")) return t_twice();
  if (!strcmp(t, "launch")) return t_launch(argc, argv);
  if (!strcmp(t, "occupancy")) return t_occupancy(argc, argv);
  if (!strcmp(t, "persistent")) return t_persistent();
  if (!strcmp(t, "fallback")) return t_fallback();
  if (!strcmp(t, "nolaunch")) return t_nolaunch();
  if (!strcmp(t, "device")) return t_device(argc, argv);
  if (!strcmp(t, "multidevice")) return t_multidevice();
  if (!strcmp(t, "fault")) return t_fault();
  if (!strcmp(t, "oom")) return t_oom();
  if (!strcmp(t, "negative")) return t_negative(argc, argv);
  if (!strcmp(t, "info")) return t_info();
  if (!strcmp(t, "threads")) return t_threads();
  if (!strcmp(t, "api")) return t_api();
  if (!strcmp(t, "deferred")) return t_deferred();
  if (!strcmp(t, "cache_cycle")) return t_cache_cycle(argc, argv);
  if (!strcmp(t, "cache_cap")) return t_cache_cap(argc, argv);
  if (!strcmp(t, "cache_inflight")) return t_cache_inflight();
  if (!strcmp(t, "cache_oom")) return t_cache_oom();
  fprintf(stderr, "unknown scenario '%s'\n", t);
  return 4;
}
