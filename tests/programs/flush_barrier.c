/* covers: flush (with and without a list), barrier-separated phases in a parallel region inside target, red-black style two-phase update with barriers, flush around atomic write/read of a flag */
#include <stdio.h>
#include <omp.h>

#define N 1024

int main(void) {
  static double u[N];
  for (int i = 0; i < N; i++) u[i] = (i % 16 == 0) ? 16.0 : 0.0;

  /* odd/even relaxation, 10 sweeps; phases separated by barriers */
#pragma omp target map(tofrom: u)
#pragma omp parallel num_threads(64)
  {
    int tid = omp_get_thread_num(), nt = omp_get_num_threads();
    for (int sweep = 0; sweep < 10; sweep++) {
      for (int i = 1 + 2 * tid; i < N - 1; i += 2 * nt) u[i] = 0.5 * (u[i - 1] + u[i + 1]);
#pragma omp flush
#pragma omp barrier
      for (int i = 2 + 2 * tid; i < N - 1; i += 2 * nt) u[i] = 0.5 * (u[i - 1] + u[i + 1]);
#pragma omp barrier
    }
  }
  double s = 0.0;
  for (int i = 0; i < N; i++) s += u[i];
  printf("relaxation: u[1]=%.6f u[100]=%.6f u[500]=%.6f sum=%.4f\n", u[1], u[100], u[500], s);

  /* one thread publishes data and a flag; others read after a barrier */
  int data[8] = {0}, flag = 0, seen_ok = 1;
#pragma omp target parallel num_threads(8) map(tofrom: data, flag, seen_ok)
  {
    if (omp_get_thread_num() == 0) {
      for (int k = 0; k < 8; k++) data[k] = k * k;
#pragma omp flush(data)
#pragma omp atomic write
      flag = 1;
#pragma omp flush(flag)
    }
#pragma omp barrier
    int f;
#pragma omp atomic read
    f = flag;
#pragma omp flush
    int me = omp_get_thread_num() % 8;
    if (f != 1 || data[me] != me * me) {
#pragma omp atomic write
      seen_ok = 0;
    }
  }
  printf("publish: flag=%d seen_ok=%d data[7]=%d\n", flag, seen_ok, data[7]);

  /* reference relaxation on the host */
  double r[N];
  for (int i = 0; i < N; i++) r[i] = (i % 16 == 0) ? 16.0 : 0.0;
  for (int sweep = 0; sweep < 10; sweep++) {
    for (int i = 1; i < N - 1; i += 2) r[i] = 0.5 * (r[i - 1] + r[i + 1]);
    for (int i = 2; i < N - 1; i += 2) r[i] = 0.5 * (r[i - 1] + r[i + 1]);
  }
  int ok = 1;
  for (int i = 0; i < N; i++)
    if (r[i] != u[i]) ok = 0;
  printf("%s\n", ok && seen_ok && flag == 1 ? "PASS" : "FAIL");
  return 0;
}
