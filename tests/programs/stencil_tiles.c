/* covers: collapsed stencil loops over the grid whose teams take their iterations as tiles of 8 x 32 (edges of sizes that are not multiples of the tile: iterations past them do nothing), a 2-D array and a linearised one, radius 1 and 3, with the default launch, with more teams than tiles, with fewer, and with one team; loop variables of type long and unsigned, and int ones with negative bounds (a tile's indices in 32 bits, the int variable as lb + index) */
#include <stdio.h>

#define R 41
#define C 70

static double grid_in[R][C], grid_out[R][C], flat_in[R * C], flat_out[R * C];

int main(void) {
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) {
      grid_in[i][j] = (i * 31 + j * 7) % 17;
      flat_in[i * C + j] = (i * 13 + j * 5) % 11;
      grid_out[i][j] = flat_out[i * C + j] = -1;
    }
#pragma omp target teams distribute parallel for collapse(2) map(to: grid_in) map(tofrom: grid_out)
  for (int i = 1; i < R - 1; i++)
    for (int j = 1; j < C - 1; j++)
      grid_out[i][j] = grid_in[i - 1][j] + grid_in[i + 1][j] + grid_in[i][j - 1] + grid_in[i][j + 1] - 4 * grid_in[i][j];
  int n = C;
#pragma omp target teams distribute parallel for collapse(2) map(to: flat_in) map(tofrom: flat_out)
  for (int i = 3; i < R - 3; i++)
    for (int j = 3; j < C - 3; j++) {
      double s = 0;
      s += flat_in[(i - 3) * n + j] + flat_in[(i + 3) * n + j] + flat_in[i * n + j - 3] + flat_in[i * n + j + 3];
      s += flat_in[(i - 1) * n + j] + flat_in[(i + 1) * n + j];
      flat_out[i * n + j] = s;
    }
  int bad = 0;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) {
      double want = -1;
      if (i >= 1 && i < R - 1 && j >= 1 && j < C - 1)
        want = grid_in[i - 1][j] + grid_in[i + 1][j] + grid_in[i][j - 1] + grid_in[i][j + 1] - 4 * grid_in[i][j];
      bad += grid_out[i][j] != want;
      want = -1;
      if (i >= 3 && i < R - 3 && j >= 3 && j < C - 3)
        want = flat_in[(i - 3) * n + j] + flat_in[(i + 3) * n + j] + flat_in[i * n + j - 3] + flat_in[i * n + j + 3] +
               flat_in[(i - 1) * n + j] + flat_in[(i + 1) * n + j];
      bad += flat_out[i * n + j] != want;
    }
  printf("radius 1 on a 2-D array and radius 3 on a linearised one: %d wrong\n", bad);
  /* more teams than the nest has tiles: each team a range of iterations that need not start a tile */
#pragma omp target teams distribute parallel for collapse(2) num_teams(64) map(to: grid_in) map(tofrom: grid_out)
  for (int i = 1; i < R - 1; i++)
    for (int j = 1; j < C - 1; j++) grid_out[i][j] = grid_in[i - 1][j] - grid_in[i + 1][j];
  int bad_many = 0;
  for (int i = 1; i < R - 1; i++)
    for (int j = 1; j < C - 1; j++) bad_many += grid_out[i][j] != grid_in[i - 1][j] - grid_in[i + 1][j];
  /* fewer teams than tiles: each team takes several tiles in turn */
#pragma omp target teams distribute parallel for collapse(2) num_teams(4) map(to: grid_in) map(tofrom: grid_out)
  for (int i = 1; i < R - 1; i++)
    for (int j = 1; j < C - 1; j++) grid_out[i][j] = grid_in[i - 1][j] * 3 - grid_in[i + 1][j];
  for (int i = 1; i < R - 1; i++)
    for (int j = 1; j < C - 1; j++) bad_many += grid_out[i][j] != grid_in[i - 1][j] * 3 - grid_in[i + 1][j];
  printf("more teams than tiles, and fewer: %d wrong\n", bad_many);
  /* one team of 64 threads: the tiles need a team of 256, so the loop is dealt as written */
#pragma omp target teams distribute parallel for collapse(2) num_teams(1) thread_limit(64) map(to: grid_in) map(tofrom: grid_out)
  for (int i = 1; i < R - 1; i++)
    for (int j = 1; j < C - 1; j++) grid_out[i][j] = grid_in[i - 1][j] + grid_in[i + 1][j];
  int bad_small = 0;
  for (int i = 1; i < R - 1; i++)
    for (int j = 1; j < C - 1; j++) bad_small += grid_out[i][j] != grid_in[i - 1][j] + grid_in[i + 1][j];
  printf("one team of 64 threads: %d wrong\n", bad_small);
  /* other loop variables: long rows and unsigned columns; int ones from negative bounds */
#pragma omp target teams distribute parallel for collapse(2) map(to: grid_in) map(tofrom: grid_out)
  for (long i = 1; i < R - 1; i++)
    for (unsigned j = 2; j < C - 2; j++) grid_out[i][j] = grid_in[i - 1][j] + 2 * grid_in[i + 1][j - 2];
  int bad_types = 0;
  for (int i = 1; i < R - 1; i++)
    for (int j = 2; j < C - 2; j++) bad_types += grid_out[i][j] != grid_in[i - 1][j] + 2 * grid_in[i + 1][j - 2];
  const int lo = -(R / 2) + 1, hi = R - R / 2 - 1;   /* rows R/2 + lo .. R/2 + hi - 1 */
#pragma omp target teams distribute parallel for collapse(2) map(to: grid_in) map(tofrom: grid_out)
  for (int i = lo; i < hi; i++)
    for (int j = -30; j <= 30; j++) grid_out[R / 2 + i][35 + j] = grid_in[R / 2 + i - 1][35 + j] * grid_in[R / 2 + i + 1][35 + j];
  for (int i = lo; i < hi; i++)
    for (int j = -30; j <= 30; j++)
      bad_types += grid_out[R / 2 + i][35 + j] != grid_in[R / 2 + i - 1][35 + j] * grid_in[R / 2 + i + 1][35 + j];
  printf("long and unsigned variables, negative bounds: %d wrong\n", bad_types);
  printf("%s\n", bad || bad_many || bad_small || bad_types ? "FAIL" : "PASS");
  return 0;
}
