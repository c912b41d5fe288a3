// expect-error: 7:*: sink
int main(void) {
  static double a[128];
#pragma omp target map(tofrom: a)
#pragma omp parallel for ordered(1)
  for (int i = 1; i < 128; i++) {
#pragma omp ordered depend(sink: i - 1)
    a[i] = a[i - 1] + 1.0;
#pragma omp ordered depend(source)
  }
  return 0;
}
