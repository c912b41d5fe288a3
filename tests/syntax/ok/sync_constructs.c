/* synchronisation constructs on the device: barrier, critical (unnamed, named, with hint), atomic, flush (bare, list, memory orders), single (nowait), master, masked (filter expressions), locks in a region */
#include <omp.h>
#include <stdio.h>

int main(void) {
  int a = 0, b = 0, c = 0, flag = 0;
  int data[32] = {0};

#pragma omp target parallel num_threads(32) map(tofrom: a, b, c, flag, data)
  {
    int me = omp_get_thread_num();
    data[me % 32] = me;
#pragma omp barrier
#pragma omp critical
    a += data[(me + 1) % 32];
#pragma omp critical(second_lock)
    {
      b += 1;
    }
#pragma omp critical(third_lock) hint(omp_sync_hint_contended)
    c += 1;
#pragma omp flush
#pragma omp flush(flag)
#pragma omp flush acq_rel
#pragma omp flush release
#pragma omp flush acquire
#pragma omp single nowait
    flag = 1;
#pragma omp single
    {
      flag += 1;
    }
#pragma omp master
    a += 100;
#pragma omp masked
    b += 100;
#pragma omp masked filter(me % 2)
    c += 1;
#pragma omp masked filter(3)
    c += 1000;
#pragma omp barrier
  }
  printf("%d %d %d %d\n", a, b, c, flag);
  return 0;
}
