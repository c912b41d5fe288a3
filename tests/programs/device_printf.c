/* covers: printf on the device from serial code of a single-team target region, from a single construct, from team 0 after a reduction; fflush around target regions so host and device output interleave deterministically */
#include <stdio.h>
#include <omp.h>

int main(void) {
  int v[16];
  for (int i = 0; i < 16; i++) v[i] = i * 3;

  printf("host: before\n");
  fflush(stdout);

#pragma omp target map(to: v)
  {
    int s = 0;
    for (int i = 0; i < 16; i++) s += v[i];
    printf("device: serial sum=%d first=%d last=%d\n", s, v[0], v[15]);
  }
  fflush(stdout);

  printf("host: between\n");
  fflush(stdout);

#pragma omp target parallel num_threads(8) map(to: v)
  {
    int local = v[omp_get_thread_num() % 16];
    (void)local;
#pragma omp single
    printf("device: single says %s %d %.2f %c %ld\n", "hello", 42, 3.25, 'x', 1234567890123L);
  }
  fflush(stdout);

  int total = 0;
#pragma omp target teams num_teams(1) map(tofrom: total)
  {
#pragma omp parallel for reduction(+: total)
    for (int i = 1; i <= 100; i++) total += i;
    if (omp_get_team_num() == 0) printf("device: team 0 reduction=%d\n", total);
  }
  fflush(stdout);

  printf("host: after total=%d\n", total);
  printf("%s\n", total == 5050 ? "PASS" : "FAIL");
  return 0;
}
