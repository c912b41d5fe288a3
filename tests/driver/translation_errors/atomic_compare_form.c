// expect-error: 6:17: statement form of 'atomic compare' is not recognised
int main(void) {
  int x = 0, e = 3;
  #pragma omp target map(tofrom: x)
  {
    #pragma omp atomic compare
    x = e < x ? 5 : x;   /* the new value must be the compared one */
  }
  return x;
}
