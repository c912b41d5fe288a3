/* variadic host functions (stdarg) wrapping offload kernels, device printf with many argument types */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static void logf_(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
}

/* sum n integer arrays of equal length on the device: arrays passed as varargs */
static long sum_arrays(int len, int count, ...) {
  long total = 0;
  va_list ap;
  va_start(ap, count);
  for (int k = 0; k < count; k++) {
    int *arr = va_arg(ap, int *);
    long part = 0;
#pragma omp target teams distribute parallel for map(to: arr[0:len]) reduction(+: part) map(tofrom: part)
    for (int i = 0; i < len; i++) part += arr[i];
    total += part;
  }
  va_end(ap);
  return total;
}

int main(void) {
  int a[10], b[10], c[10];
  for (int i = 0; i < 10; i++) {
    a[i] = i;
    b[i] = 2 * i;
    c[i] = 3 * i;
  }
  long s = sum_arrays(10, 3, a, b, c);
  logf_("sum=%ld of %d arrays (%s)\n", s, 3, "varargs");
#pragma omp target
  {
    printf("device: %d %u %ld %lld %f %e %g %c %s %x %o %p %5.2f|%-4d|\n", -1, 2u, 3L, 4LL, 5.0, 6.0, 7.0, 'z', "str",
           255, 8, (void *)0, 3.14159, 9);
  }
  return s == 270 ? EXIT_SUCCESS : EXIT_FAILURE;
}
