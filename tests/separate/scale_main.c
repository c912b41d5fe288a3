#include <stdio.h>
void scale(int n, double *x, double a);   /* in libscale.so (scale_lib.c) */
int main(void) {
  double x[100];
  for (int i = 0; i < 100; i++) x[i] = i;
  #pragma omp target data map(tofrom: x)
  {
    #pragma omp target teams distribute parallel for
    for (int i = 0; i < 100; i++) x[i] += 1;
    scale(100, x, 2.0);   /* x is present: no copy in or out here */
    #pragma omp target teams distribute parallel for
    for (int i = 0; i < 100; i++) x[i] += 1;
  }
  printf("%g %g\n", x[0], x[99]);   /* (0+1)*2+1 = 3, (99+1)*2+1 = 201 */
  return 0;
}
