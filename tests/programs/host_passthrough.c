/* covers: host OpenMP outside target regions passes to the host compiler: parallel for reduction, sections, single copyprivate, critical, atomic, taskloop reduction, ordered (host doacross-free), threadprivate, omp_get_thread_num in host code, host locks; one target region in the middle using host-computed data */
#include <omp.h>
#include <stdio.h>

#define N 10000

static int tp_counter;
#pragma omp threadprivate(tp_counter)

int main(void) {
  static int a[N];
  long sum = 0;
#pragma omp parallel for reduction(+: sum) num_threads(4)
  for (int i = 0; i < N; i++) {
    a[i] = i % 13;
    sum += a[i];
  }
  printf("parallel for reduction: %ld\n", sum);

  int s1 = 0, s2 = 0;
#pragma omp parallel sections num_threads(2)
  {
#pragma omp section
    for (int i = 0; i < N; i += 2) s1 += a[i];
#pragma omp section
    for (int i = 1; i < N; i += 2) s2 += a[i];
  }
  printf("sections: %d\n", s1 + s2);

  int crit = 0, atom = 0, bcast = -1, seen_all = 1;
  omp_lock_t lock;
  omp_init_lock(&lock);
  int locked = 0;
#pragma omp parallel num_threads(4) shared(crit, atom, seen_all)
  {
    int v;
#pragma omp single copyprivate(v)
    v = 42;
    if (v != 42) seen_all = 0;
#pragma omp critical
    crit += 1;
#pragma omp atomic
    atom += 2;
    omp_set_lock(&lock);
    locked += 3;
    omp_unset_lock(&lock);
    tp_counter = omp_get_thread_num();
#pragma omp barrier
#pragma omp master
    bcast = omp_get_num_threads();
  }
  omp_destroy_lock(&lock);
  printf("critical=%d atomic=%d lock=%d copyprivate=%s\n", crit / bcast, atom / bcast, locked / bcast,
         seen_all ? "ok" : "bad");

  long tl = 0;
#pragma omp parallel num_threads(3)
#pragma omp single
#pragma omp taskloop reduction(+: tl) num_tasks(7)
  for (int i = 0; i < N; i++) tl += a[i];
  printf("taskloop reduction: %ld\n", tl);

  int order[16], pos = 0;
#pragma omp parallel for ordered schedule(dynamic) num_threads(4)
  for (int i = 0; i < 16; i++) {
#pragma omp ordered
    order[pos++] = i;
  }
  int inorder = 1;
  for (int i = 0; i < 16; i++) inorder &= order[i] == i;
  printf("ordered: %s\n", inorder ? "in order" : "out of order");

  /* offload in the middle of host parallelism */
  long dsum = 0;
#pragma omp target teams distribute parallel for map(to: a) reduction(+: dsum)
  for (int i = 0; i < N; i++) dsum += a[i] * 2;
  printf("target on host data: %ld\n", dsum);

  long after = 0;
#pragma omp parallel for reduction(+: after) num_threads(4)
  for (int i = 0; i < N; i++) after += a[i];
  printf("%s\n", sum == s1 + s2 && sum == tl && dsum == 2 * sum && after == sum && inorder ? "PASS" : "FAIL");
  return 0;
}
