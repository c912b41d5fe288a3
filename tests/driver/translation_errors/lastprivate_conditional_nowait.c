// expect-error: 7:28: 'lastprivate(conditional: ...)' with 'nowait' in device code is not supported yet
int main(void) {
  int a[16], last = -1;
  for (int i = 0; i < 16; i++) a[i] = (i == 6 || i == 9) ? 0 : 1;
  #pragma omp target parallel map(to: a) map(tofrom: last)
  {
    #pragma omp for nowait lastprivate(conditional: last)
    for (int i = 0; i < 16; i++)
      if (a[i] == 0) last = i;
  }
  return last;
}
