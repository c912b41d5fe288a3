// expect-error: 5:15: takes a different variant on the GPU than on the host, and 'fill' runs on both
/* fill runs on the host and, called from the target region, on the GPU: it would need both */
void fill(int n, int *a) {
  #pragma omp parallel
  #pragma omp metadirective when(device={kind(gpu)}: for) default(single)
  for (int i = 0; i < n; i++) a[i] = i;
}
int main(void) {
  int a[8];
  #pragma omp target map(from: a)
  fill(8, a);
  fill(8, a);
  return a[7] - 7;
}
