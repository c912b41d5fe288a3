/* covers: variable-length array objects in device code (C99): in a target region's serial code shared by a parallel loop, in every iteration of a teams loop, two-dimensional, in a declare target function, sizeof of them, leaving their blocks by return, break and continue in loops that run many times */
#include <stdio.h>

#pragma omp declare target
/* the sum of k*i for i < n, through a VLA; returns early for k < 0 */
double weighted(int n, int k) {
  double w[n];
  for (int i = 0; i < n; ++i) w[i] = (double)i * k;
  if (k < 0) return -1;
  double s = 0;
  for (int i = 0; i < n; ++i) s += w[i];
  return s + (double)(sizeof(w) / sizeof(w[0])) - n;   /* sizeof is the array's */
}
#pragma omp end declare target

int main(void) {
  int n = 37, m = 5, failures = 0;

  /* a VLA of the region's serial code, filled and read by a parallel loop */
  long total = 0;
  int size_ok = 0;
  #pragma omp target map(from: total, size_ok) firstprivate(n, m)
  {
    int values[n];
    int grid[m][n];
    size_ok = sizeof(values) == n * sizeof(int) && sizeof(grid) == (unsigned long)(m * n) * sizeof(int);
    #pragma omp parallel for
    for (int i = 0; i < n; ++i) {
      values[i] = i;
      for (int a = 0; a < m; ++a) grid[a][i] = a * 1000 + i;
    }
    long s = 0;
    #pragma omp parallel for reduction(+: s)
    for (int i = 0; i < n; ++i) s += values[i] + grid[m - 1][i];
    total = s;
  }
  long want = 0;
  for (int i = 0; i < n; ++i) want += i + (m - 1) * 1000 + i;
  printf("serial-code VLA shared by parallel loops: %s, sizeof: %s\n", total == want ? "ok" : "WRONG",
         size_ok ? "ok" : "WRONG");
  failures += total != want || !size_ok;

  /* a VLA in every iteration of a teams loop; blocks left by break and continue, many times */
  double out[64];
  #pragma omp target teams distribute parallel for map(from: out) firstprivate(n)
  for (int k = 0; k < 64; ++k) {
    double row[n];
    for (int i = 0; i < n; ++i) {
      if (i % 2) { row[i] = 0; continue; }
      row[i] = i * k;
    }
    double extra = 0;
    for (int rep = 0; rep < 3000; ++rep) {   /* 1501 VLAs, each freed as its block ends */
      double scratch[n];
      scratch[n - 1] = rep;
      if (rep == 1500) break;
      if (rep % 2) continue;
      extra += scratch[n - 1] > 1499 ? 1 : 0;
    }
    out[k] = row[n - 1] + weighted(n, k) + weighted(n, -1) + extra;
  }
  int bad = 0;
  for (int k = 0; k < 64; ++k) {
    /* row[n-1] (n-1 is even) + weighted(n, k) + weighted(n, -1) + extra (no scratch value
       reaches 1500: rep 1500 breaks first) */
    double want_k = (double)(n - 1) * k + (double)k * n * (n - 1) / 2 - 1 + 0;
    bad += out[k] != want_k;
  }
  printf("VLAs in a teams loop and a declare target function: %s\n", bad ? "WRONG" : "ok");
  failures += bad != 0;

  printf("%s\n", failures ? "FAIL" : "PASS");
  return failures != 0;
}
