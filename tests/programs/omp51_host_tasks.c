/* covers: OpenMP 5.1 in host code that gcc 12 lacks: depend(inoutset: ...) on tasks and on a target nowait construct, taskwait nowait with depend, omp_target_is_accessible */
#include <omp.h>
#include <stdio.h>

int main(void) {
  int x = 0, y = 0, z = 0, done = 0, failures = 0;
  int a[16] = {0};

  #pragma omp parallel num_threads(4)
  #pragma omp single
  {
    #pragma omp task depend(out: x) shared(x)
    x = 10;
    /* inoutset tasks: after the out task; each adds under an atomic */
    #pragma omp task depend(inoutset: x) shared(x, y)
    {
      #pragma omp atomic
      y += x;
    }
    #pragma omp task depend(inoutset: x) shared(x, y)
    {
      #pragma omp atomic
      y += x;
    }
    /* a target task in the same set */
    #pragma omp target nowait depend(inoutset: x) map(tofrom: a) map(to: x)
    for (int i = 0; i < 16; ++i) a[i] = x + i;
    /* after all of the set */
    #pragma omp task depend(in: x) shared(y, z)
    z = y;
    /* taskwait nowait: no waiting here, but a task that depends like it */
    #pragma omp taskwait nowait depend(inout: x)
    #pragma omp task depend(in: x) shared(done)
    done = 1;
  }
  printf("inoutset tasks after the out task: %s\n", y == 20 && z == 20 ? "ok" : "WRONG");
  printf("target task in the set: %s\n", a[15] == 25 ? "ok" : "WRONG");
  printf("taskwait nowait: %s\n", done == 1 ? "ok" : "WRONG");
  failures += y != 20 || z != 20 || a[15] != 25 || done != 1;

  int host = omp_target_is_accessible(a, sizeof a, omp_get_initial_device());
  int dev = omp_target_is_accessible(a, sizeof a, omp_get_default_device());
  int bad = omp_target_is_accessible(a, sizeof a, -42);
  printf("omp_target_is_accessible: host %d, default device a yes or no: %s, invalid device %d\n", host,
         dev == 0 || dev == 1 ? "ok" : "WRONG", bad);
  failures += host != 1 || (dev != 0 && dev != 1) || bad != 0;

  printf("%s\n", failures ? "FAIL" : "PASS");
  return failures != 0;
}
