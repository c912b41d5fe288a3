/* schedule and dist_schedule in all forms, with modifiers, constant and variable chunk sizes, on standalone and combined constructs */
#include <stdio.h>

#define CHUNK 8

void schedules(int *a, int n, int chunk) {
#pragma omp target map(tofrom: a[0:n]) firstprivate(chunk)
#pragma omp parallel
  {
#pragma omp for schedule(static)
    for (int i = 0; i < n; i++) a[i] += 1;
#pragma omp for schedule(static, 4)
    for (int i = 0; i < n; i++) a[i] += 1;
#pragma omp for schedule(static, chunk)
    for (int i = 0; i < n; i++) a[i] += 1;
#pragma omp for schedule(dynamic)
    for (int i = 0; i < n; i++) a[i] += 1;
#pragma omp for schedule(dynamic, CHUNK)
    for (int i = 0; i < n; i++) a[i] += 1;
#pragma omp for schedule(dynamic, chunk * 2)
    for (int i = 0; i < n; i++) a[i] += 1;
#pragma omp for schedule(guided)
    for (int i = 0; i < n; i++) a[i] += 1;
#pragma omp for schedule(guided, 16)
    for (int i = 0; i < n; i++) a[i] += 1;
#pragma omp for schedule(auto)
    for (int i = 0; i < n; i++) a[i] += 1;
#pragma omp for schedule(runtime)
    for (int i = 0; i < n; i++) a[i] += 1;
#pragma omp for schedule(monotonic: static, 2)
    for (int i = 0; i < n; i++) a[i] += 1;
#pragma omp for schedule(nonmonotonic: dynamic, 4)
    for (int i = 0; i < n; i++) a[i] += 1;
#pragma omp for schedule(monotonic: dynamic)
    for (int i = 0; i < n; i++) a[i] += 1;
#pragma omp for schedule(simd: static, 5)
    for (int i = 0; i < n; i++) a[i] += 1;
  }

#pragma omp target teams distribute dist_schedule(static) map(tofrom: a[0:n])
  for (int i = 0; i < n; i++) a[i] += 1;
#pragma omp target teams distribute dist_schedule(static, 32) map(tofrom: a[0:n])
  for (int i = 0; i < n; i++) a[i] += 1;
#pragma omp target teams distribute parallel for dist_schedule(static, chunk) schedule(static, 1) map(tofrom: a[0:n])
  for (int i = 0; i < n; i++) a[i] += 1;
#pragma omp target teams distribute parallel for schedule(dynamic, 2) map(tofrom: a[0:n])
  for (int i = 0; i < n; i++) a[i] += 1;
#pragma omp target parallel for schedule(guided) num_threads(64) map(tofrom: a[0:n])
  for (int i = 0; i < n; i++) a[i] += 1;
}

int main(void) {
  int a[1000] = {0};
  schedules(a, 1000, 3);
  printf("%d\n", a[999]);
  return 0;
}
