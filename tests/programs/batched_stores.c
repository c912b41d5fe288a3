/* covers: loops of a team whose body is one store of a value read from memory (several iterations' reads go ahead of their stores): a collapse(2) transpose with a remainder, a gather through a permutation, pointer, double, char and short elements with conversions, a loop shorter than the team, 2-D array elements; schedule(static, 1) and a body of two statements beside them */
#include <stdio.h>

#define S 37
#define N 1003

static float a[S * S * S], b[S * S * S];
static int perm[N], src[N], gathered[N];
static double halves[N];
static signed char small[N];
static short wide[N];
static int *ptrs[N];
static int grid2[40][50], copy2[40][50];
static int explicit_chunk[N], two_statements[N], short_loop[8];

int main(void) {
  for (int i = 0; i < S * S * S; i++) a[i] = (float)i;
  for (int i = 0; i < N; i++) {
    perm[i] = (i * 7 + 3) % N;
    src[i] = i * 3 - 100;
  }
  for (int i = 0; i < 40; i++)
    for (int j = 0; j < 50; j++) grid2[i][j] = i * 100 + j;

#pragma omp target teams distribute thread_limit(64) map(to: a) map(from: b)
  for (int j = 0; j < S; j++) {
    const long plane = (long)j * S;
#pragma omp parallel for collapse(2)
    for (int i = 0; i < S; i++)
      for (int k = 0; k < S; k++) b[(long)k * S * S + plane + i] = a[(long)i * S * S + plane + k];
  }

#pragma omp target teams num_teams(1) thread_limit(128) map(to: perm, src, grid2) map(from: gathered, halves, small, wide, ptrs, copy2, explicit_chunk, two_statements, short_loop)
  {
#pragma omp parallel for
    for (int i = 0; i < N; i++) gathered[i] = src[perm[i]];
#pragma omp parallel for
    for (int i = 0; i < N; i++) halves[i] = src[i] / 2.0;
#pragma omp parallel for
    for (int i = 0; i < N; i++) small[i] = (signed char)(src[i] & 0x7f);
#pragma omp parallel for
    for (int i = 0; i < N; i++) wide[i] = src[i] * 11;
#pragma omp parallel for
    for (int i = 0; i < N; i++) ptrs[i] = (int *)(long)(8 * src[i] + 8000);
#pragma omp parallel for collapse(2)
    for (int i = 0; i < 40; i++)
      for (int j = 0; j < 50; j++) copy2[i][j] = grid2[39 - i][49 - j];
#pragma omp parallel for schedule(static, 1)
    for (int i = 0; i < N; i++) explicit_chunk[i] = src[N - 1 - i];
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
      const int v = src[i];
      two_statements[i] = v + 1;
    }
#pragma omp parallel for
    for (int i = 0; i < 8; i++) short_loop[i] = src[i] + 1000;
  }

  int transpose_wrong = 0;
  for (int j = 0; j < S; j++)
    for (int i = 0; i < S; i++)
      for (int k = 0; k < S; k++)
        if (b[((long)k * S + j) * S + i] != a[((long)i * S + j) * S + k]) transpose_wrong++;
  int wrong = 0;
  for (int i = 0; i < N; i++) {
    wrong += gathered[i] != src[perm[i]];
    wrong += halves[i] != src[i] / 2.0;
    wrong += small[i] != (signed char)(src[i] & 0x7f);
    wrong += wide[i] != (short)(src[i] * 11);
    wrong += ptrs[i] != (int *)(long)(8 * src[i] + 8000);
    wrong += explicit_chunk[i] != src[N - 1 - i];
    wrong += two_statements[i] != src[i] + 1;
  }
  for (int i = 0; i < 40; i++)
    for (int j = 0; j < 50; j++) wrong += copy2[i][j] != (39 - i) * 100 + (49 - j);
  for (int i = 0; i < 8; i++) wrong += short_loop[i] != src[i] + 1000;
  printf("transpose %d^3: %d wrong elements\n", S, transpose_wrong);
  printf("gather, conversions, pointers, 2-D copy, short loop: %d wrong elements\n", wrong);
  printf("%s\n", transpose_wrong == 0 && wrong == 0 ? "PASS" : "FAIL");
  return 0;
}
