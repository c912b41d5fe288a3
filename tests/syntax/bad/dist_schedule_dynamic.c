// expect-error: 4:*: schedule
int main(void) {
  int a[100];
#pragma omp target teams distribute dist_schedule(dynamic, 4) map(from: a)
  for (int i = 0; i < 100; i++) a[i] = i;
  return 0;
}
