/* linear(x: step) on worksharing loops in device code: each iteration's private copy starts at
   the original value plus the iteration's number times the step (however the iterations are
   dealt out to threads), and the original gets the value of the sequentially last iteration. */
#include <omp.h>
#include <stdio.h>

#define N 1000

int main(void) {
  int a[N], b[N], c[N], d[N];
  int j = 7, t = 5;
  long k = -3;

  /* conforming use: the body advances j by the step */
  #pragma omp target parallel for linear(j: 2) map(from: a)
  for (int i = 0; i < N; i++) {
    a[i] = j;
    j += 2;
  }

  /* the body only reads t: iteration i sees 5 + 3 * i */
  #pragma omp target parallel for linear(t: 3) map(from: b)
  for (int i = 0; i < N; i++) b[i] = t * 2;

  /* a pointer of the device code: the step counts elements */
  long p_moved = 0;
  #pragma omp target map(tofrom: c, p_moved)
  {
    int *p = c;
    #pragma omp parallel for linear(p) num_threads(64)
    for (int i = 0; i < N; i++) {
      *p = i * i;
      p++;
    }
    p_moved = p - c;
  }

  /* a loop of a parallel region inside teams, the item a team-level variable */
  int ends[4];
  #pragma omp target teams num_teams(4) map(from: d, ends)
  {
    int team = omp_get_team_num();
    int q = team * 1000;
    #pragma omp parallel num_threads(96)
    {
      #pragma omp for linear(q: 5) schedule(dynamic, 7)
      for (int i = 0; i < N / 4; i++) {
        if (team == 2) d[i] = q;
        q += 5;
      }
    }
    ends[team] = q;
  }

  /* a linear item counted down, with a negative step */
  #pragma omp target parallel for linear(k: -4) map(tofrom: k)
  for (int i = 0; i < 10; i++) k -= 4;

  long bad = 0;
  for (int i = 0; i < N; i++) {
    bad += a[i] != 7 + 2 * i;
    bad += b[i] != 2 * (5 + 3 * i);
    bad += c[i] != i * i;
  }
  for (int i = 0; i < N / 4; i++) bad += d[i] != 2000 + 5 * i;
  printf("j=%d t=%d p moved %ld k=%ld\n", j, t, p_moved, k);
  printf("team ends: %d %d %d %d\n", ends[0], ends[1], ends[2], ends[3]);
  printf("wrong elements: %ld\n", bad);
  return 0;
}
