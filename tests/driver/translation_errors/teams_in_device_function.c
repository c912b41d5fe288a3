// expect-error: 4:*: 'teams' construct in a function called from a target region
/* host teams (OpenMP 5.0) are fine in host code, but this function is also device code */
void fill(int *a) {
#pragma omp teams num_teams(2)
#pragma omp distribute
  for (int i = 0; i < 8; i++) a[i] = i;
}
int main(void) {
  int a[8];
#pragma omp target map(tofrom: a)
  fill(a);
  return a[7];
}
