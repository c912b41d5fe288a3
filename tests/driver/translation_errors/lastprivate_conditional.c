// expect-error: 6:63: 'lastprivate(conditional: ...)' on '#pragma omp target teams distribute parallel for' in device code is not supported
int main(void) {
  int a[16], last = -1;
  for (int i = 0; i < 16; i++) a[i] = (i == 6 || i == 9) ? 0 : 1;
  /* OpenMP 5.2 forbids the conditional modifier on distribute */
  #pragma omp target teams distribute parallel for map(to: a) lastprivate(conditional: last)
  for (int i = 0; i < 16; i++)
    if (a[i] == 0) last = i;
  return last;
}
