// expect-error: 4:*: reduction
int main(void) {
  double q = 1.0;
#pragma omp target teams distribute parallel for reduction(/: q) map(tofrom: q)
  for (int i = 1; i < 10; i++) q /= i;
  return q > 1.0;
}
