// expect-error: 4:*: context selector 'construct={parallel}' is not supported yet
double f_par(double x) { return x; }

#pragma omp declare variant(f_par) match(construct={parallel})
double f(double x) { return x + 1; }
int main(void) {
  double y = 0;
  #pragma omp target map(tofrom: y)
  y = f(y);
  return (int)y;
}
