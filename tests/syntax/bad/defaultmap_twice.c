// expect-error: 4:*: more than one defaultmap clause for the scalar category
int main(void) {
  int x = 1;
#pragma omp target defaultmap(tofrom: scalar) defaultmap(to)
  x++;
  return x;
}
