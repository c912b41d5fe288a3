/* covers: a team's own transposing nest staged through shared-memory tiles (a `parallel for
   collapse(2)` inside `teams distribute` whose store runs along the outer loop: transpose_tile.j2
   without range_from): 3-D permutes of planes with sides a multiple of the tile, not a multiple,
   and below it; planes split over several teams (each team's part whole rows of tiles, or not) and
   teams that run several planes (num_teams); serial code before the region that keeps
   the planes whole; a team of 128 threads (the loop as written); each result checked exactly */
#include <stdio.h>
#include <stdlib.h>

static long check(const float *a, const float *b, int s) {
  long bad = 0;
  for (int j = 0; j < s; j++)
    for (int i = 0; i < s; i++)
      for (int k = 0; k < s; k++) bad += b[((long)k * s + j) * s + i] != a[((long)i * s + j) * s + k];
  return bad;
}

static long permute_spread(int s) {
  const long n = (long)s * s * s;
  float *a = malloc(sizeof(float) * n), *b = malloc(sizeof(float) * n);
  for (long i = 0; i < n; i++) a[i] = (float)(i % 4099) * 0.25f, b[i] = -1.0f;
#pragma omp target teams distribute thread_limit(256) map(to: a[0:n]) map(tofrom: b[0:n])
  for (int j = 0; j < s; j++) {
    const long plane = (long)j * s;
#pragma omp parallel for collapse(2)
    for (int i = 0; i < s; i++)
      for (int k = 0; k < s; k++) b[(long)k * s * s + plane + i] = a[(long)i * s * s + plane + k];
  }
  long bad = check(a, b, s);
  free(a);
  free(b);
  return bad;
}

/* every plane j: b[k][j][i] = a[i][j][k], the team's threads on (i, k); teams 0: as many as the
   launch has (planes then split over several teams where there are few) */
static long permute(int s, int teams) {
  if (teams == 0) return permute_spread(s);
  const long n = (long)s * s * s;
  float *a = malloc(sizeof(float) * n), *b = malloc(sizeof(float) * n);
  for (long i = 0; i < n; i++) a[i] = (float)(i % 4099) * 0.25f, b[i] = -1.0f;
#pragma omp target teams distribute num_teams(teams) thread_limit(256) map(to: a[0:n]) map(tofrom: b[0:n])
  for (int j = 0; j < s; j++) {
    const long plane = (long)j * s;
#pragma omp parallel for collapse(2)
    for (int i = 0; i < s; i++)
      for (int k = 0; k < s; k++) b[(long)k * s * s + plane + i] = a[(long)i * s * s + plane + k];
  }
  long bad = check(a, b, s);
  free(a);
  free(b);
  return bad;
}

/* the serial code before the region writes memory: each plane stays on one team */
static long permute_counted(int s) {
  const long n = (long)s * s * s;
  float *a = malloc(sizeof(float) * n), *b = malloc(sizeof(float) * n);
  int *seen = calloc((size_t)s, sizeof(int));
  for (long i = 0; i < n; i++) a[i] = (float)(i % 5003) - 7.0f;
#pragma omp target teams distribute thread_limit(256) map(to: a[0:n]) map(from: b[0:n]) map(tofrom: seen[0:s])
  for (int j = 0; j < s; j++) {
    seen[j] += 1;
#pragma omp parallel for collapse(2)
    for (int i = 0; i < s; i++)
      for (int k = 0; k < s; k++) b[((long)k * s + j) * s + i] = a[((long)i * s + j) * s + k];
  }
  long bad = check(a, b, s);
  for (int j = 0; j < s; j++) bad += seen[j] != 1;
  free(a);
  free(b);
  free(seen);
  return bad;
}

/* teams of 128 threads: the loop as written */
static long permute_small_teams(int s) {
  const long n = (long)s * s * s;
  float *a = malloc(sizeof(float) * n), *b = malloc(sizeof(float) * n);
  for (long i = 0; i < n; i++) a[i] = (float)(i % 611);
#pragma omp target teams distribute thread_limit(128) map(to: a[0:n]) map(from: b[0:n])
  for (int j = 0; j < s; j++) {
#pragma omp parallel for collapse(2)
    for (int i = 0; i < s; i++)
      for (int k = 0; k < s; k++) b[((long)k * s + j) * s + i] = a[((long)i * s + j) * s + k];
  }
  long bad = check(a, b, s);
  free(a);
  free(b);
  return bad;
}

int main(void) {
  long bad = 0, b;
  const int sides[] = {64, 45, 20, 96};
  const int teams[] = {0, 1, 3, 8, 128};
  for (int x = 0; x < 4; x++)
    for (int y = 0; y < 5; y++) {
      b = permute(sides[x], teams[y]);
      printf("permute %d with %d teams: %ld wrong\n", sides[x], teams[y], b);
      bad += b;
    }
  b = permute_counted(40);
  printf("permute with serial code: %ld wrong\n", b);
  bad += b;
  b = permute_small_teams(48);
  printf("permute on teams of 128: %ld wrong\n", b);
  bad += b;
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
