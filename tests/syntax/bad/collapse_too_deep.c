// expect-error: 4:*: collapse
int main(void) {
  static double g[32][32];
#pragma omp target teams distribute parallel for collapse(3) map(tofrom: g)
  for (int i = 0; i < 32; i++)
    for (int j = 0; j < 32; j++) g[i][j] = 0.5 * (i + j);
  return 0;
}
