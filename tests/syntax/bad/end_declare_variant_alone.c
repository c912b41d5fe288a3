// expect-error: 4:13: without a matching 'begin declare variant'
#include <stdio.h>

#pragma omp end declare variant

int main(void) {
  printf("%d\n", 1);
  return 0;
}
