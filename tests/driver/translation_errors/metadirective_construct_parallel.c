// expect-error: 6:*: context selector 'construct={parallel}' in a metadirective is not supported yet
int main(void) {
  int y = 0;
  #pragma omp parallel
  {
    #pragma omp metadirective when(construct={parallel}: atomic) default(critical)
    y += 1;
  }
  return y > 0 ? 0 : 1;
}
