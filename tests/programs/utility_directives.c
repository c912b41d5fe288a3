/* covers: OpenMP 5.1 utility and assumption directives: nothing (host and device code), error at(compilation) severity(warning), error at(execution) severity(warning) in host code, assume holds(...) around a block in a target region and in a declare target function, assumes at file scope, begin/end assumes */
#include <stdio.h>

#pragma omp assumes no_openmp_routines
#pragma omp error at(compilation) severity(warning) message("utility_directives.c: a warning of the compile")

#pragma omp begin assumes no_parallelism
static int twice(int v) { return 2 * v; }
#pragma omp end assumes

#pragma omp declare target
int bounded(int v) {
  int r = 0;
  #pragma omp assume holds(v >= 0) no_parallelism
  {
    #pragma omp nothing
    r = v % 7;
  }
  return r;
}
#pragma omp end declare target

int main(void) {
  int x = 20, r = 0, s[8];
  #pragma omp nothing
  #pragma omp error at(execution) severity(warning) message("a warning at run time (on stderr)")
  #pragma omp target map(tofrom: r) map(from: s) map(to: x)
  {
    #pragma omp nothing
    #pragma omp assume holds(x > 0) absent(critical)
    { r = x + 1; }
    #pragma omp parallel for
    for (int i = 0; i < 8; ++i) {
      #pragma omp nothing
      s[i] = bounded(i * 3);
    }
  }
  int bad = r != 21;
  for (int i = 0; i < 8; ++i) bad += s[i] != (i * 3) % 7;
  printf("target region with nothing and assume: %s\n", bad ? "WRONG" : "ok");
  printf("begin/end assumes: %d\n", twice(21));
  printf("%s\n", bad || twice(21) != 42 ? "FAIL" : "PASS");
  return bad != 0;
}
