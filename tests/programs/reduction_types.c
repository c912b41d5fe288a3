/* covers: reductions on long, unsigned (wrapping * and +), float, double; reductions across teams (target teams distribute parallel for, target teams reduction + distribute), team-level reduction in a parallel for nested in teams distribute, reduction on parallel inside target */
#include <stdio.h>

#define N 20000

int main(void) {
  /* long sum with values beyond 32 bits */
  long lsum = 0;
  long lmax = 0;
#pragma omp target teams distribute parallel for reduction(+: lsum) reduction(max: lmax) map(tofrom: lsum, lmax)
  for (int i = 0; i < N; i++) {
    long t = (long)i * 1000003L;
    lsum += t;
    if (t > lmax) lmax = t;
  }
  printf("long: sum=%ld max=%ld\n", lsum, lmax);

  /* unsigned: wrap-around arithmetic is order independent */
  unsigned usum = 0, uprod = 1, uxor = 0;
#pragma omp target teams distribute parallel for reduction(+: usum) reduction(*: uprod) reduction(^: uxor) map(tofrom: usum, uprod, uxor)
  for (int i = 0; i < N; i++) {
    unsigned h = (unsigned)i * 2654435761u;
    usum += h;
    uprod *= (h | 1u);
    uxor ^= h;
  }
  printf("unsigned: sum=%u prod=%u xor=%u\n", usum, uprod, uxor);

  /* float with integer values: exact below 2^24 */
  float fsum = 0.0f, fmin = 1e30f;
#pragma omp target teams distribute parallel for reduction(+: fsum) reduction(min: fmin) map(tofrom: fsum, fmin)
  for (int i = 0; i < 4000; i++) {
    float x = (float)(i % 100) - 20.0f;
    fsum += x;
    fmin = x < fmin ? x : fmin;
  }
  printf("float: sum=%.1f min=%.1f\n", fsum, fmin);

  /* double with halves: exact */
  double dsum = 0.0, dmax = -1e300;
#pragma omp target teams distribute parallel for reduction(+: dsum) reduction(max: dmax) map(tofrom: dsum, dmax)
  for (int i = 0; i < N; i++) {
    double x = i * 0.5 - 3.0;
    dsum += x;
    dmax = x > dmax ? x : dmax;
  }
  printf("double: sum=%.1f max=%.1f\n", dsum, dmax);

  /* reduction on the teams construct, distribute inside: each team adds partial sums */
  long tsum = 0;
#pragma omp target teams num_teams(8) reduction(+: tsum) map(tofrom: tsum)
  {
#pragma omp distribute
    for (int i = 0; i < 1000; i++) tsum += i;
  }
  printf("teams reduction: %ld\n", tsum);

  /* team-level reduction inside a distribute iteration (row sums) and a sum across teams */
  static double rows[64];
  double grand = 0.0;
#pragma omp target teams distribute num_teams(16) map(from: rows) map(tofrom: grand) reduction(+: grand)
  for (int r = 0; r < 64; r++) {
    double rs = 0.0;
#pragma omp parallel for reduction(+: rs)
    for (int c = 0; c < 256; c++) rs += (double)((r * c) % 17);
    rows[r] = rs;
    grand += rs;
  }
  printf("row sums: rows[0]=%.0f rows[1]=%.0f rows[63]=%.0f grand=%.0f\n", rows[0], rows[1], rows[63], grand);

  /* reduction on a parallel region (not a loop) inside target */
  int thread_sum = 0, nthreads = 0;
#pragma omp target parallel num_threads(16) reduction(+: thread_sum, nthreads) map(tofrom: thread_sum, nthreads)
  {
    thread_sum += 5;
    nthreads += 1;
  }
  printf("parallel reduction consistent=%d\n", thread_sum == 5 * nthreads && nthreads >= 1);

  /* references */
  long rl = 0;
  unsigned ru = 0, rp = 1, rx = 0;
  for (int i = 0; i < N; i++) {
    rl += (long)i * 1000003L;
    unsigned h = (unsigned)i * 2654435761u;
    ru += h;
    rp *= (h | 1u);
    rx ^= h;
  }
  double rg = 0.0;
  for (int r = 0; r < 64; r++)
    for (int c = 0; c < 256; c++) rg += (r * c) % 17;
  int pass = rl == lsum && ru == usum && rp == uprod && rx == uxor && fsum == 40 * 2950.0f && fmin == -20.0f &&
             tsum == 499500 && rg == grand && dmax == 9996.5;
  printf("%s\n", pass ? "PASS" : "FAIL");
  return 0;
}
