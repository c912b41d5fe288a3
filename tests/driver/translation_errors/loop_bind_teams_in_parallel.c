// expect-error: 8:*: bind(teams) must be closely nested in a 'teams' region
int main(void) {
  int a[64];
#pragma omp target teams map(from: a)
  {
#pragma omp parallel
    {
#pragma omp loop bind(teams)
      for (int i = 0; i < 64; i++) a[i] = i;
    }
  }
  return a[0];
}
