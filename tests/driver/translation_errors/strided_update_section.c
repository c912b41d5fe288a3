// expect-error: 8:41: array section with a stride ([lower:length:stride], OpenMP 5.0) is not supported yet
int main(void) {
  int a[10];
  for (int i = 0; i < 10; i++) a[i] = i;
  #pragma omp target data map(tofrom: a)
  {
    /* every other element: not supported yet, and not to be read as a[0:5] */
    #pragma omp target update from(a[0:5:2])
  }
  return a[2];
}
