/* covers: firstprivate arrays of target regions: small ones by value, large ones (over 256 bytes)
   and variable-length ones as one device copy per launch that the region's teams and threads
   share (OMPGPU_MAP_PRIVATE); defaultmap(firstprivate) of two 4 KB arrays on a target teams loop
   (SOLLVE 5.0 target_teams_loop_defaultmap); the region's writes to its copy never reach the host;
   a write by one thread seen by the others after a barrier; a deferred (nowait) region copies the
   array as the construct found it */
#include <omp.h>
#include <stdio.h>

#define N 1024

static int check(const char *what, int ok) {
  printf("%s: %s\n", what, ok ? "ok" : "WRONG");
  return !ok;
}

int main(void) {
  int bad = 0;

  /* defaultmap(firstprivate): the region's copies; the host's stay as they were */
  int device_data[N], host_data[N];
  for (int i = 0; i < N; i++) { device_data[i] = i; host_data[i] = 0; }
#pragma omp target teams loop defaultmap(firstprivate)
  for (int i = 0; i < N; i++) host_data[i] = device_data[i];
  int untouched = 1;
  for (int i = 0; i < N; i++) untouched &= host_data[i] == 0 && device_data[i] == i;
  bad += check("defaultmap(firstprivate) of two 4 KB arrays leaves the host's", untouched);

  /* read in the region as the construct found them */
  double big[400], out[400];
  for (int i = 0; i < 400; i++) big[i] = 0.5 * i;
#pragma omp target teams distribute parallel for firstprivate(big) map(from: out)
  for (int i = 0; i < 400; i++) out[i] = 2 * big[399 - i];
  int same = 1;
  for (int i = 0; i < 400; i++) same &= out[i] == 399 - i;
  bad += check("a 3200-byte firstprivate array read on the device", same);

  /* a variable-length array */
  int n = 300 + (int)(big[1] > 0);
  int vla[n];
  for (int i = 0; i < n; i++) vla[i] = 3 * i;
  long sum = 0;
#pragma omp target firstprivate(vla) map(tofrom: sum)
  for (int i = 0; i < n; i++) sum += vla[i];
  bad += check("a firstprivate variable-length array", sum == 3L * n * (n - 1) / 2);

  /* one copy for the region, which its parallel region shares: a write of thread 0 is seen by the
     others after a barrier */
  int shared_seen = 0;
  for (int i = 0; i < 100; i++) big[i] = 1;
#pragma omp target firstprivate(big) map(tofrom: shared_seen)
#pragma omp parallel num_threads(64)
  {
    if (omp_get_thread_num() == 0) big[5] = 42;
#pragma omp barrier
    if (omp_get_thread_num() == 63 && big[5] == 42) shared_seen = 1;
  }
  bad += check("one copy shared by the region's threads", shared_seen && big[5] == 1);

  /* nowait: the array as the construct found it, whatever the host does before the wait */
  int snap[N], got = -1;
  for (int i = 0; i < N; i++) snap[i] = 7;
#pragma omp target firstprivate(snap) map(from: got) nowait
  got = snap[N - 1];
  for (int i = 0; i < N; i++) snap[i] = -1;
#pragma omp taskwait
  bad += check("a deferred region's copy is the construct's", got == 7);

  /* small arrays still by value */
  int small[8] = {1, 2, 3, 4, 5, 6, 7, 8}, total = 0;
#pragma omp target firstprivate(small) map(tofrom: total)
  for (int i = 0; i < 8; i++) total += small[i];
  bad += check("a small firstprivate array", total == 36);

  printf("target_firstprivate_arrays: %s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
