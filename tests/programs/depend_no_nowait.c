/* covers: depend on a target construct without nowait (an undeferred target task that still waits for its dependences): host tasks producing the input (depend out) and consuming the output (depend in), target enter data / update with depend and no nowait */
#include <stdio.h>

#define N 1000

int main(void) {
  static int in[N], outv[N];
  long consumed = 0;
#pragma omp parallel num_threads(4)
#pragma omp single
  {
#pragma omp task depend(out: in)
    for (int i = 0; i < N; i++) in[i] = i;
    /* must see the host task's values */
#pragma omp target map(to: in) map(from: outv) depend(in: in) depend(out: outv)
    for (int i = 0; i < N; i++) outv[i] = in[i] * 3;
#pragma omp task depend(in: outv) shared(consumed)
    for (int i = 0; i < N; i++) consumed += outv[i];
#pragma omp task depend(inout: in)
    for (int i = 0; i < N; i++) in[i] = -1;
#pragma omp target enter data map(to: in) depend(in: in)
#pragma omp target map(from: outv) depend(inout: outv)
    for (int i = 0; i < N; i++) outv[i] = in[i];
#pragma omp target update from(in) depend(inout: in)
#pragma omp target exit data map(delete: in)
#pragma omp taskwait
  }
  long s = 0;
  for (int i = 0; i < N; i++) s += outv[i];
  printf("consumed=%ld second=%ld in[5]=%d\n", consumed, s, in[5]);
  printf("%s\n", consumed == 3L * N * (N - 1) / 2 && s == -N ? "PASS" : "FAIL");
  return 0;
}
