/* Teams sized to their loops (issue 34 item 1): a lean SPMD kernel whose parallel loops run a
 * constant number of iterations, at most 4 per lane of a warp, gets one-warp teams packed four
 * to a block (loops of at most 16 or 8 iterations: teams of 16 or 8 lanes, several to a warp). Each team keeps its own shared locals (a scalar and an array), reduces over its
 * warp, guards its serial stores and atomics by its first lane, and meets on its warp's barrier
 * between two regions of one iteration. Point counts that do not fill the last block, and more
 * points than teams (num_teams(7)). Results are exact (integers). */
#include <stdio.h>

#define DIM 100
#define N 5003

static int p[N * DIM], centre[DIM], out[N], hist[8], best[N], rows[N * 8];

static void run(int n) {
#pragma omp target teams distribute thread_limit(128) map(to: p[0:n * DIM], centre) \
    map(from: out[0:n], best[0:n], rows[0:n * 8]) map(tofrom: hist)
  for (int i = 0; i < n; i++) {
    int d = 0, m = -1;
    int part[8] = {0, 0, 0, 0, 0, 0, 0, 0};
#pragma omp parallel for reduction(+: d) reduction(max: m)
    for (int k = 0; k < DIM; k++) {
      const int t = p[i * DIM + k] - centre[k];
      d += t * t;
      m = t > m ? t : m;
    }
    /* a second region reads the first's result (the warp's barrier between them) */
#pragma omp parallel for collapse(2)
    for (int a = 0; a < 8; a++)
      for (int b = 0; b < 4; b++)
        if (b == 0) part[a] = (d >> a) & 1;
    out[i] = d;
    best[i] = m;
    for (int a = 0; a < 8; a++) rows[i * 8 + a] = part[a];
#pragma omp atomic
    hist[d % 8] += 1;
  }
}

/* seven teams: several points each, and a block whose last warp has no team */
static void run_few(int n) {
#pragma omp target teams distribute num_teams(7) thread_limit(64) map(to: p[0:n * DIM], centre) map(from: out[0:n])
  for (int i = 0; i < n; i++) {
    int d = 0;
#pragma omp parallel for reduction(+: d)
    for (int k = 0; k < DIM; k++) d += p[i * DIM + k] * centre[k];
    out[i] = d;
  }
}

/* loops of 16 and of 6 iterations: teams of 16 and of 8 lanes, several to a warp, each with its
   own shared locals, reductions over its group of lanes and the group's barrier */
static long small[N], tiny[N];
static int firsts[N];

static void run_groups(int n) {
#pragma omp target teams distribute thread_limit(64) map(to: p[0:n * DIM]) map(from: small[0:n], firsts[0:n])
  for (int i = 0; i < n; i++) {
    long s = 0;
    int f = 1 << 30;
#pragma omp parallel for reduction(+: s) reduction(min: f)
    for (int k = 0; k < 16; k++) {
      s += (long)p[i * DIM + k] * (k + 1);
      f = p[i * DIM + k] < f ? p[i * DIM + k] : f;
    }
    small[i] = s;
    firsts[i] = f;
  }
#pragma omp target teams distribute thread_limit(32) map(to: p[0:n * DIM]) map(from: tiny[0:n])
  for (int i = 0; i < n; i++) {
    long t = 0;
#pragma omp parallel for reduction(^: t)
    for (int k = 0; k < 6; k++) t ^= (long)p[i * DIM + 2 * k] << k;
    tiny[i] = t + 1;
  }
}

int main(void) {
  for (int k = 0; k < N * DIM; k++) p[k] = (k * 37 + 11) % 23;
  for (int k = 0; k < DIM; k++) centre[k] = k % 5;
  const int counts[] = {1, 3, 4, 5, 1000, N};
  for (int c = 0; c < 6; c++) {
    const int n = counts[c];
    for (int b = 0; b < 8; b++) hist[b] = 0;
    run(n);
    int bad = 0, h[8] = {0};
    for (int i = 0; i < n; i++) {
      int d = 0, m = -1;
      for (int k = 0; k < DIM; k++) {
        const int t = p[i * DIM + k] - centre[k];
        d += t * t;
        m = t > m ? t : m;
      }
      bad += out[i] != d || best[i] != m;
      for (int a = 0; a < 8; a++) bad += rows[i * 8 + a] != ((d >> a) & 1);
      h[d % 8]++;
    }
    for (int b = 0; b < 8; b++) bad += hist[b] != h[b];
    printf("points %d: %s\n", n, bad ? "WRONG" : "ok");
  }
  run_few(N);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    int d = 0;
    for (int k = 0; k < DIM; k++) d += p[i * DIM + k] * centre[k];
    bad += out[i] != d;
  }
  printf("seven teams, %d points: %s\n", N, bad ? "WRONG" : "ok");
  for (int c = 0; c < 6; c++) {
    const int n = counts[c];
    run_groups(n);
    bad = 0;
    for (int i = 0; i < n; i++) {
      long s = 0, t = 0;
      int f = 1 << 30;
      for (int k = 0; k < 16; k++) {
        s += (long)p[i * DIM + k] * (k + 1);
        f = p[i * DIM + k] < f ? p[i * DIM + k] : f;
      }
      for (int k = 0; k < 6; k++) t ^= (long)p[i * DIM + 2 * k] << k;
      bad += small[i] != s || firsts[i] != f || tiny[i] != t + 1;
    }
    printf("groups of lanes, %d points: %s\n", n, bad ? "WRONG" : "ok");
  }
  run(N);
  printf("out[7] %d best[7] %d hist %d %d %d %d %d %d %d %d\n", out[7], best[7], hist[0], hist[1], hist[2], hist[3],
         hist[4], hist[5], hist[6], hist[7]);
  return 0;
}
