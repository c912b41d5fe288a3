// expect-error: 8:*: must be followed by a for loop
int main(void) {
  int a[64];
  int i = 0;
#pragma omp target map(from: a)
#pragma omp parallel
  {
#pragma omp for
    while (i < 64) {
      a[i] = i;
      i++;
    }
  }
  return 0;
}
