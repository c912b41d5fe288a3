/* covers: team-level `parallel for reduction(+: c)` loops that count into a serial local of a
   `teams distribute` iteration (SPMD: one barrier counts, bar.red.popc, where the team has a thread
   for each iteration): `c += a[i] < x`, `if (t) c++`, `c = c + (p && q)`, `c += t ? 1 : 0`,
   `++c` / `c += 1` under an if; counters of int, unsigned, long and char type starting away from
   zero; loops shorter and longer than the team (64 threads), decreasing, strided, empty; and
   look-alikes that are not counts (`c += 2 * (a < x)`, `c += a[i]`) beside them */
#include <stdio.h>

#define ROWS 24
#define N 300

static int a[ROWS][N], out[ROWS][10];

static int expected(int r, int which, const int len[ROWS]) {
  int n = len[r], x = a[r][0], c = 0;
  switch (which) {
  case 0: c = 3; for (int i = 0; i < n; i++) c += a[r][i] < x; break;
  case 1: c = -2; for (int i = 0; i < n; i++) if (a[r][i] % 3 == 0) c++; break;
  case 2: c = 0; for (int i = n - 1; i >= 0; i--) c = c + (a[r][i] > 10 && a[r][i] < 60); break;
  case 3: c = 7; for (int i = 0; i < n; i += 3) c += a[r][i] == x ? 1 : 0; break;
  case 4: { unsigned u = 4000000000u; for (int i = 0; i < n; i++) if (a[r][i] & 1) ++u; c = (int)(u - 4000000000u); } break;
  case 5: { long l = -5; for (int i = 0; i < n; i++) if (a[r][i] > x) l += 1; c = (int)l; } break;
  case 6: { char h = 100; for (int i = 0; i < n; i++) h += !(a[r][i] % 7); c = h; } break;
  case 7: c = 0; for (int i = 0; i < n; i++) c += 2 * (a[r][i] < x); break;
  case 8: c = 1; for (int i = 0; i < n; i++) c += a[r][i]; break;
  case 9: c = 0; for (int i = n; i < n; i++) c += a[r][i] < x; break;
  }
  return c;
}

int main(void) {
  int len[ROWS];
  for (int r = 0; r < ROWS; r++) {
    len[r] = (r * 37) % (N + 1);   /* 0 .. 300: shorter and longer than the team */
    if (r == 3) len[r] = 64;       /* exactly the team */
    if (r == 4) len[r] = 65;       /* one past it */
    for (int i = 0; i < N; i++) a[r][i] = (int)((r * 131u + i * 2654435761u) >> 7) % 97;
  }
#pragma omp target teams distribute thread_limit(64) map(to: a, len) map(from: out)
  for (int r = 0; r < ROWS; r++) {
    const int n = len[r], x = a[r][0];
    int c0 = 3, c1 = -2, c2 = 0, c3 = 7, c7 = 0, c8 = 1, c9 = 0;
    unsigned u = 4000000000u;
    long l = -5;
    char h = 100;
#pragma omp parallel for reduction(+: c0)
    for (int i = 0; i < n; i++) c0 += a[r][i] < x;
#pragma omp parallel for reduction(+: c1)
    for (int i = 0; i < n; i++)
      if (a[r][i] % 3 == 0) c1++;
#pragma omp parallel for reduction(+: c2)
    for (int i = n - 1; i >= 0; i--) c2 = c2 + (a[r][i] > 10 && a[r][i] < 60);
#pragma omp parallel for reduction(+: c3)
    for (int i = 0; i < n; i += 3) c3 += a[r][i] == x ? 1 : 0;
#pragma omp parallel for reduction(+: u)
    for (int i = 0; i < n; i++)
      if (a[r][i] & 1) ++u;
#pragma omp parallel for reduction(+: l)
    for (int i = 0; i < n; i++)
      if (a[r][i] > x) l += 1;
#pragma omp parallel for reduction(+: h)
    for (int i = 0; i < n; i++) h += !(a[r][i] % 7);
#pragma omp parallel for reduction(+: c7)
    for (int i = 0; i < n; i++) c7 += 2 * (a[r][i] < x);
#pragma omp parallel for reduction(+: c8)
    for (int i = 0; i < n; i++) c8 += a[r][i];
#pragma omp parallel for reduction(+: c9)
    for (int i = n; i < n; i++) c9 += a[r][i] < x;
    out[r][0] = c0; out[r][1] = c1; out[r][2] = c2; out[r][3] = c3;
    out[r][4] = (int)(u - 4000000000u); out[r][5] = (int)l; out[r][6] = h;
    out[r][7] = c7; out[r][8] = c8; out[r][9] = c9;
  }
  const char *names[10] = {"c += a < x", "if (t) c++", "c = c + (p && q), decreasing", "c += t ? 1 : 0, strided",
                           "unsigned ++u", "long l += 1", "char h += !t", "c += 2 * t (not a count)",
                           "c += a (not a count)", "empty loop"};
  for (int k = 0; k < 10; k++) {
    int bad = 0;
    for (int r = 0; r < ROWS; r++) bad += out[r][k] != expected(r, k, len);
    printf("%-32s %s\n", names[k], bad ? "WRONG" : "ok");
  }
  return 0;
}
