/* transpose: permute a 3-D tensor, B[k][j][i] = A[i][j][k] (axes 0 and 2 swapped),
 * 256^3 floats by default. Shared by transpose.c (OpenMP) and transpose.cu.
 *     ./transpose [side=256] */
#ifndef TRANSPOSE_H
#define TRANSPOSE_H
#include "../common/bench.h"

static int tr_check(const float *a, const float *b, int s) {
  long bad = 0;
  for (long i = 0; i < s; i++)
    for (long j = 0; j < s; j++)
      for (long k = 0; k < s; k++) bad += b[(k * s + j) * s + i] != a[(i * s + j) * s + k];
  printf("transpose: %d^3 tensor, %ld wrong elements\n", s, bad);
  return bad == 0;
}
#endif
