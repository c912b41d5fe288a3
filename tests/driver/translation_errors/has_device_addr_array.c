// expect-error: 5:38: has_device_addr of 'a', which is not a pointer, is not supported yet
int main(void) {
  int a[8], out = 0;
  /* passed by value, the region would write a private copy of a */
  #pragma omp target has_device_addr(a) map(from: out)
  { a[3] = 42; out = a[7]; }
  return out;
}
