// expect-error: 8:*: ordered
int main(void) {
  int trace[64];
  int pos = 0;
#pragma omp target map(from: trace) map(tofrom: pos)
#pragma omp parallel for
  for (int i = 0; i < 64; i++) {
#pragma omp ordered
    trace[pos++] = i;
  }
  return 0;
}
