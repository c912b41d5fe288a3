/* covers: histogram-with-barrier kernel: target teams distribute over blocks, parallel region per block with shared bins declared in the distribute body (master stack), zero bins by thread stride, barrier, atomic increments, barrier, one thread writes out; omp_get_thread_num/omp_get_num_threads stride loops */
#include <stdio.h>
#include <omp.h>

#define NBLK 24
#define BLK 2048
#define NB 64

static unsigned data[NBLK * BLK];
static int hist[NBLK][NB];
static int total_hist[NB];

int main(void) {
  unsigned s = 12345u;
  for (int i = 0; i < NBLK * BLK; i++) {
    s = s * 1103515245u + 12345u;
    data[i] = (s >> 8) % 1000;
  }

#pragma omp target teams distribute num_teams(NBLK) thread_limit(128) map(to: data) map(from: hist)
  for (int blk = 0; blk < NBLK; blk++) {
    int bins[NB]; /* shared by the team's threads */
#pragma omp parallel num_threads(128)
    {
      int tid = omp_get_thread_num();
      int nt = omp_get_num_threads();
      for (int b = tid; b < NB; b += nt) bins[b] = 0;
#pragma omp barrier
      for (int i = tid; i < BLK; i += nt) {
        unsigned v = data[blk * BLK + i];
#pragma omp atomic
        bins[v % NB]++;
      }
#pragma omp barrier
      if (tid == 0)
        for (int b = 0; b < NB; b++) hist[blk][b] = bins[b];
    }
  }

  /* whole-array histogram: one team of threads, bins in mapped memory, same shape */
#pragma omp target map(to: data) map(from: total_hist)
#pragma omp parallel num_threads(256)
  {
    int tid = omp_get_thread_num(), nt = omp_get_num_threads();
    for (int b = tid; b < NB; b += nt) total_hist[b] = 0;
#pragma omp barrier
    for (int i = tid; i < NBLK * BLK; i += nt) {
#pragma omp atomic update
      total_hist[data[i] % NB] += 1;
    }
#pragma omp barrier
  }

  /* reference */
  int ok = 1;
  static int ref[NBLK][NB];
  int ref_total[NB] = {0};
  for (int blk = 0; blk < NBLK; blk++)
    for (int i = 0; i < BLK; i++) {
      ref[blk][data[blk * BLK + i] % NB]++;
      ref_total[data[blk * BLK + i] % NB]++;
    }
  long weighted = 0;
  for (int blk = 0; blk < NBLK; blk++)
    for (int b = 0; b < NB; b++) {
      if (ref[blk][b] != hist[blk][b]) ok = 0;
      weighted += (long)hist[blk][b] * (b + 1) * (blk + 1);
    }
  int tok = 1;
  for (int b = 0; b < NB; b++)
    if (ref_total[b] != total_hist[b]) tok = 0;
  printf("hist[0][0..3]=%d %d %d %d hist[23][63]=%d\n", hist[0][0], hist[0][1], hist[0][2], hist[0][3],
         hist[23][63]);
  printf("weighted checksum=%ld\n", weighted);
  printf("total_hist[0..3]=%d %d %d %d\n", total_hist[0], total_hist[1], total_hist[2], total_hist[3]);
  printf("per-block %s, whole-array %s\n", ok ? "match" : "MISMATCH", tok ? "match" : "MISMATCH");
  printf("%s\n", ok && tok ? "PASS" : "FAIL");
  return 0;
}
