/* covers: task reductions in device code: a taskgroup with task_reduction (two operators) and tasks
   with in_reduction; reduction(task, +: x) on a parallel region with in_reduction tasks in it; a
   taskloop with in_reduction inside a taskgroup of a single in a parallel region */
#include <stdio.h>
int main(void) {
  int sum = 0, prod = 1, par = 0;
#pragma omp target map(tofrom: sum, prod, par)
  {
#pragma omp taskgroup task_reduction(+: sum) task_reduction(*: prod)
    {
      for (int i = 0; i < 4; i++) {
#pragma omp task in_reduction(+: sum) in_reduction(*: prod)
        { sum += i; prod *= 2; }
      }
    }
#pragma omp parallel num_threads(8) reduction(task, +: par)
    {
#pragma omp task in_reduction(+: par)
      par += 1;
    }
  }
  int tl = 0;
#pragma omp target map(tofrom: tl)
#pragma omp parallel num_threads(4)
#pragma omp single
  {
#pragma omp taskgroup task_reduction(+: tl)
    {
#pragma omp taskloop in_reduction(+: tl) num_tasks(4)
      for (int i = 0; i < 10; i++) tl += i;
    }
  }
  printf("sum %d prod %d par %d taskloop %d\n", sum, prod, par, tl);
  return 0;
}
