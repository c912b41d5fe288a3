// expect-error: 7:17: an inscan reduction with 'nowait' in device code is not supported yet
int main(void) {
  int a[64], b[64], x = 0;
  for (int i = 0; i < 64; i++) a[i] = i;
  #pragma omp target parallel map(to: a) map(from: b) map(tofrom: x)
  {
    #pragma omp for nowait reduction(inscan, +: x)
    for (int i = 0; i < 64; i++) {
      x += a[i];
      #pragma omp scan inclusive(x)
      b[i] = x;
    }
  }
  return b[63] - x;
}
