/* covers: pointer attachment in target tasks: several target nowait regions each mapping its own struct's pointer-member section (map(tofrom: g[k].v[0:n]) through a copy of the struct), depend on the section, a second stage reading through the attached pointer, host reading after taskwait */
#include <stdio.h>
#include <stdlib.h>

#define G 5
#define N 300

struct grid {
  int n;
  double *v;
};

int main(void) {
  struct grid g[G];
  for (int k = 0; k < G; k++) {
    g[k].n = N;
    g[k].v = malloc(N * sizeof(double));
    for (int i = 0; i < N; i++) g[k].v[i] = k;
  }
#pragma omp parallel num_threads(4)
#pragma omp single
  {
    for (int k = 0; k < G; k++) {
      struct grid *gp = &g[k];
#pragma omp task firstprivate(gp)
      {
        struct grid s = *gp;
        int n = s.n;
#pragma omp target teams distribute parallel for map(to: s) map(tofrom: s.v[0:n])
        for (int i = 0; i < n; i++) s.v[i] += i;
#pragma omp target map(tofrom: s.v[0:n])
        {
          double t = 0;
          for (int i = 0; i < n; i++) t += s.v[i];
          s.v[0] = t;
        }
      }
    }
#pragma omp taskwait
  }
  int ok = 1;
  for (int k = 0; k < G; k++) {
    double want = (double)k * N + (double)N * (N - 1) / 2;
    printf("grid %d: total=%.1f\n", k, g[k].v[0]);
    ok &= g[k].v[0] == want && g[k].v[N - 1] == k + N - 1;
    free(g[k].v);
  }
  printf("%s\n", ok ? "PASS" : "FAIL");
  return 0;
}
