// expect-error: 5:*: more than one
int main(void) {
  int count = 0;
#pragma omp target map(tofrom: count)
#pragma omp parallel num_threads(8) num_threads(16)
  {
#pragma omp atomic
    count++;
  }
  return count == 0;
}
