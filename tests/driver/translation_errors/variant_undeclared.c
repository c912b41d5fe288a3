// expect-error: 2:*: variant function 'f_missing' of declare variant is not declared
#pragma omp declare variant(f_missing) match(device={kind(gpu)})
double f(double x) { return x + 1; }
int main(void) {
  double y = 0;
  #pragma omp target map(tofrom: y)
  y = f(y);
  return (int)y;
}
