// expect-error: 4:*: positive integer constant
int main(void) {
  static int m[16][16];
#pragma omp target teams distribute parallel for collapse(0) map(from: m)
  for (int i = 0; i < 16; i++)
    for (int j = 0; j < 16; j++) m[i][j] = i + j;
  return m[1][1] != 2;
}
