// expect-error: 6:*: unknown clause
#include <stdio.h>

int main(void) {
  int a[256];
#pragma omp target teams distribute parallel for map(from: a) shedule(static, 4)
  for (int i = 0; i < 256; i++) a[i] = 2 * i;
  printf("%d\n", a[255]);
  return 0;
}
