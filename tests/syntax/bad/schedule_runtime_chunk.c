// expect-error: 5:*: schedule
int main(void) {
  int a[100];
#pragma omp target map(from: a)
#pragma omp parallel for schedule(runtime, 4)
  for (int i = 0; i < 100; i++) a[i] = i;
  return 0;
}
