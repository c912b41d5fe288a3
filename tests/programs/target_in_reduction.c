/* in_reduction on target constructs (OpenMP 5.0): a target task joins the enclosing taskgroup's
   task reduction, with or without nowait, next to host tasks doing the same. */
#include <stdio.h>
int main(void) {
  int x = 0;
  double y = 1.0;
  int a[100];
  for (int i = 0; i < 100; i++) a[i] = i;
  #pragma omp parallel num_threads(4)
  #pragma omp single
  {
    #pragma omp taskgroup task_reduction(+: x) task_reduction(*: y)
    {
      for (int t = 0; t < 4; t++) {
        #pragma omp task in_reduction(+: x) in_reduction(*: y)
        { x += 1; y *= 2.0; }
      }
      #pragma omp target teams distribute parallel for in_reduction(+: x) reduction(+: x) map(to: a)
      for (int i = 0; i < 100; i++) x += a[i];
      #pragma omp target in_reduction(*: y) nowait
      y *= 3.0;
    }
  }
  printf("x=%d y=%g\n", x, y);
  return 0;
}
