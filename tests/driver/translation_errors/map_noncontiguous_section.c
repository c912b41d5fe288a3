// expect-error: 5:38: map of 'b[1:4][0:2]': a section whose dimensions after its first range are not whole is not contiguous
int main(void) {
  int b[8][8] = {{0}};
  /* mapping rows 1..4 whole would copy back elements outside the section */
  #pragma omp target map(from: b[1:4][0:2])
  { b[1][0] = 1; }
  return b[1][0];
}
