// expect-error: 5:50: the 'align' modifier of 'allocate' in device code is not supported yet
int main(void) {
  int s = 0, r = 0;
  #pragma omp target map(tofrom: r)
  #pragma omp parallel num_threads(4) private(s) allocate(align(64): s)
  { s = 1; r = s; }
  return r;
}
