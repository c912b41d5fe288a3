// expect-error: 7:*: closely nested
int main(void) {
  int a[64];
#pragma omp target map(from: a)
#pragma omp parallel
  {
#pragma omp distribute
    for (int i = 0; i < 64; i++) a[i] = i;
  }
  return 0;
}
