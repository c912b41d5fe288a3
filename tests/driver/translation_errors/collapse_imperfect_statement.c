// expect-error: 4:52: collapse of an imperfectly nested loop nest with a statement between the loops (line 7) is not supported yet
int main(void) {
  int a[16][16], count = 0;
  #pragma omp target teams distribute parallel for collapse(2) map(from: a) map(tofrom: count)
  for (int i = 0; i < 16; i++) {
    /* run once per outer iteration in C, any number of times under collapse: not moved */
    count++;
    for (int j = 0; j < 16; j++) a[i][j] = i + j;
  }
  return a[3][4];
}
