/* OpenMP 5.0: a function or variable that the initializer of a declare target variable names
   is declare target too; OpenMP 5.1's begin declare target with device_type, and nested
   declare target. */
#include <stdio.h>

int twice(int x) { return 2 * x; }
int thrice(int x) { return 3 * x; }
int base[3] = {10, 20, 30};

#pragma omp declare target
int (*op)(int) = twice;
int (*table[2])(int) = {twice, thrice};
int *middle = &base[1];
#pragma omp end declare target

#pragma omp begin declare target device_type(any)
int plus_one(int x) { return x + 1; }
#pragma omp declare target
int minus_one(int x) { return x - 1; }
#pragma omp end declare target
#pragma omp end declare target

int main(void) {
  int r[5] = {0};
  #pragma omp target map(from: r)
  {
    r[4] = *middle;
    r[0] = op(5);
    r[1] = table[0](7) + table[1](7);
    r[2] = plus_one(41);
    r[3] = minus_one(43);
  }
  printf("%d %d %d %d %d\n", r[0], r[1], r[2], r[3], r[4]);
  return 0;
}
