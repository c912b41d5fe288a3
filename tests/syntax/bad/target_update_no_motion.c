// expect-error: 8:*: target update
int main(void) {
  double a[64] = {0};
#pragma omp target data map(tofrom: a)
  {
#pragma omp target
    a[0] = 1.0;
#pragma omp target update
  }
  return 0;
}
