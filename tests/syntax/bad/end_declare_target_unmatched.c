// expect-error: 3:*: declare target
static double cube(double x) { return x * x * x; }
#pragma omp end declare target

int main(void) {
  double r = cube(2.0);
  return r != 8.0;
}
