// expect-error: 5:*: positive integer constant
int main(void) {
  static int m[16][16];
  int depth = 2;
#pragma omp target teams distribute parallel for collapse(depth) map(from: m)
  for (int i = 0; i < 16; i++)
    for (int j = 0; j < 16; j++) m[i][j] = i * j;
  return m[2][2] != 4;
}
