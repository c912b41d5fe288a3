/* covers: a team's segment staged through shared memory for its distribute iteration
   (analysis/team_staging.py): Gauss-Jordan elimination of one small matrix per team (a segment
   written by parallel loops, read by serial code, a pivot row scaled, a team-shared column of
   factors), double elements reached through &P[b * S], a segment that is only read (a reduction
   over it, not stored back), serial code of the team that writes the segment, and an iteration
   that reads another array (left in global memory); every result checked against the same
   arithmetic on the host: exactly where it is exact, the elimination to a relative 1e-4 (the
   GPU fuses its multiply-subtracts, rounding once where the host rounds twice) */
#include <math.h>
#include <stdio.h>
#include <string.h>

#define M 12
#define W (2 * M)
#define S (M * W)
#define NB 37

static float aug[NB * S], ref[NB * S];
static double dat[NB * 96], dref[NB * 96];
static float other[NB * S];

static void make(float *a) {
  for (int b = 0; b < NB; b++)
    for (int i = 0; i < M; i++)
      for (int j = 0; j < W; j++)
        a[b * S + i * W + j] = j < M ? (float)((i * 7 + j * 3 + b) % 5) + (i == j ? 8.0f : 0.0f) : (float)(j - M == i);
}

static void invert(float *m) {
  float f[M];
  for (int k = 0; k < M; k++) {
    const float piv = m[k * W + k];
    for (int j = 0; j < W; j++) m[k * W + j] /= piv;
    for (int i = 0; i < M; i++) f[i] = m[i * W + k];
    for (int i = 0; i < M; i++)
      for (int j = 0; j < W; j++)
        if (i != k) m[i * W + j] -= f[i] * m[k * W + j];
  }
}

static long differ(const char *what, const float *got, const float *want, int n, float tolerance) {
  long bad = 0;
  for (int i = 0; i < n; i++) bad += !(fabsf(got[i] - want[i]) <= tolerance * (1 + fabsf(want[i])));
  printf("%s: %ld wrong\n", what, bad);
  return bad;
}

int main(void) {
  long bad = 0;
  make(aug);
  make(ref);
  for (int b = 0; b < NB; b++) invert(ref + b * S);

  /* Gauss-Jordan, one matrix per team */
#pragma omp target teams distribute thread_limit(64) map(tofrom: aug)
  for (int b = 0; b < NB; b++) {
    float *m = aug + (long)b * S;
    float f[M];
    for (int k = 0; k < M; k++) {
      const float piv = m[k * W + k];
#pragma omp parallel for
      for (int j = 0; j < W; j++) m[k * W + j] /= piv;
#pragma omp parallel for
      for (int i = 0; i < M; i++) f[i] = m[i * W + k];
#pragma omp parallel for collapse(2)
      for (int i = 0; i < M; i++)
        for (int j = 0; j < W; j++)
          if (i != k) m[i * W + j] -= f[i] * m[k * W + j];
    }
  }
  bad += differ("gauss-jordan", aug, ref, NB * S, 1e-4f);

  /* doubles through &P[b * S]; the team's serial code writes the segment (one element per sweep) */
  for (int i = 0; i < NB * 96; i++) dat[i] = dref[i] = (i % 13) * 0.25;
  for (int b = 0; b < NB; b++) {
    const double tail = dref[b * 96 + 95];
    for (int k = 0; k < 8; k++) {
      dref[b * 96 + k] = dref[b * 96 + k] * 2 + tail;
      const double add = dref[b * 96 + k];
      for (int e = 0; e < 96; e++) dref[b * 96 + e] += add;
    }
  }
#pragma omp target teams distribute map(tofrom: dat)
  for (int b = 0; b < NB; b++) {
    double *d = &dat[b * 96];
    const double tail = d[95];   /* an element another thread loads */
    for (int k = 0; k < 8; k++) {
      d[k] = d[k] * 2 + tail;
      const double add = d[k];
#pragma omp parallel for
      for (int e = 0; e < 96; e++) d[e] += add;
    }
  }
  long dbad = 0;
  for (int i = 0; i < NB * 96; i++) dbad += dat[i] != dref[i];
  printf("doubles, serial writes: %ld wrong\n", dbad);
  bad += dbad;

  /* a segment only read: the teams' weighted sums added atomically (small integers: exact in any order) */
  make(aug);
  float total = 0, want = 0;
  for (int b = 0; b < NB; b++)
    for (int k = 0; k < 6; k++)
      for (int e = 0; e < S; e++) want += aug[b * S + e] * k;
#pragma omp target teams distribute map(to: aug) map(tofrom: total)
  for (int b = 0; b < NB; b++) {
    const float *m = aug + b * S;
    float s = 0;
    for (int k = 0; k < 6; k++) {
#pragma omp parallel for reduction(+: s)
      for (int e = 0; e < S; e++) s += m[e] * k;
    }
#pragma omp atomic
    total += s;
  }
  printf("read-only segment, sum: %s\n", total == want ? "right" : "wrong");
  bad += total != want;
  float again[NB * S];
  make(again);
  bad += differ("read-only segment, left as it was", aug, again, NB * S, 0);

  /* another array read in the iteration: left in global memory, the same answer */
  make(aug);
  make(ref);
  for (int i = 0; i < NB * S; i++) other[i] = (float)(i % 3);
  for (int b = 0; b < NB; b++)
    for (int k = 0; k < M; k++)
      for (int e = 0; e < S; e++) ref[b * S + e] += other[b * S + k];
#pragma omp target teams distribute map(tofrom: aug) map(to: other)
  for (int b = 0; b < NB; b++) {
    float *m = aug + b * S;
    for (int k = 0; k < M; k++) {
#pragma omp parallel for
      for (int e = 0; e < S; e++) m[e] += other[b * S + k];
    }
  }
  bad += differ("another array read", aug, ref, NB * S, 0);

  printf("team_segments: %s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
