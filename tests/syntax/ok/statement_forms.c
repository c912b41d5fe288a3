/* statements that can follow a directive: compound, expression, if/else, for, while, do, switch, nested directive, call, return-free blocks, null statement, labeled statement inside a block */
#include <stdio.h>

#pragma omp declare target
static int bump(int *p) { return ++*p; }
#pragma omp end declare target

int main(void) {
  int x = 0, y = 0, z[16] = {0};

#pragma omp target map(tofrom: x)
  x = 1;

#pragma omp target map(tofrom: x)
  bump(&x);

#pragma omp target map(tofrom: x, y)
  if (x > 0)
    y = 1;
  else
    y = 2;

#pragma omp target map(tofrom: z)
  for (int i = 0; i < 16; i++) z[i] = i;

#pragma omp target map(tofrom: x)
  while (x < 10) x += 3;

#pragma omp target map(tofrom: y)
  do {
    y *= 2;
  } while (y < 100);

#pragma omp target map(tofrom: x, y)
  switch (x % 3) {
  case 0:
    y = 0;
    break;
  case 1:
    y = 1;
    break;
  default:
    y = -1;
  }

#pragma omp target map(tofrom: z)
#pragma omp parallel
#pragma omp single
  z[0] = -1;

#pragma omp target
  ;

#pragma omp target map(tofrom: x)
  {
    {
      x += 1;
    }
    goto done;
  done:
    x += 1;
  }

#pragma omp target map(tofrom: x)
#pragma omp parallel num_threads(2)
  {
#pragma omp barrier
  }

#pragma omp target map(tofrom: z)
#pragma omp parallel for
  for (int i = 0; i < 16; i++)
    if (i % 2)
      z[i] = 0;
    else
      z[i] = 1;

  printf("%d %d %d %d\n", x, y, z[0], z[15]);
  return 0;
}
