/* covers: task, taskwait, taskgroup, taskloop (with grainsize, lastprivate, reduction) and depend inside target regions, run undeferred: in serial target code, in a parallel region under single and by every thread, with the default data sharing (in serial target code a written local or mapped variable, arrays too, is firstprivate; a region-shared variable is shared) and explicit private/firstprivate/shared clauses */
#include <stdio.h>
#include <omp.h>

#define N 64

int main(void) {
  int ok = 1;
  int a[N], order[4], tl_sum = 0, tl_last = -1, local_after = -1, count = 0, b[4] = {1, 2, 3, 4};
  for (int i = 0; i < N; i++) a[i] = 0;
#pragma omp target map(tofrom: a, order, tl_sum, tl_last, local_after, count, b)
  {
    int x = 1;
    int step = 0;
#pragma omp task depend(out: x) shared(order, step)
    order[step++] = 10;
#pragma omp task depend(in: x) shared(order, step)
    order[step++] = 20;
#pragma omp taskwait
#pragma omp taskgroup
    {
#pragma omp task firstprivate(x) shared(order, step)
      {
        x += 100; /* the task's copy */
        order[step++] = x;
      }
#pragma omp task shared(order, step)
      order[step++] = x; /* still 1 */
    }
    int local = 7;
#pragma omp task
    local = 99; /* firstprivate by default: the original stays 7 */
    local_after = local;
#pragma omp task
    b[0] = 50; /* a mapped array, not shared in serial target code: the task's firstprivate copy */
#pragma omp taskloop grainsize(8) reduction(+: tl_sum) lastprivate(tl_last) shared(a)
    for (int i = 0; i < N; i++) {
      a[i] = 2 * i;
      tl_sum += i;
      tl_last = i;
    }
#pragma omp parallel num_threads(4)
    {
#pragma omp single
      {
        for (int k = 0; k < 8; k++) {
#pragma omp task shared(count)
          {
#pragma omp atomic
            count += 1;
          }
        }
      }
      /* every thread creates tasks of its own */
#pragma omp task shared(count)
      {
#pragma omp atomic
        count += 100;
      }
#pragma omp taskwait
    }
  }
  printf("order %d %d %d %d local %d taskloop sum %d last %d a[63] %d count %d b[0] %d\n", order[0], order[1], order[2],
         order[3], local_after, tl_sum, tl_last, a[N - 1], count, b[0]);
  ok = ok && order[0] == 10 && order[1] == 20 && order[2] == 101 && order[3] == 1 && local_after == 7 &&
       tl_sum == N * (N - 1) / 2 && tl_last == N - 1 && a[N - 1] == 2 * (N - 1) && count == 408 && b[0] == 1;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return 0;
}
