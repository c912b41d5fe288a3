/* covers: target enter data nowait depend(out), target nowait on the present data depend(inout), target update from nowait depend(in), target update to nowait, target exit data nowait depend(inout), taskwait; reference counts of data mapped by target tasks */
#include <stdio.h>
#include <stdlib.h>

#define N 3000

int main(void) {
  double *v = malloc(N * sizeof *v);
  double *w = malloc(N * sizeof *w);
  for (int i = 0; i < N; i++) {
    v[i] = i;
    w[i] = 0;
  }
  double snap1 = 0, snap2 = 0;
#pragma omp parallel num_threads(4)
#pragma omp single
  {
#pragma omp target enter data map(to: v[0:N]) map(alloc: w[0:N]) nowait depend(out: v[0:N], w[0:N])
#pragma omp target teams distribute parallel for nowait depend(inout: v[0:N], w[0:N])
    for (int i = 0; i < N; i++) {
      v[i] += 1;
      w[i] = v[i] * 3;
    }
#pragma omp target update from(w[0:N]) nowait depend(inout: w[0:N])
#pragma omp task depend(in: w[0:N]) shared(snap1)
    snap1 = w[N - 1];
    /* host changes v, pushes it, device uses the new values */
#pragma omp task depend(inout: v[0:N])
    for (int i = 0; i < N; i++) v[i] = 10;
#pragma omp target update to(v[0:N]) nowait depend(inout: v[0:N])
#pragma omp target teams distribute parallel for nowait depend(in: v[0:N]) depend(inout: w[0:N])
    for (int i = 0; i < N; i++) w[i] += v[i];
#pragma omp target exit data map(from: w[0:N]) map(release: v[0:N]) nowait depend(inout: v[0:N], w[0:N])
#pragma omp task depend(in: w[0:N]) shared(snap2)
    snap2 = w[0];
#pragma omp taskwait
  }
  printf("snapshot after first kernel: w[N-1]=%.1f\n", snap1);
  printf("after exit data: w[0]=%.1f w[N-1]=%.1f\n", snap2, w[N - 1]);
  int ok = snap1 == (double)N * 3 && snap2 == 13;
  for (int i = 0; i < N; i++) ok &= w[i] == (i + 1) * 3 + 10;
  printf("%s\n", ok ? "PASS" : "FAIL");
  free(v);
  free(w);
  return 0;
}
