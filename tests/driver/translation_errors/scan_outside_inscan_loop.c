// expect-error: 8:17: '#pragma omp scan' must be closely nested in a loop construct with a reduction with the inscan modifier
int main(void) {
  int a[64], b[64], x = 0;
  for (int i = 0; i < 64; i++) a[i] = i;
  #pragma omp target parallel for map(to: a) map(from: b) reduction(+: x)
  for (int i = 0; i < 64; i++) {
    x += a[i];
    #pragma omp scan inclusive(x)
    b[i] = x;
  }
  return b[63];
}
