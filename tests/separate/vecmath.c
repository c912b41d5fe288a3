/* A library of device functions and a device variable: compiled with `ompgpu cc -c`, archived with `ar`. */
#pragma omp declare target
double scale(double x) { return 2.0 * x + 1.0; }
static int helper(int k) { return k * k; }
int squared_plus(int k, int add) { return helper(k) + add; }
#pragma omp end declare target

/* A host function of the library with a target region of its own (and a critical section). */
int lib_sum(int n) {
  int s = 0;
#pragma omp target teams distribute parallel for map(tofrom: s)
  for (int i = 0; i < n; i++) {
#pragma omp critical
    s += i;
  }
  return s;
}
