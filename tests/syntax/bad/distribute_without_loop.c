// expect-error: 4:*: must be followed by a for loop
int main(void) {
  int a[64];
#pragma omp target teams distribute map(from: a)
  {
    for (int i = 0; i < 64; i++) a[i] = i;
  }
  return 0;
}
