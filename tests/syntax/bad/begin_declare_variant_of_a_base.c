// expect-error: 6:13: variants of a base function in such blocks are not supported yet
#include <stdio.h>

int where(void);

#pragma omp begin declare variant match(device = {kind(host)})
int where(void) { return 1; }
#pragma omp end declare variant

int main(void) {
  printf("%d\n", where());
  return 0;
}
