/* covers: reduction with + * min max & | ^ && || on int inside target parallel for, on combined target teams distribute parallel for, and several reductions on one construct */
#include <stdio.h>

#define N 4096

int main(void) {
  static int v[N];
  for (int i = 0; i < N; i++) v[i] = (i * 2654435761u) % 1000 - 500;

  int sum = 0, mn = 1 << 30, mx = -(1 << 30);
#pragma omp target parallel for num_threads(32) reduction(+: sum) reduction(min: mn) reduction(max: mx) map(to: v) map(tofrom: sum, mn, mx)
  for (int i = 0; i < N; i++) {
    sum += v[i];
    if (v[i] < mn) mn = v[i];
    if (v[i] > mx) mx = v[i];
  }
  printf("parallel for: sum=%d min=%d max=%d\n", sum, mn, mx);

  /* product: only a few factors differ from 1 so it stays exact */
  int prod = 1;
#pragma omp target teams distribute parallel for reduction(*: prod) map(tofrom: prod)
  for (int i = 0; i < N; i++) prod *= (i % 512 == 3) ? 3 : ((i % 1024 == 5) ? -2 : 1);
  printf("product: %d\n", prod);

  /* bitwise: and of values with bit 0 forced, or of single bits, xor of all */
  int band = ~0, bor = 0, bxor = 0;
#pragma omp target teams distribute parallel for reduction(&: band) reduction(|: bor) reduction(^: bxor) map(tofrom: band, bor, bxor) map(to: v)
  for (int i = 0; i < N; i++) {
    band &= (v[i] | 0x1001);
    bor |= 1 << (i % 20);
    bxor ^= v[i];
  }
  printf("bitwise: and=%#x or=%#x xor=%d\n", band, bor, bxor);

  /* logical */
  int all_small = 1, any_big = 0, all_pos = 1, any_neg = 0;
#pragma omp target teams distribute parallel for reduction(&&: all_small, all_pos) reduction(||: any_big, any_neg) map(tofrom: all_small, any_big, all_pos, any_neg) map(to: v)
  for (int i = 0; i < N; i++) {
    all_small = all_small && (v[i] < 500);
    any_big = any_big || (v[i] > 498);
    all_pos = all_pos && (v[i] > 0);
    any_neg = any_neg || (v[i] < -1000);
  }
  printf("logical: all_small=%d any_big=%d all_pos=%d any_neg=%d\n", all_small, any_big, all_pos, any_neg);

  /* subtraction reduces like addition; initial value of the shared variable is kept */
  int diff = 1000000;
#pragma omp target teams distribute parallel for reduction(-: diff) map(tofrom: diff)
  for (int i = 0; i < N; i++) diff -= i % 10;
  printf("minus: %d\n", diff);

  /* host reference */
  int rs = 0, rmn = 1 << 30, rmx = -(1 << 30), rand_ = ~0, rxor = 0, rsmall = 1, rbig = 0;
  for (int i = 0; i < N; i++) {
    rs += v[i];
    if (v[i] < rmn) rmn = v[i];
    if (v[i] > rmx) rmx = v[i];
    rand_ &= (v[i] | 0x1001);
    rxor ^= v[i];
    rsmall = rsmall && v[i] < 500;
    rbig = rbig || v[i] > 498;
  }
  int pass = rs == sum && rmn == mn && rmx == mx && rand_ == band && rxor == bxor && bor == 0xfffff &&
             rsmall == all_small && rbig == any_big && !all_pos && !any_neg && prod == 3 * 3 * 3 * 3 * 3 * 3 * 3 * 3 * 16;
  printf("%s\n", pass ? "PASS" : "FAIL");
  return 0;
}
