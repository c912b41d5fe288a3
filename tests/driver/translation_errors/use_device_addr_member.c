// expect-error: 7:45: use_device_addr of the struct member 's.v' is not supported yet
struct s_t { int v; };
int main(void) {
  struct s_t s = {5}; int *p = 0;
  #pragma omp target data map(to: s)
  {
    #pragma omp target data use_device_addr(s.v)
    p = &s.v;
  }
  return p != 0;
}
