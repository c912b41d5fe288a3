// expect-error: 9:*: a goto in a block of device code with a variable-length array is not supported yet
int main(int argc, char **argv) {
  int n = 4 + argc, r = 0;
#pragma omp target map(tofrom: r)
  {
    int tmp[n];
    for (int i = 0; i < n; i++) tmp[i] = i;
    r = tmp[n - 1];
    if (r > 3) goto done;
    r = 0;
  done:;
  }
  return r;
}
