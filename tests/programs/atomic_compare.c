/* atomic compare (OpenMP 5.1): minimum and maximum by < and > in both statement forms and
   operand orders, compare-and-swap by ==, on int, long and double. */
#include <stdio.h>
int main(void) {
  int mx = -1, mn = 1 << 30, flag = 0, winner = -1;
  double dmx = -1.0, dmn = 1e30;
  long lmx = 0;
  #pragma omp target teams distribute parallel for map(tofrom: mx, mn, flag, winner, dmx, dmn, lmx)
  for (int i = 0; i < 1000; i++) {
    int v = (i * 37) % 1001;
    #pragma omp atomic compare
    if (v > mx) { mx = v; }
    #pragma omp atomic compare
    mn = v < mn ? v : mn;
    #pragma omp atomic compare
    if (flag == 0) { flag = 1; }
    #pragma omp atomic compare
    winner = winner == -1 ? 7 : winner;
    #pragma omp atomic compare
    dmx = dmx < v * 0.5 ? v * 0.5 : dmx;
    #pragma omp atomic compare
    if (dmn > v + 0.25) { dmn = v + 0.25; }
    #pragma omp atomic compare
    if (lmx < (long)v * 1000000000L) { lmx = (long)v * 1000000000L; }
  }
  printf("max %d min %d flag %d winner %d dmax %g dmin %g lmax %ld\n", mx, mn, flag, winner, dmx, dmn, lmx);
  return 0;
}
