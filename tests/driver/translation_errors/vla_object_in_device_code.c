// expect-error: 6:*: the variable-length array 'tmp' in device code is not supported yet
int main(int argc, char **argv) {
  int n = 4 + argc, r = 0;
#pragma omp target map(tofrom: r)
  {
    int tmp[n];
    for (int i = 0; i < n; i++) tmp[i] = i;
    r = tmp[n - 1];
  }
  return r;
}
