// expect-error: 7:42: linear pointer 'p' on a combined target construct is not supported yet
int main(void) {
  int c[10];
  int *p = c;
  /* mapped tofrom as the combined construct asks, p would start at the host's address and end
     holding a device address */
  #pragma omp target parallel for linear(p) map(tofrom: c)
  for (int i = 0; i < 10; i++) { *p = i; p++; }
  return c[9];
}
