/* covers: target regions inside host tasks (parallel + single producer, taskwait), inside taskloop iterations, inside a taskgroup, and a host task consuming device results through depend between host tasks */
#include <stdio.h>

#define NT 12
#define LEN 512

static double data[NT][LEN];
static double sums[NT];

int main(void) {
  for (int t = 0; t < NT; t++)
    for (int i = 0; i < LEN; i++) data[t][i] = t + i % 8;

#pragma omp parallel num_threads(4)
#pragma omp single
  {
    for (int t = 0; t < NT; t++) {
#pragma omp task firstprivate(t)
      {
        double *row = data[t];
#pragma omp target teams distribute parallel for map(tofrom: row[0:LEN])
        for (int i = 0; i < LEN; i++) row[i] = row[i] * 2 + 1;
      }
    }
#pragma omp taskwait

    /* taskloop: each iteration offloads a reduction */
#pragma omp taskloop grainsize(1)
    for (int t = 0; t < NT; t++) {
      double *row = data[t];
      double s = 0.0;
#pragma omp target teams distribute parallel for map(to: row[0:LEN]) reduction(+: s)
      for (int i = 0; i < LEN; i++) s += row[i];
      sums[t] = s;
    }

    /* taskgroup: targets in tasks, then a host task reading them through depend */
    double total = 0.0;
#pragma omp taskgroup
    {
      for (int t = 0; t < NT; t += 3) {
#pragma omp task firstprivate(t) depend(out: data[t][0])
        {
          double *row = data[t];
#pragma omp target map(tofrom: row[0:LEN])
          for (int i = 0; i < LEN; i++) row[i] -= 1;
        }
#pragma omp task firstprivate(t) depend(in: data[t][0]) shared(total)
        {
          double s = 0.0;
          for (int i = 0; i < LEN; i++) s += data[t][i];
#pragma omp atomic
          total += s;
        }
      }
    }
    printf("taskgroup total=%.1f\n", total);
  }

  double all = 0.0;
  int ok = 1;
  for (int t = 0; t < NT; t++) {
    double s = 0.0;
    for (int i = 0; i < LEN; i++) s += (t + i % 8) * 2 + 1;
    if (sums[t] != s) ok = 0;
    all += sums[t];
  }
  printf("taskloop sums total=%.1f\n", all);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return 0;
}
