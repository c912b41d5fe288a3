/* Reductions into locals of a target region's serial code, which the serial code then reads
 * and branches on: in SPMD mode each thread keeps its own copy and every copy must get the
 * team's total (an all-reduce), whatever the team's shape: a block of several warps, one
 * whose last warp is partial, one-warp packed teams, teams below a warp; every built-in
 * operator and several types; the same region met again in a loop (its warp partials'
 * slots reused); a local that another region shares outright (then one copy for the team). */
#include <math.h>
#include <stdio.h>

#define N 4096
#define ROWS 64

int main(void) {
  static int a[N];
  static double x[N];
  static float f[N];
  static long long big[N];
  for (int i = 0; i < N; i++) {
    a[i] = (i * 37) % 101 - 50;
    x[i] = 0.25 * (i % 13) - 1.0;
    f[i] = (float)((i * 7) % 29) - 14.0f;
    big[i] = (long long)(i % 17) * 1000000007LL - 8000000000LL;
  }

  int walk[ROWS], count_walk[ROWS];
  double sums[ROWS], prods[ROWS];
  long long mins[ROWS];
  float maxs[ROWS];
  int logic[ROWS], bits[ROWS], signs[ROWS];
  unsigned char peaks[ROWS];
  long long marks[ROWS];

  /* a block of 128 threads: four full warps; a descent that branches on each level's count */
#pragma omp target teams distribute thread_limit(128) map(to: a, x, big) map(from: walk, count_walk, sums, mins, logic, bits, signs, peaks, marks)
  for (int r = 0; r < ROWS; r++) {
    int at = r * 64, steps = 0;
    for (int level = 0; level < 5; level++) {
      int c = 0;
#pragma omp parallel for reduction(+: c)
      for (int s = 0; s < 64; s++) c += a[(at + s) % N] > level * 10 - 20;
      if (c > 32) at = (at + c * 7) % N;
      else at = (at + 13) % N;
      steps += c;
    }
    walk[r] = at;
    count_walk[r] = steps;
    double s = 1.5;
#pragma omp parallel for reduction(+: s)
    for (int k = 0; k < 200; k++) s += x[(r + k) % N];
    sums[r] = s;
    long long m = 0;
#pragma omp parallel for reduction(min: m)
    for (int k = 0; k < 300; k++) m = big[(r * 5 + k) % N] < m ? big[(r * 5 + k) % N] : m;
    mins[r] = m;
    int all = 1, any = 0, band = -1, bor = 0, bxor = 0;
#pragma omp parallel for reduction(&&: all) reduction(||: any) reduction(&: band) reduction(|: bor) reduction(^: bxor)
    for (int k = 0; k < 128; k++) {
      int v = a[(r + k) % N];
      all = all && (v > -60);
      any = any || (v == r - 50);
      band &= v | 0x100;
      bor |= v & 0xff;
      bxor ^= v;
    }
    logic[r] = all * 2 + any;
    bits[r] = (band ^ bor) + bxor;
    int sign = 1;
    unsigned char peak = 0;
#pragma omp parallel for reduction(*: sign) reduction(max: peak)
    for (int k = 0; k < 128; k++) {
      sign *= a[(r * 3 + k) % N] > 40 ? -1 : 1;
      peak = (unsigned char)(a[(r + k * 7) % N] + 50) > peak ? (unsigned char)(a[(r + k * 7) % N] + 50) : peak;
    }
    signs[r] = sign;
    peaks[r] = peak;
    /* a thread of another warp than thread 0's reports its own copies */
#pragma omp parallel for
    for (int k = 0; k < 128; k++)
      if (k == 77) marks[r] = (long long)(s * 1000.0) + m + all + 2 * any + band + bor + bxor + sign * 1000 + peak;
  }

  /* a block of 100 threads: the last warp is partial; the same region in a loop */
#pragma omp target teams distribute thread_limit(100) map(to: x, f) map(from: prods, maxs)
  for (int r = 0; r < ROWS; r++) {
    double p = 1.0;
    float best = -1000.0f;
    for (int rep = 0; rep < 3; rep++) {
#pragma omp parallel for reduction(*: p) reduction(max: best)
      for (int k = 0; k < 150; k++) {
        p *= 1.0 + x[(r * 3 + k + rep) % N] / 64.0;
        best = f[(r * 11 + k * 5 + rep) % N] > best ? f[(r * 11 + k * 5 + rep) % N] : best;
      }
      if (best > 13.0f) p = p / 2.0;  /* every thread must branch alike */
    }
    prods[r] = p;
    maxs[r] = best;
  }

  /* one-warp teams (packed four to a block) and teams of 16 lanes */
  int warp_counts[ROWS], lane_counts[ROWS];
#pragma omp target teams distribute thread_limit(32) map(to: a) map(from: warp_counts)
  for (int r = 0; r < ROWS; r++) {
    int c = 0;
#pragma omp parallel for reduction(+: c)
    for (int s = 0; s < 32; s++) c += a[(r * 32 + s) % N];
    c = c * 2 + 1;
    warp_counts[r] = c;
  }
#pragma omp target teams distribute thread_limit(16) map(to: a) map(from: lane_counts)
  for (int r = 0; r < ROWS; r++) {
    short c = 3;
#pragma omp parallel for reduction(+: c)
    for (int s = 0; s < 16; s++) c += (short)(a[(r * 16 + s) % N] & 7);
    if (c > 40) c = (short)(c - 40);
    lane_counts[r] = c;
  }

  /* a local that one region reduces into and another updates outright: one shared copy */
  int mixed[ROWS];
#pragma omp target teams distribute thread_limit(64) map(to: a) map(from: mixed)
  for (int r = 0; r < ROWS; r++) {
    int t = 0;
#pragma omp parallel for reduction(+: t)
    for (int s = 0; s < 64; s++) t += a[(r + s) % N];
#pragma omp parallel num_threads(64)
    {
#pragma omp atomic
      t += 1;
    }
    mixed[r] = t;
  }

  /* the host's answers */
  int bad = 0;
  for (int r = 0; r < ROWS; r++) {
    int at = r * 64, steps = 0;
    for (int level = 0; level < 5; level++) {
      int c = 0;
      for (int s = 0; s < 64; s++) c += a[(at + s) % N] > level * 10 - 20;
      at = c > 32 ? (at + c * 7) % N : (at + 13) % N;
      steps += c;
    }
    bad += walk[r] != at || count_walk[r] != steps;
    double s = 1.5;
    for (int k = 0; k < 200; k++) s += x[(r + k) % N];
    bad += fabs(sums[r] - s) > 1e-9;
    long long m = 0;
    for (int k = 0; k < 300; k++) m = big[(r * 5 + k) % N] < m ? big[(r * 5 + k) % N] : m;
    bad += mins[r] != m;
    int all = 1, any = 0, band = -1, bor = 0, bxor = 0;
    for (int k = 0; k < 128; k++) {
      int v = a[(r + k) % N];
      all = all && (v > -60);
      any = any || (v == r - 50);
      band &= v | 0x100;
      bor |= v & 0xff;
      bxor ^= v;
    }
    bad += logic[r] != all * 2 + any || bits[r] != (band ^ bor) + bxor;
    int sign = 1;
    unsigned char peak = 0;
    for (int k = 0; k < 128; k++) {
      sign *= a[(r * 3 + k) % N] > 40 ? -1 : 1;
      peak = (unsigned char)(a[(r + k * 7) % N] + 50) > peak ? (unsigned char)(a[(r + k * 7) % N] + 50) : peak;
    }
    bad += signs[r] != sign || peaks[r] != peak;
    bad += marks[r] != (long long)(s * 1000.0) + m + all + 2 * any + band + bor + bxor + sign * 1000 + peak;
    double p = 1.0;
    float best = -1000.0f;
    for (int rep = 0; rep < 3; rep++) {
      for (int k = 0; k < 150; k++) {
        p *= 1.0 + x[(r * 3 + k + rep) % N] / 64.0;
        float v = f[(r * 11 + k * 5 + rep) % N];
        best = v > best ? v : best;
      }
      if (best > 13.0f) p = p / 2.0;
    }
    bad += fabs(prods[r] - p) > 1e-9 * fabs(p);
    bad += maxs[r] != best;
    int c = 0;
    for (int s = 0; s < 32; s++) c += a[(r * 32 + s) % N];
    bad += warp_counts[r] != c * 2 + 1;
    short d = 3;
    for (int s = 0; s < 16; s++) d += (short)(a[(r * 16 + s) % N] & 7);
    if (d > 40) d = (short)(d - 40);
    bad += lane_counts[r] != d;
    int t = 0;
    for (int s = 0; s < 64; s++) t += a[(r + s) % N];
    bad += mixed[r] != t + 64;
  }
  printf("walk[5]=%d steps[5]=%d sum[3]=%.6f min[7]=%lld logic[9]=%d bits[9]=%d\n", walk[5], count_walk[5], sums[3],
         mins[7], logic[9], bits[9]);
  printf("prod[2]=%.9f warp[4]=%d lanes[4]=%d mixed[6]=%d sign[1]=%d peak[1]=%d\n", prods[2], warp_counts[4], lane_counts[4],
         mixed[6], signs[1], peaks[1]);
  printf("%s (%d wrong)\n", bad ? "FAILED" : "PASSED", bad);
  return bad != 0;
}
