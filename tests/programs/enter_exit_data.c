/* covers: target enter data map(to:/alloc:), target exit data map(from:/release:/delete:), reference counting across nested enter/exit, data persisting across functions, target update from, unstructured data lifetimes */
#include <stdio.h>
#include <stdlib.h>

#define N 1000

static double *vec;
static int *work;

static void device_init(void) {
  vec = malloc(N * sizeof *vec);
  work = malloc(N * sizeof *work);
  for (int i = 0; i < N; i++) {
    vec[i] = i * 0.5;
    work[i] = 0;
  }
#pragma omp target enter data map(to: vec[0:N]) map(alloc: work[0:N])
}

static void step(int k) {
  /* vec and work are present: no copies here */
#pragma omp target teams distribute parallel for map(vec[0:N], work[0:N])
  for (int i = 0; i < N; i++) {
    vec[i] = vec[i] + k;
    work[i] = (int)vec[i] % 7;
  }
}

static void device_fini(void) {
#pragma omp target exit data map(from: vec[0:N]) map(delete: work[0:N])
}

int main(void) {
  device_init();
  for (int k = 1; k <= 4; k++) step(k);

  /* a second enter of the same data raises its reference count */
#pragma omp target enter data map(to: vec[0:N])
  step(10);
  /* release drops the count to one: the data stays and nothing is copied */
#pragma omp target exit data map(release: vec[0:N])
  step(100);

  /* work was never copied back: read it through update */
#pragma omp target update from(work[0:N])
  long ws = 0;
  for (int i = 0; i < N; i++) ws += work[i];

  device_fini();

  double s = 0.0;
  for (int i = 0; i < N; i++) s += vec[i];
  printf("vec[0]=%.1f vec[1]=%.1f vec[999]=%.1f sum=%.1f\n", vec[0], vec[1], vec[999], s);
  printf("work sum=%ld\n", ws);

  /* enter/exit data of a scalar */
  int counter = 5;
#pragma omp target enter data map(to: counter)
#pragma omp target map(counter)
  counter *= 3;
#pragma omp target exit data map(from: counter)
  printf("counter=%d\n", counter);

  long want_ws = 0;
  for (int i = 0; i < N; i++) want_ws += (int)(i * 0.5 + 120) % 7;
  int pass = vec[0] == 120.0 && vec[999] == 499.5 + 120 && ws == want_ws && counter == 15;
  printf("%s\n", pass ? "PASS" : "FAIL");
  free(vec);
  free(work);
  return 0;
}
