// expect-error: 4:13: without a matching 'end declare variant'
#include <stdio.h>

#pragma omp begin declare variant match(device = {kind(host)})
static int where(void) { return 1; }

int main(void) {
  printf("%d\n", where());
  return 0;
}
