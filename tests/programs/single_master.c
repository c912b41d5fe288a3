/* covers: single (with implicit barrier), single nowait, master, masked (default and filter), broadcast through a shared variable after single, omp_get_thread_num checks inside target parallel */
#include <stdio.h>
#include <omp.h>

int main(void) {
  int single_count = 0, master_count = 0, masked_count = 0, masked2_count = 0;
  int master_tid = -1, masked2_tid = -1;
  int broadcast_ok = 1;
  int nth = 0;

#pragma omp target parallel num_threads(8) map(tofrom: single_count, master_count, masked_count, masked2_count, master_tid, masked2_tid, broadcast_ok, nth)
  {
#pragma omp single
    {
      single_count++;
      nth = omp_get_num_threads();
    }
#pragma omp master
    {
      master_count++;
      master_tid = omp_get_thread_num();
    }
#pragma omp masked
    {
      masked_count++;
    }
#pragma omp masked filter(1)
    {
      masked2_count++;
      masked2_tid = omp_get_thread_num();
    }
  }
  printf("single=%d master=%d (tid %d) masked=%d\n", single_count, master_count, master_tid, masked_count);
  printf("masked filter(1): ok=%d\n",
         nth > 1 ? (masked2_count == 1 && masked2_tid == 1) : (masked2_count == 0));

  /* single broadcasting a value computed once to all threads through a mapped variable */
  int value = 0;
  int readers[8] = {0};
#pragma omp target parallel num_threads(8) map(tofrom: value, readers, broadcast_ok)
  {
#pragma omp single
    value = 1234;
    int me = omp_get_thread_num();
    if (me < 8) readers[me] = value;
  }
  for (int t = 0; t < 8; t++)
    if (readers[t] != 0 && readers[t] != 1234) broadcast_ok = 0;
  if (readers[0] != 1234) broadcast_ok = 0;
  printf("single broadcast ok=%d\n", broadcast_ok);

  /* single nowait followed by an explicit barrier; master has no barrier */
  int stage = 0, after = 0;
#pragma omp target parallel num_threads(4) map(tofrom: stage, after)
  {
#pragma omp single nowait
    stage = 1;
#pragma omp barrier
    if (stage == 1) {
#pragma omp atomic
      after++;
    }
#pragma omp barrier
#pragma omp master
    stage = 2;
  }
  printf("single nowait: stage=%d all threads saw it=%d\n", stage, after >= 1);
  int pass = single_count == 1 && master_count == 1 && master_tid == 0 && masked_count == 1 && broadcast_ok &&
             stage == 2;
  printf("%s\n", pass ? "PASS" : "FAIL");
  return 0;
}
