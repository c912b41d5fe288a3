/* covers: target enter/exit data and target update from many host threads at once: per-thread private arrays, one shared array entered by every thread (reference count reaches the thread count, the last exit copies back and frees), target regions of all threads on the shared present array with atomic updates on the device */
#include <omp.h>
#include <stdio.h>

#define T 4
#define N 512

static long shared_arr[N];
static long own[T][N];

int main(void) {
  for (int i = 0; i < N; i++) shared_arr[i] = i;
#pragma omp parallel num_threads(T)
  {
    int t = omp_get_thread_num();
    long *mine = own[t];
    for (int i = 0; i < N; i++) mine[i] = t;
#pragma omp target enter data map(to: shared_arr) map(to: mine[0:N])
#pragma omp barrier
    for (int rep = 0; rep < 5; rep++) {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < N; i++) {
        mine[i] += shared_arr[i];
#pragma omp atomic
        shared_arr[i] += 1;
      }
    }
#pragma omp target update from(mine[0:N])
#pragma omp barrier
#pragma omp target exit data map(from: shared_arr) map(delete: mine[0:N])
  }
  int nt = 0;
  long s = 0;
#pragma omp parallel num_threads(T)
#pragma omp single
  nt = omp_get_num_threads();
  for (int i = 0; i < N; i++) s += shared_arr[i];
  long m0 = 0;
  for (int t = 0; t < nt; t++)
    for (int i = 0; i < N; i++) m0 += own[t][i];
  /* every thread added 5 to every element of the shared array */
  printf("shared sum ok: %s\n", s == (long)N * (N - 1) / 2 + 5L * nt * N ? "yes" : "no");
  printf("own arrays changed: %s\n", m0 > 0 ? "yes" : "no");
  printf("%s\n", s == (long)N * (N - 1) / 2 + 5L * nt * N ? "PASS" : "FAIL");
  return 0;
}
