// expect-error: 3:*: 'append_args' (interop objects passed to a variant) is not supported yet
void f_dev(int *p, void *interop) { (void)p; (void)interop; }
#pragma omp declare variant(f_dev) match(construct={dispatch}) append_args(interop(targetsync))
void f(int *p) { (void)p; }
int main(void) {
  int a[4];
#pragma omp dispatch
  f(a);
  return 0;
}
