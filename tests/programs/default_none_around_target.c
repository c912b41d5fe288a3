// Target constructs inside regions whose default clause is none: the generated host code names no
// variable of its own there, so the user's data-sharing clauses stay complete (issue 46; SOLLVE
// 5.1 test_task_default_private has default(private), which gcc 11 and clang 14 lack, the same way).
#include <stdio.h>

#define N 64

int main(void) {
  int sum = 0;
  #pragma omp task shared(sum) default(none)
  {
    #pragma omp target map(tofrom: sum)
    {
      int local = 2;
      sum += local;
    }
  }
  #pragma omp taskwait
  printf("task default(none): sum %d\n", sum);

  int a[N];
  for (int i = 0; i < N; i++) a[i] = i;
  long total = 0;
  #pragma omp parallel num_threads(2) default(none) shared(a, total)
  {
    #pragma omp single
    {
      #pragma omp target data map(tofrom: a)
      {
        #pragma omp target teams distribute parallel for
        for (int i = 0; i < N; i++) a[i] *= 3;
        #pragma omp target update from(a[0:N / 2])
        #pragma omp target enter data map(to: total)
        #pragma omp target map(to: a) map(tofrom: total)
        for (int i = 0; i < N; i++) total += a[i];
        #pragma omp target exit data map(from: total)
      }
    }
  }
  printf("parallel default(none): a[%d] = %d, total %ld\n", N - 1, a[N - 1], total);
  return 0;
}
