/* Cyclic team loops of a known team (`parallel for` inside `teams distribute`) whose trip
 * count is at or below the team's size take one iteration per thread with no loop
 * (loop.j2 one_round); longer ones keep the loop. The trip counts come from memory, on both
 * sides of the team's 64 threads: a user's `continue`, a reduction, lastprivate, a loop
 * counted down, and a body with a loop of its own (which keeps only the loop). */
#include <stdio.h>

#define TEAMS 24

int main(void) {
  int len[TEAMS], sum[TEAMS], odd[TEAMS], lastv[TEAMS], down[TEAMS], inner[TEAMS];
  int data[TEAMS * 200];
  for (int t = 0; t < TEAMS; t++) len[t] = (t * 37) % 150;   /* 0 .. 149: below, at and above 64 */
  len[3] = 64;
  len[4] = 65;
  len[5] = 1;
  for (int k = 0; k < TEAMS * 200; k++) data[k] = (k * 7919) % 1000 - 500;
#pragma omp target teams distribute thread_limit(64) num_teams(TEAMS) map(to: len, data) \
    map(from: sum, odd, lastv, down, inner)
  for (int t = 0; t < TEAMS; t++) {
    const int n = len[t];
    int s = 0, o = 0, last = -1, d = 0, in = 0;
#pragma omp parallel for reduction(+: s)
    for (int i = 0; i < n; i++) s += data[t * 200 + i];
#pragma omp parallel for reduction(+: o)
    for (int i = 0; i < n; i++) {
      if (data[t * 200 + i] % 2 == 0) continue;   /* the thread's only iteration ends */
      o += 1;
    }
#pragma omp parallel for lastprivate(last)
    for (int i = 0; i < n; i++) last = data[t * 200 + i] * 2 + i;
#pragma omp parallel for reduction(max: d)
    for (int i = n - 1; i >= 0; i--) d = d > data[t * 200 + i] - i ? d : data[t * 200 + i] - i;
#pragma omp parallel for reduction(+: in)
    for (int i = 0; i < n; i++)
      for (int k = 0; k <= i % 3; k++) in += data[t * 200 + i] + k;
    sum[t] = s;
    odd[t] = o;
    lastv[t] = n > 0 ? last : -1;
    down[t] = d;
    inner[t] = in;
  }
  for (int t = 0; t < TEAMS; t++)
    printf("team %2d n %3d: sum %6d odd %3d last %5d max %4d inner %7d\n", t, len[t], sum[t], odd[t], lastv[t],
           down[t], inner[t]);
  return 0;
}
