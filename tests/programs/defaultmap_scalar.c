/* covers: defaultmap(tofrom: scalar) (scalars written on the device come back), the default (firstprivate scalars: device writes are lost), defaultmap(tofrom: scalar) with nowait and depend, an unsupported defaultmap form is not used */
#include <stdio.h>

int main(void) {
  int count = 0;
  double acc = 1.0;
  long big = 10;
#pragma omp target defaultmap(tofrom: scalar)
  {
    count = 41;
    acc *= 2.5;
    big += 5;
  }
  printf("defaultmap(tofrom: scalar): count=%d acc=%.2f big=%ld\n", count, acc, big);

  int lost = 3;
#pragma omp target
  lost = 99;   /* firstprivate by default: the host keeps 3 */
  printf("default firstprivate: lost=%d\n", lost);

  int steps = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
  {
#pragma omp target nowait defaultmap(tofrom: scalar) depend(inout: steps)
    steps += 10;
#pragma omp target nowait defaultmap(tofrom: scalar) depend(inout: steps)
    steps *= 3;
#pragma omp taskwait
  }
  printf("nowait chain: steps=%d\n", steps);
  printf("%s\n", count == 41 && acc == 2.5 && big == 15 && lost == 3 && steps == 30 ? "PASS" : "FAIL");
  return 0;
}
