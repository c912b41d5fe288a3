/* covers: operands that every iteration of a team's worksharing loop reads whole in an inner loop,
   staged once in shared memory for the team (analysis/team_staging.py broadcast_operands): an
   array of structs at an offset the region fixes (lavamd's neighbour box), a trip count known only
   at run time (one iteration, whose store through another pointer the inner loop must see, is
   left as written), two operands of one loop, a filter read through a nest of two inner loops,
   and loops the staging leaves alone: a conditional read, a row of a 2-D array read by a `for`
   inside a `parallel` region (each thread's locals are its own), and one reading through a
   pointer each thread of the region sets apart; every result checked exactly against the same
   arithmetic on the host */
#include <omp.h>
#include <stdio.h>

typedef struct { float x, y, q; } particle;

#define NB 24
#define NP 40
#define NR 16
#define NC 48

static particle p[NB * NP];
static float out[NB * NP], ref[NB * NP];
static float grid[NR][NC], rows[NR][NC], rref[NR][NC];

static long differ(const char *what, const float *got, const float *want, int n) {
  long bad = 0;
  for (int i = 0; i < n; i++) bad += got[i] != want[i];
  printf("%s: %ld wrong\n", what, bad);
  return bad;
}

static int neighbour(int box, int n) { return (box + n * 5) % NB; }

int main(int argc, char **argv) {
  long bad = 0;
  for (int i = 0; i < NB * NP; i++) {
    p[i].x = (float)(i % 7);
    p[i].y = (float)(i % 5) - 2;
    p[i].q = (float)(i % 3);
  }
  for (int box = 0; box < NB; box++)
    for (int i = 0; i < NP; i++) {
      float f = 0;
      for (int n = 0; n < 3; n++) {
        const int nb = neighbour(box, n);
        for (int j = 0; j < NP; j++) f += p[nb * NP + j].q * (p[box * NP + i].x - p[nb * NP + j].x) + p[nb * NP + j].y;
      }
      ref[box * NP + i] = f;
    }

  /* lavamd's shape: the neighbour box's particles over j, the team's loop over its own */
#pragma omp target teams distribute thread_limit(64) map(to: p) map(from: out)
  for (int box = 0; box < NB; box++) {
#pragma omp parallel for
    for (int i = 0; i < NP; i++) out[box * NP + i] = 0;
    for (int n = 0; n < 3; n++) {
      const int nb = neighbour(box, n);
#pragma omp parallel for
      for (int i = 0; i < NP; i++) {
        float f = out[box * NP + i];
        for (int j = 0; j < NP; j++) {
          const particle pj = p[nb * NP + j];
          f += pj.q * (p[box * NP + i].x - pj.x) + pj.y;
        }
        out[box * NP + i] = f;
      }
    }
  }
  bad += differ("neighbour particles", out, ref, NB * NP);

  /* a row of a 2-D array, read counting down, by a `for` met in a serial loop of a `parallel` region */
  for (int r = 0; r < NR; r++)
    for (int c = 0; c < NC; c++) grid[r][c] = rref[r][c] = (float)((r * 3 + c) % 11);
  for (int r = 0; r < NR; r++)
    for (int pass = 0; pass < 3; pass++) {
      const int src = (r + pass) % NR;
      float next[NC];
      for (int c = 0; c < NC; c++) {
        float s = 0;
        for (int k = NC - 1; k >= 0; k--) s += grid[src][k] * (float)((c + k) % 3);
        next[c] = rref[r][c] + s;
      }
      for (int c = 0; c < NC; c++) rref[r][c] = next[c];
      for (int c = 0; c < NC; c++) rows[r][c] = 0;
    }
  for (int r = 0; r < NR; r++)
    for (int c = 0; c < NC; c++) rows[r][c] = grid[r][c];
#pragma omp target teams distribute map(to: grid) map(tofrom: rows)
  for (int r = 0; r < NR; r++) {
#pragma omp parallel num_threads(32)
    for (int pass = 0; pass < 3; pass++) {
      const int src = (r + pass) % NR;
      float s_keep;
#pragma omp for
      for (int c = 0; c < NC; c++) {
        float s = 0;
        for (int k = NC - 1; k >= 0; k--) s += grid[src][k] * (float)((c + k) % 3);
        s_keep = s;
        rows[r][c] += s_keep;
      }
    }
  }
  bad += differ("2-D rows, passes", &rows[0][0], &rref[0][0], NR * NC);

  /* a trip count known at run time; one iteration that stores through another pointer first */
  int n = argc + NP - 1;   /* NP */
  float *alias = &grid[0][0];
  for (int i = 0; i < NB * NP; i++) out[i] = 0;
  for (int i = 0; i < n; i++) {
    float s = 0;
    for (int rep = 1; rep <= 2; rep++)
      for (int j = 0; j < NC; j++) s += grid[rep][j] * (float)(i + 1);
    ref[i] = s;
  }
#pragma omp target teams distribute map(to: grid) map(tofrom: out)
  for (int t = 0; t < 1; t++) {
    for (int rep = 1; rep <= 2; rep++) {
#pragma omp parallel for
      for (int i = 0; i < n; i++) {
        float s = out[i];
        for (int j = 0; j < NC; j++) s += grid[rep][j] * (float)(i + 1);
        out[i] = s;
      }
    }
  }
  bad += differ("run-time trip count", out, ref, n);
  int one = argc;   /* 1 */
  float want = 0;
  grid[2][5] = 7;
  for (int j = 0; j < NC; j++) want += j == 5 ? 101.0f : grid[2][j];
  grid[2][5] = 7;
  float got = -1;
#pragma omp target teams distribute map(tofrom: grid, got)
  for (int t = 0; t < 1; t++) {
    for (int rep = 0; rep < 2; rep++) {
#pragma omp parallel for
      for (int i = 0; i < one; i++) {
        alias[2 * NC + 5] = 100 + rep;   /* grid[2][5]: the one iteration's loop must read it */
        float s = 0;
        for (int j = 0; j < NC; j++) s += grid[2][j];
        got = s;
      }
    }
  }
  printf("one iteration, its own store: %s\n", got == want ? "seen" : "missed");
  bad += got != want;

  /* two operands of one loop; a conditional read and a stored operand, left as written */
  for (int r = 0; r < NR; r++)
    for (int c = 0; c < NC; c++) grid[r][c] = (float)((r + 2 * c) % 7);
  for (int i = 0; i < NB * NP; i++) {
    float s = 0;
    for (int j = 0; j < NC; j++) s += grid[3][j] * grid[4][j] + (i % 2 ? grid[5][j] : 0);
    ref[i] = s;
  }
#pragma omp target teams distribute map(to: grid) map(from: out)
  for (int t = 0; t < 1; t++) {
#pragma omp parallel for
    for (int i = 0; i < NB * NP; i++) {
      float s = 0;
      for (int j = 0; j < NC; j++) s += grid[3][j] * grid[4][j] + (i % 2 ? grid[5][j] : 0);
      out[i] = s;
    }
  }
  bad += differ("two operands, a conditional one", out, ref, NB * NP);

  /* a `for` inside a `parallel` region, reading through a pointer each thread sets to a row of its
     own (schedule(static, 1): iteration i runs on thread i % threads): no operand of the team */
  for (int r = 0; r < NR; r++)
    for (int c = 0; c < NC; c++) grid[r][c] = (float)((r * 5 + c) % 13);
  int threads = 0;
#pragma omp target teams distribute map(to: grid) map(from: out, threads)
  for (int t = 0; t < 1; t++) {
#pragma omp parallel num_threads(8)
    {
      const float *mine = grid[omp_get_thread_num() % NR];
      if (omp_get_thread_num() == 0) threads = omp_get_num_threads();
#pragma omp for schedule(static, 1)
      for (int i = 0; i < 64; i++) {
        float s = 0;
        for (int j = 0; j < NC; j++) s += mine[j];
        out[i] = s;
      }
    }
  }
  long own = 0;
  for (int i = 0; i < 64; i++) {
    float s = 0;
    for (int j = 0; j < NC; j++) s += grid[(i % threads) % NR][j];
    own += out[i] != s;
  }
  printf("each thread's own row: %ld wrong\n", own);
  bad += own;

  /* a 5 x 5 filter inside an 8 x 8 flat array, read through a nest of two loops (rows 8 apart:
     the copy holds the gaps between them) */
  static float filt[64], img[NB * NP];
  for (int i = 0; i < 64; i++) filt[i] = (float)(i % 5) - 2;
  for (int i = 0; i < NB * NP; i++) img[i] = (float)(i % 9);
  for (int i = 0; i < NB * NP; i++) {
    float s = 0;
    for (int a = 0; a < 5; a++)
      for (int c = 0; c < 5; c++) s += filt[9 + a * 8 + c] * img[(i + a * 3 + c) % (NB * NP)];
    ref[i] = s;
  }
#pragma omp target teams distribute map(to: filt, img) map(from: out)
  for (int t = 0; t < 1; t++) {
#pragma omp parallel for
    for (int i = 0; i < NB * NP; i++) {
      float s = 0;
      for (int a = 0; a < 5; a++)
        for (int c = 0; c < 5; c++) s += filt[9 + a * 8 + c] * img[(i + a * 3 + c) % (NB * NP)];
      out[i] = s;
    }
  }
  bad += differ("a filter read through two loops", out, ref, NB * NP);

  printf("broadcast_operands: %s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
