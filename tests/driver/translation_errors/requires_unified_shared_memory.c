// expect-error: 3:22: 'requires unified_shared_memory' is not supported yet
/* an implementation must reject a requirement it does not meet */
#pragma omp requires unified_shared_memory
int main(void) {
  int x = 0;
  #pragma omp target map(tofrom: x)
  x = 1;
  return x - 1;
}
