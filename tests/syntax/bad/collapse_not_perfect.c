// expect-error: 5:*: collapse
int main(void) {
  static double g[32][32];
  double rowsum[32];
#pragma omp target teams distribute parallel for collapse(2) map(tofrom: g, rowsum)
  for (int i = 0; i < 32; i++) {
    for (int k = 0; k < 4; k++) rowsum[i] = k;
    for (int j = 0; j < 32; j++) g[i][j] = i - j;
  }
  return 0;
}
