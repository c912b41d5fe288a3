// expect-error: 4:13: the 'tile' construct (OpenMP 5.1) is not supported yet
int main(void) {
  int t[8][8];
#pragma omp parallel for
#pragma omp tile sizes(4, 4)
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 8; j++) t[i][j] = i;
  return t[1][1];
}
