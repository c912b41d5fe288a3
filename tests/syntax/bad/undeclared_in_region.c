// expect-error: 5:43: undeclared
int main(void) {
  int a[32];
#pragma omp target map(from: a)
  for (int i = 0; i < 32; i++) a[i] = i * scale;
  return 0;
}
