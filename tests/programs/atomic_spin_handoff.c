/* One thread of a team spins on an atomic read until another thread's atomic write: the
 * threads of a team must all make progress (the GPU's independent thread scheduling; under
 * the emulator, atomic reads and writes are points where its threads take turns). */
#include <omp.h>
#include <stdio.h>

int main(void) {
  int x = 0, flag = 0, seen = -1, polls_ok = 0;
#pragma omp target parallel num_threads(2) map(tofrom: x, flag, seen, polls_ok)
  {
    if (omp_get_thread_num() == 0) {
      x = 42;
#pragma omp flush
#pragma omp atomic write
      flag = 1;
    } else if (omp_get_thread_num() == 1) {
      int f = 0;
      long polls = 0;
      while (f == 0) {
#pragma omp atomic read
        f = flag;
        polls++;
      }
#pragma omp flush
      seen = x;
      polls_ok = polls >= 1;
    }
  }
  /* a chain through a team: thread t waits for thread t-1's value, then passes it on */
  int chain[8] = {0};
#pragma omp target parallel num_threads(8) map(tofrom: chain)
  {
    int t = omp_get_thread_num();
    if (t < 8) {
      if (t == 0) {
#pragma omp atomic write
        chain[0] = 1;
      } else {
        int v = 0;
        while (v == 0) {
#pragma omp atomic read
          v = chain[t - 1];
        }
#pragma omp atomic write
        chain[t] = v + 1;
      }
    }
  }
  printf("handoff: flag %d x seen %d polled %d\n", flag, seen, polls_ok);
  printf("chain:");
  for (int i = 0; i < 8; i++) printf(" %d", chain[i]);
  printf("\n");
  return 0;
}
