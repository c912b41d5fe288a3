// expect-error: 8:*: the statement of '#pragma omp dispatch' must be a call of a function
void f_dev(int *p) { (void)p; }
#pragma omp declare variant(f_dev) match(construct={dispatch})
void f(int *p) { (void)p; }
int main(void) {
  int a[4];
  int r = 0;
#pragma omp dispatch
  r += (f(a), 1);
  return r;
}
