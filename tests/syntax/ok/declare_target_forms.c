/* every declare target form: begin/end block, nested blocks, to(list) for variables and functions, link(list), device_type, declarations before and after */
#include <stdio.h>

#pragma omp declare target
int counter;
double table[128];
static int helper(int x) { return x + 1; }
#pragma omp declare target
int nested_global = 5;
#pragma omp end declare target
int uses_nested(void) { return nested_global + helper(counter); }
#pragma omp end declare target

int plain_fn(int x) { return x * 3; }
double plain_var = 2.5;
#pragma omp declare target to(plain_fn, plain_var)

long linked_big[1 << 16];
#pragma omp declare target link(linked_big)

int host_only(int x) { return x - 1; }
int device_only(int x) { return x * 7; }
#pragma omp declare target to(device_only) device_type(nohost)
int any_fn(int x) { return x ^ 3; }
#pragma omp declare target to(any_fn) device_type(any)

extern int later_defined;
#pragma omp declare target to(later_defined)
int later_defined = 11;

#pragma omp declare target
int proto_only(int);
#pragma omp end declare target
int proto_only(int x) { return x + later_defined; }

int main(void) {
  int r[6];
#pragma omp target update to(counter, plain_var)
#pragma omp target map(from: r) map(tofrom: linked_big[0:16])
  {
    r[0] = uses_nested();
    r[1] = plain_fn(2) + (int)plain_var;
    r[2] = device_only(1);
    r[3] = any_fn(4);
    r[4] = proto_only(1);
    linked_big[0] = r[0];
    table[0] = 1.0;
    counter++;
    r[5] = (int)table[0];
  }
#pragma omp target update from(counter, table[0:4])
  printf("%d %d %d %d %d %d %d %d\n", r[0], r[1], r[2], r[3], r[4], r[5], counter, host_only(1));
  return 0;
}
