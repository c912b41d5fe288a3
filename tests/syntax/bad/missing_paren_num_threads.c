// expect-error: 5:*: expected ')'
int main(void) {
  int hits = 0;
#pragma omp target map(tofrom: hits)
#pragma omp parallel num_threads(4 reduction(+: hits)
  hits += 1;
  return hits == 0;
}
