/* a library whose function uses data the caller mapped */
void scale(int n, double *x, double a) {
  #pragma omp target teams distribute parallel for map(tofrom: x[0:n])
  for (int i = 0; i < n; i++) x[i] *= a;
}
