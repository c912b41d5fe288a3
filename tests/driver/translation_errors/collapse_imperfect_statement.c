// expect-error: 4:52: collapse of an imperfectly nested loop nest with a loop between the loops (line 7) is not supported yet
int main(void) {
  int a[16][16], count = 0;
  #pragma omp target teams distribute parallel for collapse(2) map(from: a) map(tofrom: count)
  for (int i = 0; i < 16; i++) {
    /* intervening code may not hold a loop (OpenMP 5.0); statements and declarations move into the innermost body */
    while (count < i) count++;
    for (int j = 0; j < 16; j++) a[i][j] = i + j;
  }
  return a[3][4];
}
