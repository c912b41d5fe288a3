// expect-error: 5:38: has_device_addr of 'x', which is neither a pointer nor an array, is not supported yet
int main(void) {
  int x = 0, out = 0;
  /* passed by value, the region would write a private copy of x */
  #pragma omp target has_device_addr(x) map(from: out)
  { x = 42; out = x; }
  return out;
}
