/* covers: orphaned directives in declare target functions called from target regions: orphaned parallel for, orphaned for (inside an enclosing parallel), orphaned barrier, orphaned single, orphaned atomic, orphaned for reduction; a function called both from serial team code and from a parallel region */
#include <stdio.h>
#include <omp.h>

#define N 512

#pragma omp declare target
/* a whole parallel loop inside a device function */
void scale_vec(double *v, int n, double s) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) v[i] *= s;
}

/* worksharing loop that binds to the caller's parallel region */
void add_into(double *dst, const double *src, int n) {
#pragma omp for
  for (int i = 0; i < n; i++) dst[i] += src[i];
}

/* single + barrier inside a function called by every thread */
void publish(int *slot, int value) {
#pragma omp single
  *slot = value;
#pragma omp barrier
}

/* orphaned for with a reduction into a shared (global device) variable */
double red_acc;
void sum_into(const double *v, int n, double *total) {
#pragma omp single
  red_acc = 0.0;
#pragma omp for reduction(+: red_acc)
  for (int i = 0; i < n; i++) red_acc += v[i];
#pragma omp single
  *total = red_acc;
}

int count_calls(int *counter) {
#pragma omp atomic
  (*counter)++;
  return 1;
}
#pragma omp end declare target

int main(void) {
  static double a[N], b[N];
  for (int i = 0; i < N; i++) {
    a[i] = i;
    b[i] = 1.0;
  }
  int slot = -1, readers_ok = 1, calls = 0;
  double total = -1.0;

#pragma omp target map(tofrom: a, b, slot, readers_ok, calls, total)
  {
    /* called from serial code: the function's own parallel for runs */
    scale_vec(a, N, 2.0);
    count_calls(&calls);

    /* called from inside a parallel region: orphaned for/single/barrier bind to it */
#pragma omp parallel num_threads(32)
    {
      add_into(a, b, N);
      /* implicit barrier at the end of the orphaned for */
      publish(&slot, 77);
      if (slot != 77) {
#pragma omp atomic write
        readers_ok = 0;
      }
      sum_into(a, N, &total);
      count_calls(&calls);
    }
  }
  double want = 0.0;
  for (int i = 0; i < N; i++) want += 2.0 * i + 1.0;
  printf("a[0]=%.1f a[511]=%.1f total=%.1f (want %.1f)\n", a[0], a[N - 1], total, want);
  printf("single+barrier publish: slot=%d readers_ok=%d\n", slot, readers_ok);
  printf("calls from serial code plus threads at least 2: %d\n", calls >= 2);

  /* orphaned parallel for called from each distribute iteration */
  static double m[16][64];
  for (int r = 0; r < 16; r++)
    for (int c = 0; c < 64; c++) m[r][c] = r + c;
#pragma omp target teams distribute map(tofrom: m) num_teams(8)
  for (int r = 0; r < 16; r++) scale_vec(&m[r][0], 64, (double)(r + 1));
  double ms = 0.0;
  for (int r = 0; r < 16; r++)
    for (int c = 0; c < 64; c++) ms += m[r][c];
  double mwant = 0.0;
  for (int r = 0; r < 16; r++)
    for (int c = 0; c < 64; c++) mwant += (r + c) * (r + 1.0);
  printf("per-row scale: sum=%.1f\n", ms);
  printf("%s\n", total == want && slot == 77 && readers_ok && ms == mwant ? "PASS" : "FAIL");
  return 0;
}
