// expect-error: 9:40: is not contiguous
/* Rows of a 2-D VLA mapped as a run of two rows with part of each: not contiguous storage
   (one row, or part of one row, is; tests/programs/section_rows.c maps those). */
int main(void) {
  int n = 4;
  int m[n][16];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < 16; j++) m[i][j] = 0;
  #pragma omp target map(tofrom: m[1:2][0:8])
  for (int j = 0; j < 8; j++) m[1][j] = j;
  return m[1][3];
}
