// expect-error: 4:13: matches the GPU but not the host is not supported yet
#include <stdio.h>

#pragma omp begin declare variant match(device = {kind(nohost)})
static int where(void) { return 0; }
#pragma omp end declare variant

int main(void) {
  printf("%d\n", 1);
  return 0;
}
