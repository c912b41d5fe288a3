// expect-error: 3:37: 'declare target indirect' is not supported yet
int f(void) { return 1; }
#pragma omp declare target enter(f) indirect
int main(void) {
  int (*fp)(void) = f, r = 0;
#pragma omp target map(from: r)
  r = fp();
  return r;
}
