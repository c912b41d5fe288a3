// expect-error: 5:28: the 'ref' modifier of 'linear' is allowed only on 'declare simd'
int main(void) {
  int j = 0, a[10];
  #pragma omp target map(from: a)
  #pragma omp parallel for linear(ref(j): 1)
  for (int i = 0; i < 10; i++) { a[i] = j; j++; }
  return a[9];
}
