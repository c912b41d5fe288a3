// expect-error: 4:13: OpenMP directive 'declare mapper' is not supported by ompgpu
typedef struct { int n; double *p; } vec;
/* a default mapper would change every map of a vec: ignoring it would be silently wrong */
#pragma omp declare mapper(vec v) map(v, v.p[0:v.n])
int main(void) {
  double d[4] = {1, 2, 3, 4};
  vec v = {4, d};
  #pragma omp target map(tofrom: v)
  v.n = 3;
  return v.n;
}
