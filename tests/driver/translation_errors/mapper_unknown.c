// expect-error: 6:45: no mapper 'other' is declared for the type of 'x'
typedef struct { int len; double *data; } vec_t;
#pragma omp declare mapper(vec_t v) map(v, v.data[0:v.len])
int main(void) {
  vec_t x = {0, 0};
  #pragma omp target map(mapper(other), to: x)
  { x.len = 1; }
  return x.len;
}
