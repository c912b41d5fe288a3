// A pointer variable in a map clause is the variable itself: map(from: p) and map(tofrom: p)
// bring back the value the region gave it (a device address: OpenMP's rule), and a region that
// leaves it alone leaves the host's value alone. has_device_addr of a scalar inside
// use_device_addr works on the device's storage. (SOLLVE 5.0 test_target_defaultmap_none,
// 5.1 test_target_has_device_addr; issue 46.)
#include <stdio.h>
#include <omp.h>

int main(void) {
  int A[100];
  for (int i = 0; i < 100; i++) A[i] = 0;
  int *p = 0, *q = A, *r = A;
  #pragma omp target enter data map(to: A)
  int *dA = 0;
  #pragma omp target data use_device_addr(A)
  dA = A;   /* the device's address of A */
  #pragma omp target map(from: p) map(tofrom: q, r)
  {
    p = &A[0];        /* the device's address of A */
    r = &A[5];
    q[7] = 7;         /* q went out translated: it reaches the device's A */
  }
  #pragma omp target exit data map(from: A)
  printf("from: device address %d\n", p == dA);
  printf("tofrom, unchanged: host value kept %d\n", q == A);
  printf("tofrom, changed: device address %d\n", r == dA + 5);
  printf("write through the translated pointer: A[7] = %d\n", A[7]);

  int x = 10, y = 0, *px = 0, *px2 = 0;
  #pragma omp target enter data map(to: x)
  #pragma omp target map(from: px) map(tofrom: x)
  px = &x;
  #pragma omp target data use_device_addr(x)
  #pragma omp target map(from: px2, y) has_device_addr(x)
  {
    px2 = &x;
    x += 5;
    y = x;
  }
  #pragma omp target exit data map(from: x)
  printf("has_device_addr scalar: same storage %d, x = %d, y = %d\n", px == px2, x, y);
  return 0;
}
