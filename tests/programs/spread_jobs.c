/* Inner loops spread across the grid on the way (issue 34, item 4): a long `teams distribute`
 * whose iterations' `parallel for` loops vary by orders of magnitude (a few long rows among many
 * short ones, like a power law). A block that meets a long row publishes it as a job and other
 * blocks take its chunks once they have run their own rows; the row's last chunk combines the
 * partials and runs the rest of the iteration. Reductions of several operators, an atomic after
 * the region, a region without reduction, rows at the publishing threshold, teams of 32, 64 and
 * 256 threads, and the same kernels launched again (the scratch must come back zeroed). Results
 * are exact (integers). */
#include <stdio.h>

#define ROWS 3000
#define NNZ_MAX 400000

static long start[ROWS + 1];
static int val[NNZ_MAX];
static long sum[ROWS];
static int lo[ROWS], hi[ROWS], odd[ROWS];
static long total;
static int scaled[NNZ_MAX];   /* rows_scale's rows */

/* row r's length: long rows every 997th (up to 60000), else 1 to 40 */
static int row_length(int r) {
  if (r % 997 == 5) return 60000 - 7000 * (r / 997);
  if (r == 1500) return 4096;   /* four chunks of a 64-thread team: the threshold */
  if (r == 1501) return 4095;
  return 1 + (int)((r * 2654435761u) >> 26) % 40;
}

static void rows_sum(int rows) {
#pragma omp target teams distribute thread_limit(64) map(to: start[0:rows + 1], val[0:NNZ_MAX]) \
    map(from: sum[0:rows], lo[0:rows], hi[0:rows], odd[0:rows]) map(tofrom: total)
  for (int r = 0; r < rows; r++) {
    const long b = start[r], e = start[r + 1];
    long s = r;
    int mn = 1 << 30, mx = -1, o = 0;
#pragma omp parallel for reduction(+: s) reduction(min: mn) reduction(max: mx) reduction(^: o)
    for (long k = b; k < e; k++) {
      s += val[k];
      mn = val[k] < mn ? val[k] : mn;
      mx = val[k] > mx ? val[k] : mx;
      o ^= val[k] & 1;
    }
    sum[r] = s - r;
    lo[r] = mn;
    hi[r] = mx;
    odd[r] = o;
#pragma omp atomic
    total += s - r;
  }
}

#define SCALE_ROWS 96
#define SCALE_WIDTH 4096

static void rows_scale(int limit) {
  /* no reduction: the region writes the row (row r at r * SCALE_WIDTH, of a length computed
     from r: serial code that reads no memory), and the rest of the iteration reads the row's
     ends, which other blocks may have written */
#pragma omp target teams distribute thread_limit(limit) map(tofrom: scaled[0:NNZ_MAX]) map(from: odd[0:SCALE_ROWS])
  for (int r = 0; r < SCALE_ROWS; r++) {
    const long b = (long)r * SCALE_WIDTH, e = b + (r % 7 == 3 ? SCALE_WIDTH : 1 + r % 40);
#pragma omp parallel for
    for (long k = b; k < e; k++) scaled[k] = 3 * (int)(k % 1000) + 1;
    odd[r] = scaled[b] + scaled[e - 1];
  }
}

int main(void) {
  long nnz = 0;
  for (int r = 0; r < ROWS; r++) {
    start[r] = nnz;
    nnz += row_length(r);
  }
  start[ROWS] = nnz;
  if (nnz > NNZ_MAX) {
    printf("too many nonzeros: %ld\n", nnz);
    return 1;
  }
  for (long k = 0; k < nnz; k++) val[k] = (int)((k * 40503u + 7u) % 1000u);
  const int counts[] = {1, 7, 1000, ROWS};
  for (int t = 0; t < 4; t++) {
    const int rows = counts[t];
    for (int again = 0; again < 2; again++) {
      total = 0;
      rows_sum(rows);
      int bad = 0;
      long want_total = 0;
      for (int r = 0; r < rows; r++) {
        long s = 0;
        int mn = 1 << 30, mx = -1, o = 0;
        for (long k = start[r]; k < start[r + 1]; k++) {
          s += val[k];
          mn = val[k] < mn ? val[k] : mn;
          mx = val[k] > mx ? val[k] : mx;
          o ^= val[k] & 1;
        }
        want_total += s;
        bad += sum[r] != s || lo[r] != mn || hi[r] != mx || odd[r] != o;
      }
      printf("sums, rows %d, launch %d: %s\n", rows, again + 1, bad || total != want_total ? "WRONG" : "ok");
    }
  }
  const int limits[] = {32, 64};
  for (int t = 0; t < 2; t++) {
    for (long k = 0; k < NNZ_MAX; k++) scaled[k] = -1;
    rows_scale(limits[t]);
    int bad = 0;
    for (int r = 0; r < SCALE_ROWS; r++) {
      const long b = (long)r * SCALE_WIDTH, e = b + (r % 7 == 3 ? SCALE_WIDTH : 1 + r % 40);
      for (long k = b; k < b + SCALE_WIDTH; k++) bad += scaled[k] != (k < e ? 3 * (int)(k % 1000) + 1 : -1);
      bad += odd[r] != scaled[b] + scaled[e - 1];
    }
    printf("scaled rows, teams of %d: %s\n", limits[t], bad ? "WRONG" : "ok");
  }
  printf("row 5: %ld nonzeros, sum %ld\n", start[6] - start[5], sum[5]);
  return 0;
}
