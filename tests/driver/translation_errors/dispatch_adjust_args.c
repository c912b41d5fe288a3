// expect-error: 3:*: 'q' in adjust_args is not a parameter of 'f'
void f_dev(int *p) { (void)p; }
#pragma omp declare variant(f_dev) match(construct={dispatch}) adjust_args(need_device_ptr: q)
void f(int *p) { (void)p; }
int main(void) {
  int a[4];
#pragma omp dispatch
  f(a);
  return 0;
}
