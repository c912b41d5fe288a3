/* the OpenMP 5.0 loop construct and its combined forms, with bind, order(concurrent), collapse, reduction, private, lastprivate */
#include <stdio.h>

#define N 300

int main(void) {
  static float a[N][N];
  double s = 0.0;
  int last = 0;

#pragma omp target teams loop collapse(2) map(from: a)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) a[i][j] = (float)(i - j);

#pragma omp target teams loop reduction(+: s) map(to: a) map(tofrom: s)
  for (int i = 0; i < N; i++) s += a[i][i];

  /* lastprivate on loop lists only the loop's iteration variable (OpenMP 5.0) */
  int k;
#pragma omp target parallel loop lastprivate(k) map(tofrom: k, a)
  for (k = 0; k < N; k++) a[k][4] = 1.0f;
  last = k;

#pragma omp target map(tofrom: a)
#pragma omp teams
  {
#pragma omp loop bind(teams)
    for (int i = 0; i < N; i++) a[i][0] = 0.0f;
  }

#pragma omp target map(tofrom: a)
#pragma omp parallel
  {
#pragma omp loop bind(parallel) order(concurrent) private(s)
    for (int i = 0; i < N; i++) {
      s = a[i][1];
      a[i][1] = (float)s * 2.0f;
    }
  }

#pragma omp target map(tofrom: a)
#pragma omp loop bind(thread)
  for (int i = 0; i < N; i++) a[i][2] += 1.0f;

#pragma omp target teams distribute parallel for order(concurrent) map(tofrom: a)
  for (int i = 0; i < N; i++) a[i][3] = 3.0f;
  printf("%f %d %f\n", s, last, a[5][1]);
  return 0;
}
