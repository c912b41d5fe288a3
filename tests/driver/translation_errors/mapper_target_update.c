// expect-error: 8:34: 'target update' of 'x', whose type has a declare mapper, is not supported yet
typedef struct { int len; double *data; } vec_t;
#pragma omp declare mapper(vec_t v) map(v, v.data[0:v.len])
int main(void) {
  double d[4] = {0};
  vec_t x = {4, d};
  #pragma omp target enter data map(to: x)
  #pragma omp target update from(x)
  #pragma omp target exit data map(release: x)
  return (int)d[0];
}
