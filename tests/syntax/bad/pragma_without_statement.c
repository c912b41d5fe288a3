// expect-error: 8:*: expected a statement
#include <stdio.h>

int main(void) {
  int x = 0;
  if (x == 0) {
    x = 1;
#pragma omp target map(tofrom: x)
  }
  printf("%d\n", x);
  return 0;
}
