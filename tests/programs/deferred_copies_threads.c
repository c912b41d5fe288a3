/* covers: small target updates to the device that return before their DMA ends (the runtime's
   deferred copies: runtime/host/transfer.cpp), read by a kernel of another host thread right
   after a barrier; many small updates queued back to back so that the last ones are still in
   flight when the other thread launches; then use_device_ptr, after which copies wait again */
#include <pthread.h>
#include <stdio.h>

#define PARTS 64
#define PART 64
#define N (PARTS * PART)
#define ROUNDS 40

static int x[N], y[N];
static pthread_barrier_t barrier;
static int bad;

static void *reader(void *arg) {
  (void)arg;
  for (int r = 0; r < ROUNDS; r++) {
    pthread_barrier_wait(&barrier);   /* the writer's updates have returned */
#pragma omp target teams distribute parallel for map(from: y[0:N])
    for (int i = 0; i < N; i++) y[i] = x[i];
    for (int i = 0; i < N; i++)
      if (y[i] != r * 7 + i % 5) bad++;
    pthread_barrier_wait(&barrier);   /* checked: the writer may go on */
  }
  return NULL;
}

int main(void) {
#pragma omp target enter data map(alloc: x[0:N])
  pthread_barrier_init(&barrier, NULL, 2);
  pthread_t t;
  if (pthread_create(&t, NULL, reader, NULL) != 0) return 1;
  for (int r = 0; r < ROUNDS; r++) {
    for (int i = 0; i < N; i++) x[i] = r * 7 + i % 5;
    for (int p = 0; p < PARTS; p++) {
      int *part = x + p * PART;
#pragma omp target update to(part[0:PART])
    }
    pthread_barrier_wait(&barrier);
    pthread_barrier_wait(&barrier);
  }
  pthread_join(t, NULL);
  printf("threads: %s\n", bad ? "FAIL" : "PASS");
  /* the device address reaches the program: later updates are complete when they return */
  int *dx = x;
#pragma omp target data use_device_ptr(dx)
  {
    if (dx == NULL) bad++;
  }
  for (int i = 0; i < N; i++) x[i] = -i;
#pragma omp target update to(x[0:N])
#pragma omp target teams distribute parallel for map(from: y[0:N])
  for (int i = 0; i < N; i++) y[i] = x[i] * 2;
  for (int i = 0; i < N; i++)
    if (y[i] != -2 * i) bad++;
#pragma omp target exit data map(delete: x[0:N])
  printf("after use_device_ptr: %s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
