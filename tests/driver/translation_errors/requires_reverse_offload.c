// expect-error: 2:39: 'requires reverse_offload' is not supported yet
#pragma omp requires unified_address, reverse_offload
int main(void) {
  int x = 0;
  #pragma omp target map(tofrom: x)
  x = 1;
  return x - 1;
}
