// expect-error: 6:*: defaultmap(none: scalar) requires
int main(void) {
  int n = 4, used = 0;
  int a[4] = {0};
  /* n is a scalar the region uses, and defaultmap(none: scalar) makes listing it compulsory */
#pragma omp target defaultmap(none: scalar) map(tofrom: a)
  for (int i = 0; i < n; i++) a[i] = i;
  return used + a[0];
}
