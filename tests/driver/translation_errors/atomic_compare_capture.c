// expect-error: 6:17: 'atomic compare capture' is not supported yet
int main(void) {
  int x = 0, v = 0;
  #pragma omp target map(tofrom: x, v)
  {
    #pragma omp atomic compare capture
    { v = x; if (x < 5) { x = 5; } }
  }
  return x + v;
}
