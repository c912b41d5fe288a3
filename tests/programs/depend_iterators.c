/* The iterator modifier of depend and affinity (OpenMP 5.0): host tasks, a target task and a
   taskwait ordered by one dependence per element (depend(iterator(i=0:n), in: a[i])), and the
   same clauses on tasks inside a target region, where they run at once (included tasks). */
#include <stdio.h>
#define N 8
int main(void) {
  int a[N], b[N], n = N, sum = 0, dev_sum = 0;
  for (int i = 0; i < N; i++) a[i] = b[i] = 0;
  #pragma omp parallel num_threads(4)
  #pragma omp single
  {
    for (int i = 0; i < N; i++) {
      #pragma omp task depend(out: a[i]) firstprivate(i) shared(a)
      a[i] = i + 1;
    }
    /* waits for all N producers */
    #pragma omp task depend(iterator(int k = 0:n), in: a[k]) depend(out: sum) shared(a, sum) affinity(iterator(j = 0:n): a[j])
    for (int i = 0; i < N; i++) sum += a[i];
    /* a target task after the producers of a[0], a[2], a[4], a[6] (every second element): it
       reads only those (the odd elements may still be being written) */
    #pragma omp target map(tofrom: b) map(to: a) nowait depend(iterator(int k = 0:n:2), in: a[k])
    for (int i = 0; i < N; i++) b[i] = 10 * a[i - i % 2];
    #pragma omp taskwait depend(iterator(k = 0:n), inout: a[k])
    #pragma omp taskwait
  }
  printf("host: sum %d\n", sum);
  printf("target task: b[7] = %d, b[0] = %d\n", b[7], b[0]);
  #pragma omp target map(tofrom: dev_sum, a)
  {
    #pragma omp task depend(iterator(int k = 0:n), out: a[k]) affinity(a[0:N]) shared(a)
    for (int i = 0; i < N; i++) a[i] = 2 * i;
    #pragma omp task depend(iterator(int k = 0:n), in: a[k]) shared(a, dev_sum)
    for (int i = 0; i < N; i++) dev_sum += a[i];
    #pragma omp taskwait depend(iterator(int k = 0:n), in: a[k])
  }
  printf("device: sum %d\n", dev_sum);
  printf("%s\n", sum == 36 && b[7] == 70 && b[0] == 10 && dev_sum == 56 ? "PASS" : "FAIL");
  return 0;
}
