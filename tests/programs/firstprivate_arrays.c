/* covers: firstprivate arrays: on target (the region's own copy, the host array unchanged), on target teams distribute (each team's copy), on combined target teams and on a nested parallel (each thread's copy), on target parallel for and on a worksharing for inside a parallel region, on separate teams and distribute directives, a 2-D array, an array that a parallel region shares with the serial code */
#include <stdio.h>
#include <omp.h>

int main(void) {
  int ok = 1;
  int coef[4] = {1, 2, 3, 4};
  int out[64];
  for (int i = 0; i < 64; i++) out[i] = -1;

  /* target: one private copy, modified on the device */
#pragma omp target firstprivate(coef) map(from: out[0:4])
  {
    for (int k = 0; k < 4; k++) {
      coef[k] *= 10;
      out[k] = coef[k];
    }
  }
  printf("target: device %d %d %d %d, host %d %d %d %d\n", out[0], out[1], out[2], out[3], coef[0], coef[1], coef[2],
         coef[3]);
  ok = ok && out[0] == 10 && out[3] == 40 && coef[0] == 1 && coef[3] == 4;

  /* teams distribute: every iteration sees the original values in its team's copy first */
  double w[3] = {0.5, 1.5, 2.5};
#pragma omp target teams distribute num_teams(4) firstprivate(w) map(from: out[0:16])
  for (int t = 0; t < 16; t++) {
    double before = w[1];
    w[1] = 100.0 + t; /* later iterations of this team see it: not printed */
    out[t] = (int)(w[0] * 10) + (before == 1.5 || before >= 100.0 ? 0 : 1000) + (int)(w[2] * 2);
  }
  int td_ok = 1;
  for (int t = 0; t < 16; t++) td_ok = td_ok && out[t] == 10;
  printf("teams distribute: %s, host w %.1f %.1f %.1f\n", td_ok ? "each team's own copy" : "BAD", w[0], w[1], w[2]);
  ok = ok && td_ok && w[1] == 1.5;

  /* combined target teams, then a parallel region with its own firstprivate copy per thread */
  int seen[2][4];
#pragma omp target teams num_teams(2) firstprivate(coef) map(from: seen)
  {
    int team = omp_get_team_num();
    coef[0] += 100 * team;
#pragma omp parallel num_threads(4) firstprivate(coef)
    {
      int t = omp_get_thread_num();
      coef[1] += t;
      if (team < 2 && t < 4) seen[team][t] = coef[0] * 1000 + coef[1];
    }
  }
  int nt_ok = 1;
  for (int team = 0; team < 2; team++)
    for (int t = 0; t < 4; t++) nt_ok = nt_ok && seen[team][t] == (1 + 100 * team) * 1000 + 2 + t;
  printf("teams + parallel: %s, host %d %d\n", nt_ok ? "each thread's own copy" : "BAD", coef[0], coef[1]);
  ok = ok && nt_ok && coef[0] == 1 && coef[1] == 2;

  /* target parallel for, and a worksharing for inside a parallel region */
  int tbl[3] = {7, 8, 9};
  int grid[2][3] = {{1, 2, 3}, {4, 5, 6}};
#pragma omp target parallel for firstprivate(tbl, grid) map(from: out[0:32]) num_threads(8)
  for (int i = 0; i < 32; i++) {
    tbl[i % 3] += i;              /* this thread's copy only */
    grid[1][2] = 60;
    out[i] = tbl[i % 3] - i + grid[0][0] + grid[1][2];
  }
  int pf_ok = 1;
  /* a thread's copy may hold earlier iterations' additions: out[i] >= tbl0[i%3] + 61 */
  for (int i = 0; i < 32; i++) pf_ok = pf_ok && out[i] >= (7 + i % 3) + 61;
#pragma omp target map(from: out[32:8])
  {
    int base[2] = {5, 6};
#pragma omp parallel num_threads(4) shared(base)
    {
#pragma omp for firstprivate(base)
      for (int i = 0; i < 8; i++) {
        base[0] += 1;       /* this thread's copy */
        out[32 + i] = base[1] + 10 * (base[0] > 5 + 8); /* never more than 8 increments per copy */
      }
    }
  }
  for (int i = 0; i < 8; i++) pf_ok = pf_ok && out[32 + i] == 6;
  /* private and firstprivate scalars of a for, single and sections inside a region */
  int tmp = -5, seen_tmp = 0, sec_sum = 0, single_val = 0;
#pragma omp target map(tofrom: tmp, seen_tmp, sec_sum, single_val)
  {
#pragma omp parallel num_threads(4) shared(tmp)
    {
#pragma omp for private(tmp) reduction(+: seen_tmp)
      for (int i = 0; i < 16; i++) {
        tmp = i * 3;
        seen_tmp += (tmp == i * 3);
      }
#pragma omp single firstprivate(tmp)
      {
        tmp += 100;
        single_val = tmp;
      }
#pragma omp sections firstprivate(tmp) reduction(+: sec_sum)
      {
#pragma omp section
        {
          tmp += 1;
          sec_sum += tmp;
        }
#pragma omp section
        {
          tmp += 2;
          sec_sum += tmp;
        }
      }
    }
  }
  printf("for/single/sections: tmp %d seen %d single %d sections %d\n", tmp, seen_tmp, single_val, sec_sum);
  pf_ok = pf_ok && tmp == -5 && seen_tmp == 16 && single_val == 95 && sec_sum == -4 + -3;
  printf("parallel for / for: %s, host tbl %d %d %d grid %d\n", pf_ok ? "private copies" : "BAD", tbl[0], tbl[1], tbl[2],
         grid[1][2]);
  ok = ok && pf_ok && tbl[0] == 7 && grid[1][2] == 6;

  /* separate teams and distribute directives */
  int a[2] = {3, 4}, b[2] = {5, 6};
#pragma omp target map(from: out[0:8])
#pragma omp teams num_teams(2) firstprivate(a)
  {
    a[0] += 10;
#pragma omp distribute firstprivate(b)
    for (int i = 0; i < 8; i++) {
      b[1] = i;
      out[i] = a[0] * 100 + b[0] * 10 + b[1];
    }
  }
  int sep_ok = 1;
  for (int i = 0; i < 8; i++) sep_ok = sep_ok && out[i] == 1300 + 50 + i;
  printf("teams / distribute: %s, host %d %d\n", sep_ok ? "private copies" : "BAD", a[0], b[1]);
  ok = ok && sep_ok && a[0] == 3 && b[1] == 6;

  /* a firstprivate array of the target region shared by its parallel region (generic) */
  int shared_sum = 0;
#pragma omp target firstprivate(coef) map(tofrom: shared_sum)
  {
    coef[2] = 30;
#pragma omp parallel num_threads(3) reduction(+: shared_sum)
    shared_sum += coef[omp_get_thread_num()];
  }
  printf("shared with a region: %d\n", shared_sum);
  ok = ok && shared_sum == 1 + 2 + 30;
  printf("%s\n", ok ? "PASS" : "FAIL");
  return 0;
}
