/* covers: C standard headers with offload code: stdio, stdlib (qsort, abs, div), math, string (memcpy/memset/strlen in host code, memcpy-free device code), stdint (fixed-width types on the device: int8_t uint16_t int32_t uint64_t), stdbool, sys/time (gettimeofday timing, not printed), limits, omp.h */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <stdint.h>
#include <stdbool.h>
#include <limits.h>
#include <sys/time.h>
#include <omp.h>

#define N 1000

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

int main(void) {
  struct timeval t0, t1;
  gettimeofday(&t0, NULL);
  double w0 = omp_get_wtime();

  uint64_t *h = malloc(N * sizeof *h);
  int8_t small[N];
  uint16_t mid[N];
  int32_t signed32[N];
  bool odd[N];
  for (int i = 0; i < N; i++) {
    small[i] = (int8_t)(i % 256 - 128);
    mid[i] = (uint16_t)(i * 97);
  }

#pragma omp target teams distribute parallel for map(to: small, mid) map(from: h[0:N], signed32, odd)
  for (int i = 0; i < N; i++) {
    uint64_t x = (uint64_t)i * 0x9E3779B97F4A7C15ull;
    x ^= x >> 29;
    h[i] = x;
    signed32[i] = (int32_t)small[i] * (int32_t)mid[i];
    odd[i] = (mid[i] & 1u) != 0;
  }
  qsort(h, N, sizeof *h, cmp_u64);
  int sorted_distinct = 1;
  for (int i = 1; i < N; i++)
    if (h[i] <= h[i - 1]) sorted_distinct = 0;
  int64_t ssum = 0;
  int nodd = 0;
  for (int i = 0; i < N; i++) {
    ssum += signed32[i];
    nodd += odd[i];
  }
  printf("uint64 hashes sorted and distinct=%d min=%llu\n", sorted_distinct, (unsigned long long)h[0]);
  printf("int8*uint16 sum=%lld odd=%d\n", (long long)ssum, nodd);

  /* string.h on the host around a device computation */
  char msg[64];
  const char *text = "offload test";
  size_t len = strlen(text);
  memset(msg, 0, sizeof msg);
  memcpy(msg, text, len);
  int codes[64];
  int mlen = (int)len;
#pragma omp target map(to: msg) map(from: codes) firstprivate(mlen)
  for (int i = 0; i < 64; i++) codes[i] = i < mlen ? msg[i] - 'a' : -1;
  int csum = 0;
  for (int i = 0; i < mlen; i++) csum += codes[i];
  printf("string: len=%zu code sum=%d codes[63]=%d\n", len, csum, codes[63]);

  /* stdlib abs/div and limits on the device */
  int absum = 0, q = 0, r = 0;
  int imax = INT_MAX;
#pragma omp target map(tofrom: absum, q, r) firstprivate(imax)
  {
    for (int i = -10; i <= 10; i++) absum += abs(i);
    q = imax / 1000;
    r = imax % 1000;
  }
  div_t dv = div(INT_MAX, 1000);
  printf("abs sum=%d INT_MAX/1000=%d rem=%d host div agrees=%d\n", absum, q, r, dv.quot == q && dv.rem == r);

  gettimeofday(&t1, NULL);
  double elapsed = (t1.tv_sec - t0.tv_sec) + (t1.tv_usec - t0.tv_usec) * 1e-6;
  double welapsed = omp_get_wtime() - w0;
  printf("timers non-negative=%d\n", elapsed >= 0.0 && welapsed >= 0.0 && !isnan(welapsed));
  printf("%s\n", sorted_distinct && absum == 110 && nodd == 500 ? "PASS" : "FAIL");
  free(h);
  return 0;
}
