// expect-error: 10:*: closely nested
int main(void) {
  int a[64];
#pragma omp target map(from: a)
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < 64; i++) {
      a[i] = i;
#pragma omp barrier
    }
  }
  return 0;
}
