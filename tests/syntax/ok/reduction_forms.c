/* reduction clauses: every operator, several variables per clause, several clauses, array sections and whole arrays, on parallel, for, teams, distribute-combined, simd, sections, target parallel */
#include <stdio.h>
#include <stdbool.h>

#define N 256

int main(void) {
  int isum = 0, iprod = 1, imin = 1 << 30, imax = -(1 << 30), band = ~0, bor = 0, bxor = 0, land = 1, lor = 0;
  long lsum = 0;
  unsigned usum = 0u;
  float fsum = 0.0f, fmax_ = -1e30f;
  double dsum = 0.0, dmin = 1e300;
  bool ball = true;
  int hist[8] = {0};
  long arr[16] = {0};
  int diff = 0;

#pragma omp target teams distribute parallel for reduction(+: isum, lsum, usum, fsum, dsum) reduction(*: iprod) \
    reduction(min: imin, dmin) reduction(max: imax, fmax_) reduction(&: band) reduction(|: bor) reduction(^: bxor) \
    reduction(&&: land, ball) reduction(||: lor) reduction(-: diff) \
    map(tofrom: isum, lsum, usum, fsum, dsum, iprod, imin, dmin, imax, fmax_, band, bor, bxor, land, ball, lor, diff)
  for (int i = 0; i < N; i++) {
    isum += i;
    lsum += (long)i * i;
    usum += (unsigned)i;
    fsum += 1.0f;
    dsum += 0.5 * i;
    iprod *= (i % 64 == 0) ? 2 : 1;
    imin = i < imin ? i : imin;
    dmin = i * 1.0 < dmin ? i * 1.0 : dmin;
    imax = i > imax ? i : imax;
    fmax_ = (float)i > fmax_ ? (float)i : fmax_;
    band &= i | 1;
    bor |= i;
    bxor ^= i;
    land = land && i >= 0;
    ball = ball && i < N;
    lor = lor || i == 17;
    diff -= i;
  }

#pragma omp target teams distribute parallel for reduction(+: hist[0:8]) map(tofrom: hist)
  for (int i = 0; i < N; i++) hist[i % 8]++;

#pragma omp target parallel for reduction(+: arr) map(tofrom: arr)
  for (int i = 0; i < N; i++) arr[i % 16] += i;

#pragma omp target teams reduction(+: isum) num_teams(4) map(tofrom: isum)
  isum += 1;

#pragma omp target map(tofrom: isum, dsum)
#pragma omp parallel reduction(+: isum) reduction(max: dsum)
  {
#pragma omp sections reduction(+: isum)
    {
#pragma omp section
      isum += 1;
#pragma omp section
      isum += 2;
    }
#pragma omp simd reduction(+: isum)
    for (int i = 0; i < 8; i++) isum += i;
    dsum = dsum > 1.0 ? dsum : 1.0;
  }
  printf("%d %d %d %d %d %d %d %d %d %ld %u %f %f %f %f %d %d %d %ld\n", isum, iprod, imin, imax, band, bor, bxor, land, lor,
         lsum, usum, fsum, fmax_, dsum, dmin, ball, diff, hist[3], arr[5]);
  return 0;
}
