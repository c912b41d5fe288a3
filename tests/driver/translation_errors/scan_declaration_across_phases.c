// expect-error: 10:17: 'twice', declared before '#pragma omp scan', is used after it: not supported yet in device code
int main(void) {
  int a[64], b[64], x = 0;
  for (int i = 0; i < 64; i++) a[i] = i;
  #pragma omp target map(to: a) map(from: b) map(tofrom: x)
  #pragma omp parallel for reduction(inscan, +: x)
  for (int i = 0; i < 64; i++) {
    int twice = 2 * a[i];
    x += twice;
    #pragma omp scan inclusive(x)
    b[i] = x + twice;
  }
  return b[63];
}
