/* covers: hotspot-shaped thermal simulation in float: target data with two temperature buffers and a power map, iterations alternating source/destination via a firstprivate flag, target teams distribute parallel for collapse(2) with boundary clamping, float arithmetic compared with a tolerance and printed to 4 significant digits */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define ROWS 64
#define COLS 64
#define ITERS 20

int main(void) {
  float *temp = malloc(ROWS * COLS * sizeof *temp);
  float *power = malloc(ROWS * COLS * sizeof *power);
  float *tmp = malloc(ROWS * COLS * sizeof *tmp);
  for (int r = 0; r < ROWS; r++)
    for (int c = 0; c < COLS; c++) {
      temp[r * COLS + c] = 320.0f + (float)((r * 7 + c * 3) % 10);
      power[r * COLS + c] = ((r / 8 + c / 8) % 3 == 0) ? 0.5f : 0.05f;
    }
  const float cap = 0.5f, rx = 0.1f, ry = 0.1f, rz = 0.05f, amb = 300.0f;

#pragma omp target data map(tofrom: temp[0:ROWS * COLS]) map(to: power[0:ROWS * COLS]) map(alloc: tmp[0:ROWS * COLS])
  for (int it = 0; it < ITERS; it++) {
    int flip = it % 2;
#pragma omp target teams distribute parallel for collapse(2) firstprivate(flip)
    for (int r = 0; r < ROWS; r++)
      for (int c = 0; c < COLS; c++) {
        const float *src = flip ? tmp : temp;
        float *dst = flip ? temp : tmp;
        int n = r > 0 ? r - 1 : r, s = r < ROWS - 1 ? r + 1 : r;
        int w = c > 0 ? c - 1 : c, e = c < COLS - 1 ? c + 1 : c;
        float t = src[r * COLS + c];
        float delta = cap * (power[r * COLS + c] + (src[s * COLS + c] + src[n * COLS + c] - 2.0f * t) * ry +
                             (src[r * COLS + e] + src[r * COLS + w] - 2.0f * t) * rx + (amb - t) * rz);
        dst[r * COLS + c] = t + delta;
      }
  }
  /* ITERS is even: the result is back in temp */

  float *ra = malloc(ROWS * COLS * sizeof *ra), *rb = malloc(ROWS * COLS * sizeof *rb);
  for (int r = 0; r < ROWS; r++)
    for (int c = 0; c < COLS; c++) ra[r * COLS + c] = 320.0f + (float)((r * 7 + c * 3) % 10);
  for (int it = 0; it < ITERS; it++) {
    for (int r = 0; r < ROWS; r++)
      for (int c = 0; c < COLS; c++) {
        int n = r > 0 ? r - 1 : r, s = r < ROWS - 1 ? r + 1 : r;
        int w = c > 0 ? c - 1 : c, e = c < COLS - 1 ? c + 1 : c;
        float t = ra[r * COLS + c];
        float delta = cap * (power[r * COLS + c] + (ra[s * COLS + c] + ra[n * COLS + c] - 2.0f * t) * ry +
                             (ra[r * COLS + e] + ra[r * COLS + w] - 2.0f * t) * rx + (amb - t) * rz);
        rb[r * COLS + c] = t + delta;
      }
    float *x = ra;
    ra = rb;
    rb = x;
  }
  double err = 0.0, sum = 0.0;
  float tmax = 0.0f;
  for (int q = 0; q < ROWS * COLS; q++) {
    double e = fabs((double)ra[q] - temp[q]);
    if (e > err) err = e;
    sum += temp[q];
    if (temp[q] > tmax) tmax = temp[q];
  }
  printf("hotspot: t[0]=%.1f t[2080]=%.1f max=%.1f mean=%.1f\n", temp[0], temp[2080], tmax, sum / (ROWS * COLS));
  printf("%s\n", err < 1e-3 ? "PASS" : "FAIL");
  free(temp);
  free(power);
  free(tmp);
  free(ra);
  free(rb);
  return 0;
}
