// expect-error: 5:*: a condition evaluated at run time is not supported yet
int use_fast;
double f_fast(double x) { return x; }

#pragma omp declare variant(f_fast) match(user={condition(use_fast)})
double f(double x) { return x + 1; }
int main(void) {
  double y = 0;
  #pragma omp target map(tofrom: y)
  y = f(y);
  return (int)y;
}
