/* covers: target update to/from inside target data (whole arrays and sections with nonzero lower bound), map(always, tofrom:) on present data, iterative host/device ping-pong, target update with if clause */
#include <stdio.h>

#define N 256

int main(void) {
  int a[N], b[N];
  for (int i = 0; i < N; i++) {
    a[i] = i;
    b[i] = 0;
  }
  long host_trace = 0;

#pragma omp target data map(tofrom: a) map(alloc: b)
  {
    for (int iter = 0; iter < 5; iter++) {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < N; i++) b[i] = a[i] + iter;

      /* bring back only the middle part of b, inspect it on the host */
#pragma omp target update from(b[100:50])
      for (int i = 100; i < 150; i++) host_trace += b[i];

      /* host modifies a slice of a and pushes only that slice */
      for (int i = 200; i < 210; i++) a[i] = b[i - 100] * 2;
#pragma omp target update to(a[200:10])

#pragma omp target teams distribute parallel for
      for (int i = 0; i < N; i++) a[i] = a[i] + 1;
    }
    /* update with a false if clause does nothing; the real one follows */
    int do_update = 0;
#pragma omp target update from(a) if(do_update)
    do_update = 1;
#pragma omp target update from(a) if(do_update)
    long s = 0;
    for (int i = 0; i < N; i++) s += a[i];
    printf("inside data region: a[0]=%d a[205]=%d sum=%ld\n", a[0], a[205], s);

    /* always forces the copy even though a is present */
    for (int i = 0; i < N; i++) a[i] = 1;
#pragma omp target map(always, tofrom: a)
    {
      for (int i = 0; i < N; i++) a[i] += 2;
    }
    printf("after always: a[0]=%d a[255]=%d\n", a[0], a[255]);
  }
  long s = 0;
  for (int i = 0; i < N; i++) s += a[i];
  printf("host_trace=%ld final sum=%ld\n", host_trace, s);
  printf("%s\n", s == 3 * N && host_trace == 5 * 6225 + 100 * (0 + 1 + 2 + 3 + 4) ? "PASS" : "FAIL");
  return 0;
}
