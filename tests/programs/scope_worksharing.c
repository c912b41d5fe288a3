/* scope (OpenMP 5.1) with a worksharing loop closely nested in it: 5.1 allows it (the scope's block
   is the team's, the loop shares its iterations among the team; 5.2 lists scope among the
   worksharing constructs, which gcc and clang do not follow); the scope's reduction sums what the
   loop's iterations added, and every thread sees the sum after the scope's barrier. */
#include <stdio.h>
#include <omp.h>
int main(void) {
  /* a worksharing loop in a scope: the team shares its iterations, the scope's reduction sums them */
  long ws = 0;
  int every = 1;
  #pragma omp target parallel num_threads(48) map(tofrom: ws, every)
  {
    #pragma omp scope reduction(+: ws)
    {
      #pragma omp for
      for (int i = 0; i < 1000; i++) ws += i;
    }
    /* the scope's barrier: every thread sees the whole sum */
    if (ws != 999 * 1000 / 2) {
      #pragma omp atomic write
      every = 0;
    }
  }
  printf("for in scope: sum %ld, seen by every thread: %s\n", ws, every ? "yes" : "no");
  return 0;
}
