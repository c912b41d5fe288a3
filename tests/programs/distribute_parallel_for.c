/* covers: target teams + distribute parallel for (separate directives), distribute parallel for with collapse(2), target teams distribute parallel for with num_teams/thread_limit/dist_schedule/schedule, thread ids bounded by thread_limit */
#include <stdio.h>
#include <omp.h>

#define R 60
#define C 70

int main(void) {
  static int m[R][C];
  static int hits[R * C];
  int bad_tid = 0;

  /* target teams, then distribute parallel for inside */
#pragma omp target teams num_teams(12) thread_limit(32) map(from: m) map(tofrom: bad_tid)
  {
#pragma omp distribute parallel for collapse(2)
    for (int r = 0; r < R; r++)
      for (int c = 0; c < C; c++) {
        m[r][c] = r * C + c;
        if (omp_get_thread_num() >= 32) {
#pragma omp atomic write
          bad_tid = 1;
        }
      }
  }
  long s = 0;
  int ok = 1;
  for (int r = 0; r < R; r++)
    for (int c = 0; c < C; c++) {
      s += m[r][c];
      if (m[r][c] != r * C + c) ok = 0;
    }
  printf("distribute parallel for collapse(2): ok=%d sum=%ld thread_limit respected=%d\n", ok, s, !bad_tid);

  /* combined construct with every scheduling knob */
  for (int i = 0; i < R * C; i++) hits[i] = 0;
#pragma omp target teams distribute parallel for num_teams(7) thread_limit(64) dist_schedule(static, 128) schedule(static, 3) map(tofrom: hits)
  for (int i = 0; i < R * C; i++) hits[i] += i % 5 + 1;
  long hs = 0;
  int once = 1;
  for (int i = 0; i < R * C; i++) {
    hs += hits[i];
    if (hits[i] != i % 5 + 1) once = 0;
  }
  printf("combined dist_schedule+schedule: once=%d sum=%ld\n", once, hs);

  /* distribute parallel for over an outer loop with a serial inner loop (matrix-vector) */
  static double A[R][C], x[C], y[R];
  for (int r = 0; r < R; r++)
    for (int c = 0; c < C; c++) A[r][c] = (r + 2 * c) % 9 - 4;
  for (int c = 0; c < C; c++) x[c] = c % 3;
#pragma omp target teams map(to: A, x) map(from: y) num_teams(5)
#pragma omp distribute parallel for dist_schedule(static)
  for (int r = 0; r < R; r++) {
    double acc = 0.0;
    for (int c = 0; c < C; c++) acc += A[r][c] * x[c];
    y[r] = acc;
  }
  double ys = 0.0;
  int yok = 1;
  for (int r = 0; r < R; r++) {
    double acc = 0.0;
    for (int c = 0; c < C; c++) acc += A[r][c] * x[c];
    if (acc != y[r]) yok = 0;
    ys += y[r];
  }
  printf("matvec: ok=%d y[0]=%.0f y[59]=%.0f sum=%.0f\n", yok, y[0], y[59], ys);
  printf("%s\n", ok && once && yok && !bad_tid ? "PASS" : "FAIL");
  return 0;
}
