/* covers: target data region with map(to/from/tofrom/alloc), several nested target regions reusing mapped data, map(alloc:) scratch buffer, implicit presence of mapped arrays inside the data region, target update inside data region */
#include <stdio.h>
#include <stdlib.h>

#define N 2048

int main(void) {
  double *in = malloc(N * sizeof *in);
  double *out = malloc(N * sizeof *out);
  double *tmp = malloc(N * sizeof *tmp);
  long *hist = calloc(4, sizeof *hist);
  for (int i = 0; i < N; i++) {
    in[i] = (i * 37) % 113;
    out[i] = 0.0;
    tmp[i] = -12345.0; /* never read: alloc only */
  }

#pragma omp target data map(to: in[0:N]) map(from: out[0:N]) map(alloc: tmp[0:N]) map(tofrom: hist[0:4])
  {
    /* step 1: tmp = in * 2 */
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++) tmp[i] = in[i] * 2.0;

    /* step 2: out = smoothed tmp */
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++) {
      double l = i > 0 ? tmp[i - 1] : tmp[i];
      double r = i < N - 1 ? tmp[i + 1] : tmp[i];
      out[i] = (l + 2.0 * tmp[i] + r) / 4.0;
    }

    /* step 3: histogram of out into 4 buckets, one thread */
#pragma omp target
    for (int i = 0; i < N; i++) {
      int b = (int)(out[i] / 60.0);
      if (b > 3) b = 3;
      hist[b]++;
    }

    /* step 4: host changes input, pushes it, device recomputes part of tmp */
    for (int i = 0; i < 8; i++) in[i] = 1000.0;
#pragma omp target update to(in[0:8])
#pragma omp target teams distribute parallel for
    for (int i = 0; i < 8; i++) tmp[i] = in[i];

#pragma omp target teams distribute parallel for
    for (int i = 0; i < 8; i++) out[i] = tmp[i] + 1.0;
  }

  double s = 0.0;
  for (int i = 0; i < N; i++) s += out[i];
  printf("out[0]=%.2f out[7]=%.2f out[8]=%.2f out[100]=%.2f sum=%.2f\n", out[0], out[7], out[8], out[100], s);
  printf("hist=%ld %ld %ld %ld total=%ld\n", hist[0], hist[1], hist[2], hist[3],
         hist[0] + hist[1] + hist[2] + hist[3]);

  /* host reference */
  int ok = 1;
  for (int i = 8; i < N; i++) {
    double t0 = ((i - 1) * 37 % 113) * 2.0, t1 = (i * 37 % 113) * 2.0;
    double t2 = i < N - 1 ? ((i + 1) * 37 % 113) * 2.0 : t1;
    if (out[i] != (t0 + 2.0 * t1 + t2) / 4.0) ok = 0;
  }
  for (int i = 0; i < 8; i++)
    if (out[i] != 1001.0) ok = 0;
  printf("%s\n", ok && hist[0] + hist[1] + hist[2] + hist[3] == N ? "PASS" : "FAIL");
  free(in);
  free(out);
  free(tmp);
  free(hist);
  return 0;
}
