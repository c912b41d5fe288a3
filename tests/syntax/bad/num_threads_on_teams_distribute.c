// expect-error: 4:*: not allowed on
int main(void) {
  int a[512];
#pragma omp target teams distribute num_threads(64) map(from: a)
  for (int i = 0; i < 512; i++) a[i] = i;
  return a[3] != 3;
}
