// expect-error: 8:21: syntax error
int main(void) {
  int a[16], b[16];
  for (int i = 0; i < 16; i++) b[i] = i;
#pragma omp target map(to: b) map(from: a)
  {
    for (int i = 0; i < 16; i++) {
      a[i] = b[i] + ;
    }
  }
  return a[0];
}
