// expect-error: 4:*: more than one
int main(void) {
  static int m[16][16];
#pragma omp target teams distribute parallel for collapse(2) map(from: m) collapse(2)
  for (int i = 0; i < 16; i++)
    for (int j = 0; j < 16; j++) m[i][j] = i;
  return 0;
}
