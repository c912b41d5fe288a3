// expect-error: 6:35: is not contiguous
/* One row picked by a single subscript, then a run of two rows with part of each. */
int main(void) {
  double a[4][8][5];
  a[2][3][1] = 0;
  #pragma omp target map(a[2][3:2][1:3])
  a[2][3][1] = 1;
  return (int)a[2][3][1];
}
