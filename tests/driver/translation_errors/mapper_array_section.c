// expect-error: 8:34: map of 'v[0:4]': a declare mapper for each element of an array section is not supported yet
typedef struct { int len; double *data; } vec_t;
#pragma omp declare mapper(vec_t v) map(v, v.data[0:v.len])
int main(void) {
  vec_t v[4];
  for (int i = 0; i < 4; i++) { v[i].len = 0; v[i].data = 0; }
  /* each element would need its own data mapped */
  #pragma omp target map(tofrom: v[0:4])
  { v[0].len = 1; }
  return v[0].len;
}
