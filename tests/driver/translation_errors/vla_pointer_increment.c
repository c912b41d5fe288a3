// expect-error: 8:*: '++' on a pointer to a variable-length array is not supported yet
#pragma omp declare target
double walk(int n, double (*rows)[n]) {
  double s = 0;
  for (int i = 0; i < 2; i++) {
    s += rows[0][0];
    /* the next row: C scales by the row length, which the lowering does not do for ++ yet */
    rows++;
  }
  return s;
}
#pragma omp end declare target
int main(void) { return 0; }
