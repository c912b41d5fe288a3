// expect-error: 5:*: defaultmap(tofrom: pointer)' is not supported yet
int main(void) {
  int a[4] = {0};
  int *p = a;
#pragma omp target defaultmap(tofrom: pointer) map(tofrom: a)
  p[0] = 1;
  return a[0];
}
