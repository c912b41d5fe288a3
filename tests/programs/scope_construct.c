/* scope (OpenMP 5.1) in device code: reductions combined into the shared variables before the
   scope's barrier, private copies, nowait; in a generic and an SPMD region. */
#include <stdio.h>
#include <omp.h>
int main(void) {
  int s = 0, hits = 0, t_seen = 0;
  double prod = 1.0;
  #pragma omp target parallel num_threads(64) map(tofrom: s, hits, prod, t_seen)
  {
    int me = omp_get_thread_num();
    #pragma omp scope reduction(+: s) reduction(*: prod)
    {
      s += me;
      prod *= (me % 2) ? 1.0 : 1.0;
    }
    /* after the scope's barrier every thread sees the sum */
    if (s != 64 * 63 / 2) hits = -1000;
    int tmp = 5;
    #pragma omp scope private(tmp) nowait
    {
      tmp = me;
      #pragma omp atomic
      hits += (tmp == me);
    }
    #pragma omp barrier
    if (me == 0) t_seen = tmp;
  }
  /* nested in teams distribute: one team of each launch */
  int tot = 0;
  #pragma omp target teams num_teams(4) map(tofrom: tot)
  #pragma omp parallel num_threads(32)
  {
    #pragma omp scope reduction(+: tot)
    tot += 1;
  }
  printf("sum %d prod %g hits %d tmp %d tot %d\n", s, prod, hits, t_seen, tot);
  return 0;
}
