/* covers: parallel nested in parallel inside target (inner region may run with one thread), nested parallel for with reduction, omp_get_level in nested regions, parallel inside a parallel for body, results independent of the inner team size */
#include <stdio.h>
#include <omp.h>

#define NO 16
#define NI 200

int main(void) {
  static int grid[NO][NI];
  long row_sums[NO];
  int level_ok = 1;

#pragma omp target map(from: grid, row_sums) map(tofrom: level_ok)
#pragma omp parallel for num_threads(8)
  for (int o = 0; o < NO; o++) {
    long rs = 0;
    /* nested parallel for: a team of one on the GPU, maybe more elsewhere */
#pragma omp parallel for reduction(+: rs) num_threads(4)
    for (int i = 0; i < NI; i++) {
      grid[o][i] = o * 1000 + i;
      rs += grid[o][i];
      if (omp_get_level() != 2) {
#pragma omp atomic write
        level_ok = 0;
      }
    }
    row_sums[o] = rs;
  }
  long total = 0;
  int ok = 1;
  for (int o = 0; o < NO; o++) {
    long want = (long)o * 1000 * NI + NI * (NI - 1) / 2;
    if (row_sums[o] != want) ok = 0;
    total += row_sums[o];
    for (int i = 0; i < NI; i++)
      if (grid[o][i] != o * 1000 + i) ok = 0;
  }
  printf("nested parallel for: total=%ld level2 everywhere=%d\n", total, level_ok);

  /* nested parallel regions with an explicit inner worksharing loop; the outer threads count themselves */
  int counter = 0;
  int inner_hits[64];
  for (int k = 0; k < 64; k++) inner_hits[k] = 0;
#pragma omp target parallel num_threads(4) map(tofrom: counter, inner_hits)
  {
    int outer = omp_get_thread_num();
#pragma omp parallel num_threads(3) shared(inner_hits)
    {
#pragma omp for
      for (int k = 0; k < 16; k++) {
#pragma omp atomic
        inner_hits[outer * 16 + k] += 1;
      }
    }
#pragma omp atomic
    counter += 1;
  }
  int hits_ok = 1, covered = 0;
  for (int k = 0; k < 64; k++) {
    if (inner_hits[k] > 1) hits_ok = 0;
    covered += inner_hits[k];
  }
  /* every outer thread covers its 16 slots exactly once */
  printf("nested regions: outer threads=%d each covered its slots=%d\n", counter >= 1 && counter <= 4,
         hits_ok && covered == 16 * counter);

  /* parallel inside target teams distribute parallel for body: serialized, still correct */
  static long sq[256];
#pragma omp target teams distribute parallel for map(from: sq)
  for (int i = 0; i < 256; i++) {
    long s = 0;
#pragma omp parallel for reduction(+: s)
    for (int k = 0; k <= i; k++) s += k * k;
    sq[i] = s;
  }
  int sq_ok = 1;
  long sqsum = 0;
  for (int i = 0; i < 256; i++) {
    if (sq[i] != (long)i * (i + 1) * (2 * i + 1) / 6) sq_ok = 0;
    sqsum += sq[i];
  }
  printf("parallel in combined loop body: ok=%d sum=%ld\n", sq_ok, sqsum);
  printf("%s\n", ok && level_ok && hits_ok && sq_ok ? "PASS" : "FAIL");
  return 0;
}
