// expect-error: 4:35: array section with a stride ('a[0:5:2]') in clause 'map' is not supported yet
int main(void) {
  int a[10] = {0};
  #pragma omp target map(tofrom: a[0:5:2])
  { a[2] = 1; }
  return a[2];
}
