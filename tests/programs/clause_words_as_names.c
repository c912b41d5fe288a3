/* covers: variables named like OpenMP clause and modifier words (device_num, always, present, close, to, from, alloc, simd, teams, tofrom, release, delete, target, ...) in device, map, if, num_teams, thread_limit, array-section bounds and map lists, and used in device code */
#include <stdio.h>

int main(void) {
  int device_num = 0, always = 1, present = 2, close = 3, to = 4, from = 5, alloc = 6, simd = 7, teams = 8;
  int tofrom = 9, release = 10, delete = 11, mapper = 12, iterator = 13, none = 14, shared = 15, target = 16;
  int a[4] = {0, 0, 0, 0};
#pragma omp target device(device_num) map(tofrom: a[always:present]) map(to: close, to, from, alloc, simd, teams)
  {
    a[1] = close + to + from;
    a[2] = alloc + simd + teams;
  }
#pragma omp target map(always, tofrom: tofrom) map(to: release, delete, mapper, iterator, none, shared, target) if(target)
  tofrom += release + delete + mapper + iterator + none + shared + target;
#pragma omp target teams distribute parallel for num_teams(to) thread_limit(from * 32) map(a) device(device_num)
  for (int i = 0; i < 4; i++) a[i] += always;
#pragma omp target update to(always) if(present)
#pragma omp target map(present) map(from: close)
  close = present * 2;
  printf("%d %d %d %d tofrom=%d close=%d\n", a[0], a[1], a[2], a[3], tofrom, close);
  printf("%s\n", a[0] == 1 && a[1] == 13 && a[2] == 22 && a[3] == 1 && tofrom == 100 && close == 4 ? "PASS" : "FAIL");
  return 0;
}
