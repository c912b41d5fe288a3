// expect-error: 9:*: closely nested
#include <stdio.h>

int main(void) {
  double a[100];
#pragma omp target map(from: a)
#pragma omp parallel num_threads(4)
  {
#pragma omp teams num_teams(4)
    {
      a[1] = 1.0;
    }
  }
  printf("%f\n", a[1]);
  return 0;
}
