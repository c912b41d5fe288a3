// expect-error: 4:34: the argument of 'indirect' must be a constant
int f(void) { return 1; }
int on = 1;
#pragma omp declare target to(f) indirect(on)
int main(void) {
  int (*fp)(void) = f, r = 0;
#pragma omp target map(from: r)
  r = fp();
  return r;
}
