/* Dependence objects (OpenMP 5.0): depobj with depend, update and destroy; tasks and a target
   task ordered through depend(depobj: o); the same directives inside a target region, where the
   tasks they order run at once. */
#include <omp.h>
#include <stdio.h>
int main(void) {
  int x = 0, y = 0, trace[3] = {0, 0, 0}, pos = 0, dev = 0;
  omp_depend_t ox, oy;
  #pragma omp depobj(ox) depend(out: x)
  #pragma omp depobj(oy) depend(in: x)
  #pragma omp parallel num_threads(4)
  #pragma omp single
  {
    #pragma omp task depend(depobj: ox) shared(x, trace, pos)
    { x = 5; trace[pos++] = 1; }
    #pragma omp target map(tofrom: y) map(to: x) nowait depend(depobj: oy)
    y = x * 3;
    #pragma omp depobj(oy) update(inout)
    #pragma omp task depend(depobj: oy) shared(x, trace, pos)
    { x += 1; trace[pos++] = 2; }
    #pragma omp taskwait
  }
  #pragma omp depobj(ox) destroy
  #pragma omp depobj(oy) destroy
  printf("x %d, y %d, order %d %d\n", x, y, trace[0], trace[1]);
  #pragma omp target map(tofrom: dev)
  {
    omp_depend_t o;
    #pragma omp depobj(o) depend(inout: dev)
    #pragma omp task depend(depobj: o) shared(dev)
    dev = 7;
    #pragma omp depobj(o) update(in)
    #pragma omp task depend(depobj: o) shared(dev)
    dev *= 6;
    #pragma omp depobj(o) destroy
  }
  printf("device %d\n", dev);
  printf("%s\n", x == 6 && y == 15 && trace[0] == 1 && trace[1] == 2 && dev == 42 ? "PASS" : "FAIL");
  return 0;
}
