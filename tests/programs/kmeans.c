/* covers: kmeans iterations: target data over the whole loop, target teams distribute parallel for assigning points to the nearest center with a + reduction counting changes, atomic accumulation of integer sums per cluster, target update to/from of centers each iteration, private per-point arrays */
#include <stdio.h>
#include <stdlib.h>

#define NPTS 3000
#define NF 4
#define K 5
#define ITERS 20

int main(void) {
  int *feat = malloc(NPTS * NF * sizeof *feat);
  int *member = malloc(NPTS * sizeof *member);
  long centers[K * NF];
  long sums[K * NF];
  long counts[K];
  unsigned s = 2024u;
  for (int p = 0; p < NPTS; p++) {
    int blob = p % K;
    for (int f = 0; f < NF; f++) {
      s = s * 1664525u + 1013904223u;
      feat[p * NF + f] = blob * 100 * (f + 1) + (int)((s >> 16) % 241) - 120;
    }
    member[p] = -1;
  }
  for (int c = 0; c < K; c++)
    for (int f = 0; f < NF; f++) centers[c * NF + f] = feat[(c * K) * NF + f]; /* first guesses */

  int iters_done = 0, last_changes = -1;
#pragma omp target data map(to: feat[0:NPTS * NF]) map(tofrom: member[0:NPTS]) map(alloc: centers, sums, counts)
  for (int it = 0; it < ITERS; it++) {
#pragma omp target update to(centers)
    int changes = 0;
    for (int q = 0; q < K * NF; q++) sums[q] = 0;
    for (int c = 0; c < K; c++) counts[c] = 0;
#pragma omp target update to(sums, counts)
#pragma omp target teams distribute parallel for reduction(+: changes) map(tofrom: changes)
    for (int p = 0; p < NPTS; p++) {
      long best = -1;
      int bc = 0;
      for (int c = 0; c < K; c++) {
        long d = 0;
        for (int f = 0; f < NF; f++) {
          long t = feat[p * NF + f] - centers[c * NF + f];
          d += t * t;
        }
        if (best < 0 || d < best) {
          best = d;
          bc = c;
        }
      }
      if (member[p] != bc) changes++;
      member[p] = bc;
#pragma omp atomic
      counts[bc]++;
      for (int f = 0; f < NF; f++) {
#pragma omp atomic
        sums[bc * NF + f] += feat[p * NF + f];
      }
    }
#pragma omp target update from(sums, counts)
    for (int c = 0; c < K; c++)
      if (counts[c] > 0)
        for (int f = 0; f < NF; f++) centers[c * NF + f] = sums[c * NF + f] / counts[c];
    iters_done = it + 1;
    last_changes = changes;
    if (changes == 0) break;
  }

  /* reference run on the host */
  long rc[K * NF];
  int *rm = malloc(NPTS * sizeof *rm);
  for (int p = 0; p < NPTS; p++) rm[p] = -1;
  for (int c = 0; c < K; c++)
    for (int f = 0; f < NF; f++) rc[c * NF + f] = feat[(c * K) * NF + f];
  int riters = 0;
  for (int it = 0; it < ITERS; it++) {
    long rs[K * NF] = {0}, rn[K] = {0};
    int ch = 0;
    for (int p = 0; p < NPTS; p++) {
      long best = -1;
      int bc = 0;
      for (int c = 0; c < K; c++) {
        long d = 0;
        for (int f = 0; f < NF; f++) {
          long t = feat[p * NF + f] - rc[c * NF + f];
          d += t * t;
        }
        if (best < 0 || d < best) {
          best = d;
          bc = c;
        }
      }
      ch += rm[p] != bc;
      rm[p] = bc;
      rn[bc]++;
      for (int f = 0; f < NF; f++) rs[bc * NF + f] += feat[p * NF + f];
    }
    for (int c = 0; c < K; c++)
      if (rn[c] > 0)
        for (int f = 0; f < NF; f++) rc[c * NF + f] = rs[c * NF + f] / rn[c];
    riters = it + 1;
    if (ch == 0) break;
  }
  int ok = riters == iters_done;
  for (int q = 0; q < K * NF; q++)
    if (rc[q] != centers[q]) ok = 0;
  for (int p = 0; p < NPTS; p++)
    if (rm[p] != member[p]) ok = 0;
  printf("iterations=%d last changes=%d\n", iters_done, last_changes);
  for (int c = 0; c < K; c++)
    printf("center %d: %ld %ld %ld %ld (n=%ld)\n", c, centers[c * NF], centers[c * NF + 1], centers[c * NF + 2],
           centers[c * NF + 3], counts[c]);
  printf("%s\n", ok ? "PASS" : "FAIL");
  free(feat);
  free(member);
  free(rm);
  return 0;
}
