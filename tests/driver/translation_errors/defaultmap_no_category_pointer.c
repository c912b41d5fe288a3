// expect-error: 6:*: would map the pointer 'p' itself
int main(void) {
  int a[4] = {0};
  int *p = a;
  /* without a category the clause covers pointers too: p itself, not a[], would be mapped */
#pragma omp target defaultmap(tofrom) map(tofrom: a)
  p[0] = 1;
  return a[0];
}
