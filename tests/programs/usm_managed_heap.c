/* covers: requires unified_shared_memory: heap memory from malloc, calloc, realloc, aligned_alloc and posix_memalign used in target regions without maps (a captured pointer, is_device_ptr, a pointer inside a heap struct), stack and static arrays reached through pointers, omp_target_alloc memory the host reads and writes, a mapped stack array, free and realloc of memory the C library allocated (strdup); on GPUs without pageable memory access the heap is managed memory and stacks and static data are registered */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#pragma omp requires unified_shared_memory

#define N 1000

struct node {
  int *values;
  int n;
};

static int static_array[N];

int main(void) {
  int *a = malloc(N * sizeof(int));
  double *z = calloc(N, sizeof(double));
  double *al = aligned_alloc(1024, N * sizeof(double));
  long *pm = NULL;
  int pm_rc = posix_memalign((void **)&pm, 4096, N * sizeof(long));
  struct node *list = malloc(sizeof *list);
  int stack_array[N];
  int *sp = stack_array, *st = static_array;
  for (int i = 0; i < N; i++) {
    a[i] = i;
    al[i] = 0.5 * i;
    stack_array[i] = 3 * i;
    static_array[i] = 4 * i;
  }
  list->values = a;
  list->n = N;
  printf("aligned: %d %d, posix_memalign: %d\n", (int)((uintptr_t)al % 1024 == 0),
         (int)((uintptr_t)pm % 4096 == 0), pm_rc);

#pragma omp target
  for (int i = 0; i < N; i++) {
    a[i] += 1;            /* a captured heap pointer */
    z[i] += al[i];        /* calloc'd zeros plus aligned memory */
    sp[i] += 1;           /* the stack, through a pointer */
    st[i] += 1;           /* static data, through a pointer */
  }
#pragma omp target is_device_ptr(pm)
  for (int i = 0; i < N; i++) pm[i] = 2L * i;
#pragma omp target
  for (int i = 0; i < list->n; i++) list->values[i] *= 2;   /* a pointer inside a heap struct */

  a = realloc(a, 2 * N * sizeof(int));   /* grown: the first N values stay */
  for (int i = N; i < 2 * N; i++) a[i] = -1;
  long sum = 0;
#pragma omp target teams distribute parallel for reduction(+: sum) map(tofrom: sum) map(tofrom: stack_array)
  for (int i = 0; i < 2 * N; i++) sum += a[i] + (i < N ? stack_array[i] : 0);

  int ok = 1;
  for (int i = 0; i < N; i++) {
    ok &= a[i] == 2 * (i + 1) && z[i] == 0.5 * i && pm[i] == 2L * i;
    ok &= stack_array[i] == 3 * i + 1 && static_array[i] == 4 * i + 1;
  }
  int *dev = omp_target_alloc(N * sizeof(int), omp_get_default_device());   /* the host may use it too */
#pragma omp target is_device_ptr(dev)
  for (int i = 0; i < N; i++) dev[i] = i;
  for (int i = 0; i < N; i++) dev[i] += 10;
  long dev_sum = 0;
#pragma omp target is_device_ptr(dev) map(tofrom: dev_sum)
  for (int i = 0; i < N; i++) dev_sum += dev[i];
  printf("omp_target_alloc memory on both sides: %s\n", dev_sum == (long)N * (N - 1) / 2 + 10L * N ? "ok" : "WRONG");
  omp_target_free(dev, omp_get_default_device());
  char *text = strdup("from the C library");   /* freed and grown through the same names */
  text = realloc(text, 64);
  strcat(text, ", grown");
  printf("%s\n", text);
  free(text);
  printf("sum %ld\n", sum);
  printf("%s\n", ok && sum == 2L * N * (N + 1) / 2 - N + 3L * N * (N - 1) / 2 + N ? "PASS" : "FAIL");
  free(a);
  free(z);
  free(al);
  free(pm);
  free(list);
  return 0;
}
