/* Inner loops spread across the grid (issue 34 item 2): a `teams distribute` of few iterations
 * whose `parallel for` runs long; each iteration may run on several blocks, whose partials the
 * last block combines before running the rest of the iteration. Every reduction operator, an
 * epilogue that reads what other blocks wrote, distribute loops of 0, 1, 3 and many iterations
 * (many: no split), and kernels that must not be split (their serial code before the region
 * writes memory). Results are exact (integers, and sums of small integers in double). */
#include <stdio.h>

#define N 20000
#define ROWS 200

static int data[ROWS * N];
static long sums[ROWS], prods[ROWS];
static int mins[ROWS], maxs[ROWS], ors[ROWS], xors[ROWS], ands[ROWS], all_pos[ROWS], any_big[ROWS];
static double dsum[ROWS], check[ROWS];
static int hist[ROWS], before[ROWS];

static void run(int rows) {
#pragma omp target teams distribute thread_limit(128) map(to: data) \
    map(from: sums[0:rows], prods[0:rows], mins[0:rows], maxs[0:rows], ors[0:rows], xors[0:rows], ands[0:rows], \
        all_pos[0:rows], any_big[0:rows], dsum[0:rows])
  for (int r = 0; r < rows; r++) {
    const int *row = data + (long)r * N;
    const int bias = row[0] % 3;
    long s = bias;
    long p = 1;
    int mn = 1 << 30, mx = -(1 << 30), o = 0, x = 0, a = -1, pos = 1, big = 0;
    double d = 0.5;
#pragma omp parallel for reduction(+: s, d) reduction(*: p) reduction(min: mn) reduction(max: mx) \
    reduction(|: o) reduction(^: x) reduction(&: a) reduction(&&: pos) reduction(||: big)
    for (int i = 0; i < N; i++) {
      const int v = row[i];
      s += v;
      d += v * 0.25;
      if (i % 4999 == 7) p *= (v % 3) + 1;
      mn = v < mn ? v : mn;
      mx = v > mx ? v : mx;
      o |= v & 0x3f0;
      x ^= v;
      a &= v | 0x100;
      pos = pos && v > 0;
      big = big || v > 999990;
    }
    sums[r] = s - bias;
    prods[r] = p;
    mins[r] = mn;
    maxs[r] = mx;
    ors[r] = o;
    xors[r] = x;
    ands[r] = a;
    all_pos[r] = pos;
    any_big[r] = big;
    dsum[r] = d;
  }
}

static void run_epilogue_reads(int rows, double *out) {
  /* the region writes a row of `out`; the rest of the iteration reads the whole row, which
     other blocks of the iteration wrote */
#pragma omp target teams distribute map(to: data) map(tofrom: out[0:rows * N]) map(from: check[0:rows])
  for (int r = 0; r < rows; r++) {
    double t = 0;
#pragma omp parallel for reduction(+: t)
    for (int i = 0; i < N; i++) {
      out[(long)r * N + i] = data[(long)r * N + i] * 2.0;
      t += 1.0;
    }
    double u = 0;
    for (int i = 0; i < N; i += 97) u += out[(long)r * N + i];
    check[r] = u + t;
  }
}

static void run_not_split(int rows) {
  /* serial code before the region writes memory: every iteration keeps one block */
#pragma omp target teams distribute map(to: data) map(from: hist[0:rows], before[0:rows])
  for (int r = 0; r < rows; r++) {
    before[r] = r + 1;
    int c = 0;
#pragma omp parallel for reduction(+: c)
    for (int i = 0; i < N; i++) c += data[(long)r * N + i] % 2;
    hist[r] = c;
  }
}

static long small_sums[ROWS];

static void run_small_blocks(int rows, int limit) {
  /* teams of fewer threads than a warp (a thread_limit known only at run time) */
#pragma omp target teams distribute thread_limit(limit) map(to: data) map(from: small_sums[0:rows])
  for (int r = 0; r < rows; r++) {
    long s = 0;
#pragma omp parallel for reduction(+: s)
    for (int i = 0; i < N; i++) s += data[(long)r * N + i] % 7;
    small_sums[r] = s;
  }
}

static long grid_sums[ROWS];
static int big_rows;

static void run_collapsed(int rows) {
  /* a collapsed region, and an atomic in the code after it (the iteration's last block) */
#pragma omp target teams distribute map(to: data) map(from: grid_sums[0:rows]) map(tofrom: big_rows)
  for (int r = 0; r < rows; r++) {
    long m = 0;
#pragma omp parallel for collapse(2) reduction(+: m)
    for (int a = 0; a < 100; a++)
      for (int b = 0; b < N / 100; b++) m += data[(long)r * N + a * (N / 100) + b] % 1000;
    grid_sums[r] = m;
    if (m % 2 == 0) {
#pragma omp atomic
      big_rows += 1;
    }
  }
}

static double out[ROWS * N];

int main(void) {
  for (long k = 0; k < (long)ROWS * N; k++) data[k] = (int)((k * 7919 + 13) % 1000003) + 1;
  const int counts[] = {0, 1, 3, ROWS};
  for (int t = 0; t < 4; t++) {
    const int rows = counts[t];
    for (int r = 0; r < ROWS; r++) sums[r] = prods[r] = mins[r] = maxs[r] = -7;
    run(rows);
    int bad = 0;
    for (int r = 0; r < rows; r++) {
      long s = 0, p = 1;
      int mn = 1 << 30, mx = -(1 << 30), o = 0, x = 0, a = -1, pos = 1, big = 0;
      double d = 0.5;
      for (int i = 0; i < N; i++) {
        const int v = data[(long)r * N + i];
        s += v;
        d += v * 0.25;
        if (i % 4999 == 7) p *= (v % 3) + 1;
        mn = v < mn ? v : mn;
        mx = v > mx ? v : mx;
        o |= v & 0x3f0;
        x ^= v;
        a &= v | 0x100;
        pos = pos && v > 0;
        big = big || v > 999990;
      }
      bad += sums[r] != s || prods[r] != p || mins[r] != mn || maxs[r] != mx || ors[r] != o || xors[r] != x ||
             ands[r] != a || all_pos[r] != pos || any_big[r] != big || dsum[r] != d;
    }
    printf("rows %d: %s\n", rows, bad ? "WRONG" : "ok");
  }
  for (int t = 1; t < 4; t++) {
    const int rows = counts[t];
    run_epilogue_reads(rows, out);
    int bad = 0;
    for (int r = 0; r < rows; r++) {
      double u = 0;
      for (int i = 0; i < N; i += 97) u += data[(long)r * N + i] * 2.0;
      bad += check[r] != u + N;
    }
    run_not_split(rows);
    for (int r = 0; r < rows; r++) {
      int c = 0;
      for (int i = 0; i < N; i++) c += data[(long)r * N + i] % 2;
      bad += hist[r] != c || before[r] != r + 1;
    }
    printf("epilogue and unsplit, rows %d: %s\n", rows, bad ? "WRONG" : "ok");
  }
  for (int t = 1; t < 4; t++) {
    const int rows = counts[t];
    run_small_blocks(rows, 16);
    int bad = 0;
    for (int r = 0; r < rows; r++) {
      long s = 0;
      for (int i = 0; i < N; i++) s += data[(long)r * N + i] % 7;
      bad += small_sums[r] != s;
    }
    printf("teams of 16 threads, rows %d: %s\n", rows, bad ? "WRONG" : "ok");
  }
  for (int t = 1; t < 4; t++) {
    const int rows = counts[t];
    big_rows = 0;
    run_collapsed(rows);
    int bad = 0, even = 0;
    for (int r = 0; r < rows; r++) {
      long m = 0;
      for (int i = 0; i < N; i++) m += data[(long)r * N + i] % 1000;
      bad += grid_sums[r] != m;
      even += m % 2 == 0;
    }
    printf("collapsed region and atomic after it, rows %d: %s (%d even)\n", rows, bad || even != big_rows ? "WRONG" : "ok",
           big_rows);
  }
  printf("row 2: sum %ld min %d max %d\n", sums[2], mins[2], maxs[2]);
  return 0;
}
