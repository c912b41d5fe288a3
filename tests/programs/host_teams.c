/* covers: OpenMP 5.0 teams on the host (outside any target region, handed to the host OpenMP runtime): teams +
   distribute, combined teams distribute parallel for, omp_get_num_teams inside host teams; a target region
   after them still runs on the device. Only results that do not depend on the team count are printed. */
#include <omp.h>
#include <stdio.h>

int main(void) {
  int a[64], b[64], hit[4] = {0, 0, 0, 0}, dev[8];
#pragma omp teams num_teams(4)
  {
    if (omp_get_team_num() < 4) hit[omp_get_team_num()] = omp_get_num_teams() <= 4;
#pragma omp distribute
    for (int i = 0; i < 64; i++) a[i] = i * 3;
  }
#pragma omp teams distribute parallel for num_teams(2)
  for (int i = 0; i < 64; i++) b[i] = a[i] + 1;
  long sum = 0;
  for (int i = 0; i < 64; i++) sum += b[i];
  printf("host teams: a[63]=%d sum=%ld at most 4 teams: %d\n", a[63], sum, hit[0]);
#pragma omp target map(from: dev)
  for (int i = 0; i < 8; i++) dev[i] = i * i;
  printf("target after host teams: %d %d\n", dev[3], dev[7]);
  return 0;
}
