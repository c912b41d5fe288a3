/* covers: declare variant with construct selectors (OpenMP 5.0/5.1): begin/end declare variant blocks with construct={parallel} and construct={target}, chosen where each call stands on the host and on the device (a call in a parallel region, in a target region, in target parallel where the inner construct scores higher, in a combined target teams distribute parallel for, in a declare target function); a declare variant directive with construct={teams, parallel} */
#include <omp.h>
#include <stdio.h>

#define N 256

int arr[N];

void fill(int *a) {
  for (int i = 0; i < N; i++) a[i] = i + 1;
}

#pragma omp begin declare variant match(construct = {parallel})
void fill(int *a) {
#pragma omp for
  for (int i = 0; i < N; i++) a[i] = i + 2;
}
#pragma omp end declare variant

#pragma omp begin declare variant match(construct = {target})
void fill(int *a) {
  for (int i = 0; i < N; i++) a[i] = i + 3;
}
#pragma omp end declare variant

int tag_in_teams_parallel(int x) { return 1000 + x; }

#pragma omp declare variant(tag_in_teams_parallel) match(construct = {teams, parallel})
int tag(int x) { return x; }

#pragma omp declare target
int tag_from_device_function(int x) { return tag(x); } /* device: target only */
#pragma omp end declare target

static int check(const char *what, int offset) {
  int bad = 0;
  for (int i = 0; i < N; i++) bad += arr[i] != i + offset;
  printf("%s: %s\n", what, bad ? "WRONG" : "ok");
  return bad;
}

int main(void) {
  int bad = 0, tags[N], plain[N], via_function = -1;
  fill(arr);
  bad += check("base on the host", 1);
#pragma omp parallel
  fill(arr);
  bad += check("parallel variant on the host", 2);
#pragma omp target map(tofrom: arr)
  fill(arr);
  bad += check("target variant on the device", 3);
#pragma omp target parallel map(tofrom: arr)
  fill(arr);
  bad += check("parallel variant in target parallel", 2);
#pragma omp target teams distribute parallel for map(from: tags)
  for (int i = 0; i < N; i++) tags[i] = tag(i);
#pragma omp target teams distribute map(from: plain)
  for (int i = 0; i < N; i++) plain[i] = tag(i);
#pragma omp target map(from: via_function)
  via_function = tag_from_device_function(7);
  int tags_ok = 1, plain_ok = 1;
  for (int i = 0; i < N; i++) {
    tags_ok &= tags[i] == 1000 + i;
    plain_ok &= plain[i] == i;
  }
  printf("teams parallel variant in target teams distribute parallel for: %s\n", tags_ok ? "ok" : "WRONG");
  printf("base in target teams distribute: %s\n", plain_ok ? "ok" : "WRONG");
  printf("base in a declare target function: %d\n", via_function);
  printf("host call: %d\n", tag(5));
  printf("%s\n", !bad && tags_ok && plain_ok && via_function == 7 && tag(5) == 5 ? "PASS" : "FAIL");
  return 0;
}
