// expect-error: 6:45: use_device_addr of 'x', which is not a pointer, is not supported yet
int main(void) {
  int x = 5, *p = 0;
  #pragma omp target data map(to: x)
  {
    #pragma omp target data use_device_addr(x)
    p = &x;   /* must be the device copy's address */
  }
  return p != 0;
}
