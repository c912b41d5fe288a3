/* backprop: the two GPU steps of training a 2-layer perceptron on one input pattern:
 * forward (hidden[j] = squash(sum_i w[i][j] in[i]), 16 hidden units, a reduction over the
 * n inputs per unit) and the weight adjustment of the input layer
 * (w[i][j] += ETA delta[j] in[i] + MOMENTUM dw[i][j]); the hidden deltas are computed on the
 * host in between. Shared by backprop.c (OpenMP) and backprop.cu.
 *     ./backprop [inputs=1048576] */
#ifndef BACKPROP_H
#define BACKPROP_H
#include "../common/bench.h"

#define BP_HID 16
#define BP_ETA 0.3f
#define BP_MOMENTUM 0.3f

static void bp_make(float *in, float *w, float *dw, int n) {
  for (int i = 0; i < n; i++) in[i] = bench_unit(i, 3);
  for (long k = 0; k < (long)n * BP_HID; k++) {
    w[k] = (bench_unit(k, 4) - 0.5f) * 0.01f;
    dw[k] = (bench_unit(k, 5) - 0.5f) * 0.001f;
  }
}

static void bp_deltas(const float *hidden, float *delta) {
  for (int j = 0; j < BP_HID; j++) {
    float target = (j & 1) ? 0.9f : 0.1f;
    delta[j] = hidden[j] * (1.0f - hidden[j]) * (target - hidden[j]);
  }
}

static int bp_check(const float *in, const float *w0, const float *dw0, int n, const float *hidden, const float *w,
                    const float *dw) {
  float href[BP_HID], delta[BP_HID];
  double worst_h = 0, worst_w = 0;
  for (int j = 0; j < BP_HID; j++) {
    double s = 0;
    for (int i = 0; i < n; i++) s += (double)w0[(long)i * BP_HID + j] * in[i];
    href[j] = (float)(1.0 / (1.0 + exp(-s)));
    double e = fabs(href[j] - hidden[j]);
    if (!(e <= worst_h)) worst_h = e;
  }
  bp_deltas(hidden, delta); /* the run's own deltas: the update is checked on its inputs */
  for (int i = 0; i < n; i++)
    for (int j = 0; j < BP_HID; j++) {
      long k = (long)i * BP_HID + j;
      float d = BP_ETA * delta[j] * in[i] + BP_MOMENTUM * dw0[k];
      double e = fabs((double)(w0[k] + d) - w[k]) + fabs((double)d - dw[k]);
      if (!(e <= worst_w)) worst_w = e;
    }
  printf("backprop: %d inputs, %d hidden units, hidden error %.3g, weight error %.3g\n", n, BP_HID, worst_h, worst_w);
  return worst_h < 1e-4 && worst_w < 1e-6;
}
#endif
