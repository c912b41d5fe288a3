/* covers: Needleman-Wunsch wavefront: host loop over anti-diagonals, one target teams distribute parallel for (num_teams, thread_limit) per diagonal inside target data, diagonal bounds computed on the host and passed as firstprivate scalars, integer max of three, traceback on the host */
#include <stdio.h>
#include <stdlib.h>

#define LEN 160
#define PENALTY 4

static int blosum_like(int a, int b) { return a == b ? 5 : ((a + b) % 3) - 2; }

int main(void) {
  int n = LEN + 1;
  int *seq_a = malloc(LEN * sizeof *seq_a), *seq_b = malloc(LEN * sizeof *seq_b);
  int *score = malloc(n * n * sizeof *score);
  int *sim = malloc(n * n * sizeof *sim);
  unsigned s = 4242u;
  for (int i = 0; i < LEN; i++) {
    s = s * 1664525u + 1013904223u;
    seq_a[i] = (s >> 20) % 10;
    s = s * 1664525u + 1013904223u;
    seq_b[i] = (i % 7 == 0) ? (int)((s >> 20) % 10) : seq_a[i]; /* similar sequences */
  }
  for (int i = 1; i < n; i++)
    for (int j = 1; j < n; j++) sim[i * n + j] = blosum_like(seq_a[i - 1], seq_b[j - 1]);
  for (int i = 0; i < n; i++) {
    score[i * n] = -i * PENALTY;
    score[i] = -i * PENALTY;
  }

#pragma omp target data map(to: sim[0:n * n]) map(tofrom: score[0:n * n])
  for (int d = 2; d <= 2 * LEN; d++) {
    /* cells (i, j) with i + j == d, 1 <= i, j <= LEN */
    int ilo = d - LEN > 1 ? d - LEN : 1;
    int ihi = d - 1 < LEN ? d - 1 : LEN;
#pragma omp target teams distribute parallel for firstprivate(d) num_teams(8) thread_limit(64)
    for (int i = ilo; i <= ihi; i++) {
      int j = d - i;
      int diag = score[(i - 1) * n + j - 1] + sim[i * n + j];
      int up = score[(i - 1) * n + j] - PENALTY;
      int left = score[i * n + j - 1] - PENALTY;
      int m = diag > up ? diag : up;
      score[i * n + j] = m > left ? m : left;
    }
  }

  /* reference */
  int *ref = malloc(n * n * sizeof *ref);
  for (int i = 0; i < n; i++) {
    ref[i * n] = -i * PENALTY;
    ref[i] = -i * PENALTY;
  }
  for (int i = 1; i < n; i++)
    for (int j = 1; j < n; j++) {
      int diag = ref[(i - 1) * n + j - 1] + sim[i * n + j];
      int up = ref[(i - 1) * n + j] - PENALTY, left = ref[i * n + j - 1] - PENALTY;
      int m = diag > up ? diag : up;
      ref[i * n + j] = m > left ? m : left;
    }
  int ok = 1;
  long chk = 0;
  for (int q = 0; q < n * n; q++) {
    if (ref[q] != score[q]) ok = 0;
    chk += (long)score[q] * (q % 13 + 1);
  }
  /* traceback */
  int i = LEN, j = LEN, matches = 0, gaps = 0;
  while (i > 0 && j > 0) {
    if (score[i * n + j] == score[(i - 1) * n + j - 1] + sim[i * n + j]) {
      matches += seq_a[i - 1] == seq_b[j - 1];
      i--;
      j--;
    } else if (score[i * n + j] == score[(i - 1) * n + j] - PENALTY) {
      gaps++;
      i--;
    } else {
      gaps++;
      j--;
    }
  }
  gaps += i + j;
  printf("final score=%d checksum=%ld\n", score[n * n - 1], chk);
  printf("traceback: matches=%d gaps=%d\n", matches, gaps);
  printf("%s\n", ok ? "PASS" : "FAIL");
  free(seq_a);
  free(seq_b);
  free(score);
  free(sim);
  free(ref);
  return 0;
}
