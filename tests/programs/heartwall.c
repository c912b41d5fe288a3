/* covers: heartwall-shaped tracking kernel: target teams distribute over 51 points, per-point serial code computing window bounds, several parallel for regions in sequence (template copy with + reduction, collapse(2) SSD correlation over the search window, max reduction, min reduction for the argmax, patch write-out) with serial code between them, master-stack arrays shared by the inner parallel regions, host frame loop with target data */
#include <stdio.h>
#include <stdlib.h>

#define H 128
#define W 128
#define FRAMES 4
#define NP 51
#define T 9          /* template is T x T */
#define HALF 4       /* (T - 1) / 2 */
#define S 5          /* search radius */
#define NPOS ((2 * S + 1) * (2 * S + 1))
#define LARGE 100000000L

static int pattern(int r, int c) {
  unsigned h = ((unsigned)r * 73856093u) ^ ((unsigned)c * 19349663u);
  h ^= h >> 13;
  h *= 0x5bd1e995u;
  h ^= h >> 15;
  return (int)(h & 255u);
}

static int frames[FRAMES][H][W];
static int pos_r[NP], pos_c[NP];
static int patch[NP][T * T];
static long quality[NP];
static long energy[NP];

/* the same algorithm, serial, for checking */
static void track_reference(int f, int *pr, int *pc, int (*rpatch)[T * T], long *rq, long *re) {
  for (int p = 0; p < NP; p++) {
    int r0 = pr[p], c0 = pc[p];
    int tmpl[T * T];
    long tsum = 0;
    for (int k = 0; k < T * T; k++) {
      tmpl[k] = frames[f - 1][r0 - HALF + k / T][c0 - HALF + k % T];
      tsum += tmpl[k];
    }
    int lo_r = r0 - S < HALF ? HALF : r0 - S, hi_r = r0 + S > H - 1 - HALF ? H - 1 - HALF : r0 + S;
    int lo_c = c0 - S < HALF ? HALF : c0 - S, hi_c = c0 + S > W - 1 - HALF ? W - 1 - HALF : c0 + S;
    int nc = hi_c - lo_c + 1, npos = (hi_r - lo_r + 1) * nc;
    long best = -1;
    int bi = NPOS;
    for (int q = 0; q < npos; q++) {
      int rr = lo_r + q / nc, cc = lo_c + q % nc;
      long ssd = 0;
      for (int k = 0; k < T * T; k++) {
        long d = frames[f][rr - HALF + k / T][cc - HALF + k % T] - tmpl[k];
        ssd += d * d;
      }
      long sc = LARGE - ssd;
      if (sc > best) {
        best = sc;
        bi = q;
      }
    }
    int nr = lo_r + bi / nc, ncc = lo_c + bi % nc;
    long qsum = 0;
    for (int k = 0; k < T * T; k++) {
      int v = frames[f][nr - HALF + k / T][ncc - HALF + k % T];
      rpatch[p][k] = v;
      qsum += labs((long)v - tmpl[k]);
    }
    pr[p] = nr;
    pc[p] = ncc;
    rq[p] += qsum + best;
    re[p] += tsum;
  }
}

int main(void) {
  /* frame f is the pattern moved down by f and right by 2f, plus a little noise */
  for (int f = 0; f < FRAMES; f++)
    for (int r = 0; r < H; r++)
      for (int c = 0; c < W; c++) frames[f][r][c] = pattern(r - f, c - 2 * f) + (pattern(r + 1000 * f, c) & 7);
  for (int p = 0; p < NP; p++) {
    pos_r[p] = 14 + (p % 9) * 11;
    pos_c[p] = 10 + (p / 9) * 17;
    quality[p] = 0;
    energy[p] = 0;
  }
  int ref_r[NP], ref_c[NP];
  static int ref_patch[NP][T * T];
  long ref_q[NP], ref_e[NP];
  for (int p = 0; p < NP; p++) {
    ref_r[p] = pos_r[p];
    ref_c[p] = pos_c[p];
    ref_q[p] = 0;
    ref_e[p] = 0;
  }

#pragma omp target data map(to: frames) map(tofrom: pos_r, pos_c, quality, energy) map(from: patch)
  for (int f = 1; f < FRAMES; f++) {
#pragma omp target teams distribute num_teams(NP) thread_limit(128) firstprivate(f)
    for (int p = 0; p < NP; p++) {
      /* serial: window bounds */
      int r0 = pos_r[p], c0 = pos_c[p];
      int lo_r = r0 - S < HALF ? HALF : r0 - S, hi_r = r0 + S > H - 1 - HALF ? H - 1 - HALF : r0 + S;
      int lo_c = c0 - S < HALF ? HALF : c0 - S, hi_c = c0 + S > W - 1 - HALF ? W - 1 - HALF : c0 + S;
      int nr = hi_r - lo_r + 1, nc = hi_c - lo_c + 1;
      int npos = nr * nc;
      int tmpl[T * T];     /* shared by the team */
      long score[NPOS];    /* shared by the team */
      long tsum = 0;

      /* parallel: copy the template from the previous frame */
#pragma omp parallel for reduction(+: tsum)
      for (int k = 0; k < T * T; k++) {
        tmpl[k] = frames[f - 1][r0 - HALF + k / T][c0 - HALF + k % T];
        tsum += tmpl[k];
      }

      /* parallel: SSD correlation for every candidate position */
#pragma omp parallel for collapse(2)
      for (int a = 0; a < nr; a++)
        for (int b = 0; b < nc; b++) {
          long ssd = 0;
          for (int k = 0; k < T * T; k++) {
            long d = frames[f][lo_r + a - HALF + k / T][lo_c + b - HALF + k % T] - tmpl[k];
            ssd += d * d;
          }
          score[a * nc + b] = LARGE - ssd;
        }

      /* parallel: best score */
      long best = -1;
#pragma omp parallel for reduction(max: best)
      for (int q = 0; q < npos; q++)
        if (score[q] > best) best = score[q];

      /* parallel: first position reaching it */
      int bi = NPOS;
#pragma omp parallel for reduction(min: bi)
      for (int q = 0; q < npos; q++)
        if (score[q] == best && q < bi) bi = q;

      /* serial: move the point */
      int new_r = lo_r + bi / nc, new_c = lo_c + bi % nc;
      pos_r[p] = new_r;
      pos_c[p] = new_c;

      /* parallel: write the matched patch, accumulate the match quality */
      long qsum = 0;
#pragma omp parallel for reduction(+: qsum)
      for (int k = 0; k < T * T; k++) {
        int v = frames[f][new_r - HALF + k / T][new_c - HALF + k % T];
        patch[p][k] = v;
        long d = (long)v - tmpl[k];
        qsum += d < 0 ? -d : d;
      }
      quality[p] += qsum + best;
      energy[p] += tsum;
    }
    track_reference(f, ref_r, ref_c, ref_patch, ref_q, ref_e);
  }

  int ok = 1, moved_right = 1;
  long pchk = 0, qchk = 0, echk = 0;
  for (int p = 0; p < NP; p++) {
    if (pos_r[p] != ref_r[p] || pos_c[p] != ref_c[p] || quality[p] != ref_q[p] || energy[p] != ref_e[p]) ok = 0;
    int r_start = 14 + (p % 9) * 11, c_start = 10 + (p / 9) * 17;
    if (pos_r[p] != r_start + FRAMES - 1 || pos_c[p] != c_start + 2 * (FRAMES - 1)) moved_right = 0;
    for (int k = 0; k < T * T; k++) {
      if (patch[p][k] != ref_patch[p][k]) ok = 0;
      pchk += (long)patch[p][k] * (k + 1) * (p + 1);
    }
    qchk += quality[p];
    echk += energy[p];
  }
  printf("points: p0=(%d,%d) p25=(%d,%d) p50=(%d,%d)\n", pos_r[0], pos_c[0], pos_r[25], pos_c[25], pos_r[50],
         pos_c[50]);
  printf("every point tracked the (1,2) per-frame motion: %s\n", moved_right ? "yes" : "no");
  printf("checksums: patch=%ld quality=%ld energy=%ld\n", pchk, qchk, echk);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return 0;
}
