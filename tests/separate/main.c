/* Calls device functions defined in another file (linked from a static library) from target regions. */
#include <stdio.h>

#pragma omp declare target
double scale(double x);
int squared_plus(int k, int add);
#pragma omp end declare target
int lib_sum(int n);

int main(void) {
  double out[8];
  int sq[8], s = 0;
#pragma omp target teams distribute parallel for map(from: out, sq)
  for (int i = 0; i < 8; i++) {
    out[i] = scale(i);
    sq[i] = squared_plus(i, 1);
  }
#pragma omp target map(tofrom: s)
  {
#pragma omp critical
    s += 5;
  }
  printf("scale %.1f %.1f squared %d %d lib %d main %d\n", out[0], out[7], sq[0], sq[7], lib_sum(10), s);
  return 0;
}
