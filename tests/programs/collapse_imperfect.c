/* collapse of imperfectly nested loops (OpenMP 5.0): declarations and statements between the
   loops (before and after an inner loop), which the compiler moves into the innermost body
   (intervening code runs at least once per iteration around it, at most once per innermost
   iteration); the host fallback runs the perfect part collapsed. */
#include <stdio.h>
int main(void) {
  int a[16][16], b[8][8][8];
  #pragma omp target teams distribute parallel for collapse(2) map(from: a)
  for (int i = 0; i < 16; i++) {
    int t = i * 2;
    const int u = t + 1;
    for (int j = 0; j < 16; j++) a[i][j] = t + u * j;
  }
  #pragma omp target map(from: b)
  #pragma omp parallel for collapse(3)
  for (int i = 0; i < 8; i++) {
    int x = i * 100;
    for (int j = 0; j < 8; j++) {
      int y = x + j * 10;
      for (int k = 0; k < 8; k++) b[i][j][k] = y + k;
    }
  }
  /* statements before and after the inner loop: each runs some number of times per i; what
     they store does not depend on how many (SOLLVE 5.0 test_target_imperfect_loop's shape) */
  int first[16], last[16], c[16][16];
  #pragma omp target teams distribute parallel for collapse(2) map(from: first, last, c)
  for (int i = 0; i < 16; i++) {
    first[i] = 3 * i;
    for (int j = 0; j < 16; j++) c[i][j] = i * j;
    last[i] = i + 100;
  }
  int around = 1;
  for (int i = 0; i < 16; i++) {
    around &= first[i] == 3 * i && last[i] == i + 100;
    for (int j = 0; j < 16; j++) around &= c[i][j] == i * j;
  }
  printf("statements around the inner loop: %s\n", around ? "ok" : "WRONG");
  long s = 0;
  for (int i = 0; i < 16; i++) for (int j = 0; j < 16; j++) s += a[i][j];
  long s2 = 0;
  for (int i = 0; i < 8; i++) for (int j = 0; j < 8; j++) for (int k = 0; k < 8; k++) s2 += b[i][j][k] == i * 100 + j * 10 + k;
  printf("a[15][15]=%d sum=%ld b ok=%ld\n", a[15][15], s, s2);
  return 0;
}
