// expect-error: 9:*: closely nested
int main(void) {
  static int m[8][8];
#pragma omp target map(from: m)
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < 8; i++) {
#pragma omp for
      for (int j = 0; j < 8; j++) m[i][j] = i * 8 + j;
    }
  }
  return 0;
}
