/* Collapsed loops that transpose (issue 34): a `parallel for collapse(2)` whose body stores along
 * the outer loop's variable and loads along the inner one gives each warp a tile of iterations
 * (-Rpass=ompgpu says so); where the tile does not fit the nest (sides not multiples of it) the
 * iterations go in order. Floats (tiles of 8 x 4) in a 3-D permutation with a plane per team,
 * doubles (4 x 8) in a 2-D transpose, sides that fit and sides that do not, and a loop that only
 * copies (no tile). Every element is checked. */
#include <stdio.h>

#define MAXS 24
#define MAXR 96
#define MAXC 56

static float ta[MAXS * MAXS * MAXS], tb[MAXS * MAXS * MAXS];
static double da[MAXR * MAXC], db[MAXR * MAXC], dc[MAXR * MAXC];

/* B[k][j][i] = A[i][j][k], a team per plane j */
static long permute(int s) {
  const long n = (long)s * s * s;
  for (long x = 0; x < n; x++) { ta[x] = (float)(x * 7 % 1009); tb[x] = -1; }
#pragma omp target teams distribute thread_limit(128) map(to: ta[0:n]) map(tofrom: tb[0:n])
  for (int j = 0; j < s; j++) {
    const long plane = (long)j * s;
#pragma omp parallel for collapse(2)
    for (int i = 0; i < s; i++)
      for (int k = 0; k < s; k++) tb[(long)k * s * s + plane + i] = ta[(long)i * s * s + plane + k];
  }
  long bad = 0;
  for (long i = 0; i < s; i++)
    for (long j = 0; j < s; j++)
      for (long k = 0; k < s; k++) bad += tb[(k * s + j) * s + i] != ta[(i * s + j) * s + k];
  return bad;
}

/* db = transpose(da), and dc = da copied (rows x cols) */
static long transpose(int rows, int cols) {
  for (int x = 0; x < rows * cols; x++) { da[x] = x * 0.5 + 1; db[x] = dc[x] = -1; }
#pragma omp target parallel num_threads(96) map(to: da[0:rows * cols]) map(tofrom: db[0:rows * cols], dc[0:rows * cols])
  {
#pragma omp for collapse(2) nowait
    for (int i = 0; i < rows; i++)
      for (int k = 0; k < cols; k++) db[k * rows + i] = da[i * cols + k];
#pragma omp for collapse(2)
    for (int i = 0; i < rows; i++)
      for (int k = 0; k < cols; k++) dc[i * cols + k] = da[i * cols + k];
  }
  long bad = 0;
  for (int i = 0; i < rows; i++)
    for (int k = 0; k < cols; k++) bad += (db[k * rows + i] != da[i * cols + k]) + (dc[i * cols + k] != da[i * cols + k]);
  return bad;
}

int main(void) {
  const int sides[] = {24, 20, 8, 3};
  for (int t = 0; t < 4; t++) printf("permute %d^3: %ld wrong\n", sides[t], permute(sides[t]));
  const int shapes[][2] = {{96, 56}, {40, 16}, {30, 50}, {4, 8}, {7, 3}};
  for (int t = 0; t < 5; t++)
    printf("transpose %d x %d: %ld wrong\n", shapes[t][0], shapes[t][1], transpose(shapes[t][0], shapes[t][1]));
  return 0;
}
