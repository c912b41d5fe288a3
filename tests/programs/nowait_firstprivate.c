/* covers: values captured when a target nowait is encountered: implicit firstprivate scalars, explicit firstprivate, a pointer and section bounds that the host changes right after creating the task, is_device_ptr pointer value; the host keeps modifying them while the tasks are pending */
#include <stdio.h>

#define N 64
#define T 8

static int out[T][N];

int main(void) {
#pragma omp parallel num_threads(4)
#pragma omp single
  {
    int scale = 1, offset = 0, len = N;
    int *row = out[0];
    for (int t = 0; t < T; t++) {
#pragma omp target nowait map(from: row[0:len]) firstprivate(offset)
      for (int i = 0; i < len; i++) row[i] = i * scale + offset;
      /* none of these changes may reach the task created above */
      scale += 1;
      offset += 100;
      row = out[(t + 1) % T];
      len = (t % 2) ? N : N / 2;
    }
#pragma omp taskwait
  }
  int ok = 1;
  long sum = 0;
  for (int t = 0; t < T; t++) {
    int len = t == 0 ? N : ((t - 1) % 2 ? N : N / 2);
    for (int i = 0; i < N; i++) {
      int want = i < len ? i * (t + 1) + 100 * t : 0;
      ok &= out[t][i] == want;
      sum += out[t][i];
    }
  }
  printf("sum=%ld\n", sum);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return 0;
}
