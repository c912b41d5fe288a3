/* collapse of non-rectangular loop nests (OpenMP 5.0): inner bounds that depend on an outer
   loop's variable. The nest is collapsed down to its rectangular outer loops and the rest run
   inside each of their iterations; a loop variable declared outside stays private. */
#include <stdio.h>

#define N 48

int main(void) {
  static int tri[N][N], box[8][N][N];
  long pairs = 0;
  int j;  /* declared outside the nest: private to the collapsed loop all the same */

  /* triangle: j from i */
  #pragma omp target teams distribute parallel for collapse(2) map(tofrom: tri) reduction(+: pairs)
  for (int i = 0; i < N; i++)
    for (j = i; j < N; j++) {
      tri[i][j] = i * 100 + j;
      pairs += 1;
    }

  /* three loops, the third bounded by the second: the first two stay collapsed */
  #pragma omp target map(tofrom: box)
  #pragma omp parallel for collapse(3) num_threads(64)
  for (int b = 0; b < 8; b++)
    for (int r = 0; r < N; r++)
      for (int c = 0; c <= r; c++) box[b][r][c] = b + r - c;

  long bad = 0;
  for (int i = 0; i < N; i++)
    for (int k = 0; k < N; k++) bad += tri[i][k] != (k >= i ? i * 100 + k : 0);
  for (int b = 0; b < 8; b++)
    for (int r = 0; r < N; r++)
      for (int c = 0; c < N; c++) bad += box[b][r][c] != (c <= r ? b + r - c : 0);
  printf("pairs=%ld (want %d) wrong=%ld\n", pairs, N * (N + 1) / 2, bad);
  return 0;
}
