// expect-error: 10:22: syntax error
#include <stdio.h>

static int twice(int x) { return 2 * x; }

int main(void) {
  int a[16];
#pragma omp target teams distribute parallel for map(from: a)
  for (int i = 0; i < 16; i++) a[i] = i;
  int s = twice(a[3] 2);
  printf("%d\n", s);
  return 0;
}
