/* use_device_addr (OpenMP 5.0) of an array and of a scalar: in the target data construct's
   body their names are the device's storage (what a library that takes device pointers
   needs); a struct member of the same name is not touched. */
#include <omp.h>
#include <stdio.h>
struct point { int x, a; };
int main(void) {
  int a[100], host[100], dev = omp_get_default_device();
  double x = 2.5, xback = 0;
  struct point pt = {1, 2};
  for (int i = 0; i < 100; i++) a[i] = -1;
  #pragma omp target data map(tofrom: a, x)
  {
    #pragma omp target data use_device_addr(a, x)
    {
      int *da = a;          /* the device copy of a */
      double *dx = &x;      /* the device copy of x */
      pt.x += 10;           /* members named like the items stay host fields */
      pt.a += 20;
      #pragma omp target is_device_ptr(da, dx)
      {
        for (int i = 0; i < 100; i++) da[i] = 2 * i;
        *dx = 7.5;
      }
      omp_target_memcpy(host, da, sizeof a, 0, 0, omp_get_initial_device(), dev);
      omp_target_memcpy(&xback, dx, sizeof x, 0, 0, omp_get_initial_device(), dev);
      printf("through the device addresses: host[99] %d, x %.1f, sizeof a %d\n", host[99], xback, (int)sizeof a);
    }
  }
  printf("after the data region: a[99] %d, x %.1f, pt %d %d\n", a[99], x, pt.x, pt.a);
  printf("%s\n", host[99] == 198 && xback == 7.5 && a[99] == 198 && x == 7.5 && pt.x == 11 && pt.a == 22 ? "PASS" : "FAIL");
  return 0;
}
