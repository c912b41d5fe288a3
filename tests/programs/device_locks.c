/* covers: omp_lock_t on the device: omp_init_lock/omp_set_lock/omp_unset_lock/omp_destroy_lock inside a target region, omp_test_lock, lock protecting a multi-field update, omp nest lock */
#include <stdio.h>
#include <omp.h>

#define N 1000

int main(void) {
  long sum = 0;
  int count = 0, maxv = -1;
  int tries_ok = 1;

#pragma omp target map(tofrom: sum, count, maxv, tries_ok)
  {
    omp_lock_t lk;
    omp_init_lock(&lk);
#pragma omp parallel for num_threads(32)
    for (int i = 0; i < N; i++) {
      int v = (i * 7919) % 1000;
      omp_set_lock(&lk);
      sum += v;
      count++;
      if (v > maxv) maxv = v;
      omp_unset_lock(&lk);
    }
    /* test_lock on a free lock succeeds, on a held lock fails */
    if (omp_test_lock(&lk)) {
      omp_unset_lock(&lk);
    } else {
      tries_ok = 0;
    }
    omp_destroy_lock(&lk);
  }
  printf("lock: count=%d sum=%ld max=%d test_lock ok=%d\n", count, sum, maxv, tries_ok);

  /* a lock per bucket, initialised on the device by one thread */
  int buckets[8] = {0};
#pragma omp target map(tofrom: buckets)
  {
    omp_lock_t locks[8];
    for (int b = 0; b < 8; b++) omp_init_lock(&locks[b]);
#pragma omp parallel num_threads(16)
    {
#pragma omp for
      for (int i = 0; i < 800; i++) {
        int b = (i * 5) % 8;
        omp_set_lock(&locks[b]);
        buckets[b] += i % 3;
        omp_unset_lock(&locks[b]);
      }
    }
    for (int b = 0; b < 8; b++) omp_destroy_lock(&locks[b]);
  }
  printf("bucket locks: %d %d %d %d %d %d %d %d\n", buckets[0], buckets[1], buckets[2], buckets[3], buckets[4],
         buckets[5], buckets[6], buckets[7]);

  /* nest lock taken twice by the same thread */
  int nested_total = 0;
#pragma omp target map(tofrom: nested_total)
  {
    omp_nest_lock_t nl;
    omp_init_nest_lock(&nl);
#pragma omp parallel num_threads(8)
    {
      omp_set_nest_lock(&nl);
      omp_set_nest_lock(&nl);
      nested_total += 2;
      omp_unset_nest_lock(&nl);
      nested_total -= 1;
      omp_unset_nest_lock(&nl);
    }
    omp_destroy_nest_lock(&nl);
  }
  printf("nest lock: total is thread count=%d\n", nested_total >= 1 && nested_total <= 8);

  long ws = 0;
  int wm = -1;
  int wb[8] = {0};
  for (int i = 0; i < N; i++) {
    int v = (i * 7919) % 1000;
    ws += v;
    if (v > wm) wm = v;
  }
  for (int i = 0; i < 800; i++) wb[(i * 5) % 8] += i % 3;
  int pass = count == N && ws == sum && wm == maxv && tries_ok;
  for (int b = 0; b < 8; b++)
    if (wb[b] != buckets[b]) pass = 0;
  printf("%s\n", pass ? "PASS" : "FAIL");
  return 0;
}
