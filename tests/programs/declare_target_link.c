/* covers: declare target link on a global array and scalar: absent until mapped, explicit map(tofrom:) copies both ways, implicit tofrom map when a region uses a link variable without a map clause, target enter/exit data and target update on a link variable, a declare target function reading a link variable inside a region that maps it */
#include <stdio.h>

#define N 2048

double big[N];
int counter;
#pragma omp declare target link(big, counter)

#pragma omp declare target
static double get(int i) { return big[i]; }
#pragma omp end declare target

int main(void) {
  for (int i = 0; i < N; i++) big[i] = i;
  counter = 5;

#pragma omp target map(tofrom: big)
  for (int i = 0; i < N; i++) big[i] *= 2;
  printf("explicit map: big[10]=%.1f\n", big[10]);

  /* used without a map clause: mapped tofrom */
#pragma omp target
  {
    for (int i = 0; i < N; i++) big[i] += 1;
    counter += 1;
  }
  printf("implicit map: big[10]=%.1f counter=%d\n", big[10], counter);

#pragma omp target enter data map(to: big)
  /* present: the region's implicit map neither copies nor unmaps; get() reads the device copy */
#pragma omp target map(to: counter)
  for (int i = 0; i < N; i++) big[i] = get(i) + counter;
#pragma omp target update from(big)
  printf("after update from: big[10]=%.1f\n", big[10]);
#pragma omp target exit data map(delete: big)

  double s = 0;
  for (int i = 0; i < N; i++) s += big[i];
  printf("sum=%.1f\n", s);
  printf("%s\n", s == (double)N * (N - 1) + 7.0 * N && counter == 6 ? "PASS" : "FAIL");
  return 0;
}
