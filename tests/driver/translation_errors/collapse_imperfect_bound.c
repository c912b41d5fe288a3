// expect-error: 4:52: collapse of a loop nest whose inner loop's bounds use 'n', declared or assigned between the loops, is not supported yet
int main(void) {
  int a[16][16];
  #pragma omp target teams distribute parallel for collapse(2) map(from: a)
  for (int i = 0; i < 16; i++) {
    int n = i + 1;
    for (int j = 0; j < n; j++) a[i][j] = i + j;
  }
  return a[3][2];
}
