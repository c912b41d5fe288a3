/* backprop, OpenMP offload (see backprop.h).
 * Nested (default): forward = `target teams distribute` over the 16 hidden units, each team
 * reducing over the inputs (`parallel for reduction`), the master applying the squashing
 * function; adjustment = `target teams distribute` over the inputs, the master loading the
 * input, the team updating its 16 weights.
 * -DSPMD: forward = `target teams distribute parallel for` over the 16 hidden units (each
 * thread sums all inputs alone); adjustment = `... parallel for collapse(2)` over
 * (input, hidden unit). */
#include "backprop.h"

int main(int argc, char **argv) {
  const int n = bench_arg(argc, argv, 1, 1048576);
  const long nw = (long)n * BP_HID;
  float *in = (float *)bench_alloc(sizeof(float) * n);
  float *w0 = (float *)bench_alloc(sizeof(float) * nw), *dw0 = (float *)bench_alloc(sizeof(float) * nw);
  float *w = (float *)bench_alloc(sizeof(float) * nw), *dw = (float *)bench_alloc(sizeof(float) * nw);
  float hidden[BP_HID], delta[BP_HID];
  bp_make(in, w0, dw0, n);
  bench_warmup();
  for (int rep = 0, reps = bench_reps(); rep < reps; rep++) {
    memcpy(w, w0, sizeof(float) * nw);
    memcpy(dw, dw0, sizeof(float) * nw);
    double kernel = 0, t0 = BENCH_NOW();
#pragma omp target data map(to: in[0:n]) map(tofrom: w[0:nw], dw[0:nw]) map(alloc: hidden, delta)
    {
      double k0 = BENCH_NOW();
#ifndef SPMD
#pragma omp target teams distribute thread_limit(256)
      for (int j = 0; j < BP_HID; j++) {
        float s = 0;
#pragma omp parallel for reduction(+: s)
        for (int i = 0; i < n; i++) s += w[(long)i * BP_HID + j] * in[i];
        hidden[j] = 1.0f / (1.0f + expf(-s));
      }
#else
#pragma omp target teams distribute parallel for
      for (int j = 0; j < BP_HID; j++) {
        float s = 0;
        for (int i = 0; i < n; i++) s += w[(long)i * BP_HID + j] * in[i];
        hidden[j] = 1.0f / (1.0f + expf(-s));
      }
#endif
      kernel += BENCH_NOW() - k0;
#pragma omp target update from(hidden)
      bp_deltas(hidden, delta);
#pragma omp target update to(delta)
      k0 = BENCH_NOW();
#ifndef SPMD
#pragma omp target teams distribute thread_limit(32)
      for (int i = 0; i < n; i++) {
        const float x = in[i];
#pragma omp parallel for
        for (int j = 0; j < BP_HID; j++) {
          long k = (long)i * BP_HID + j;
          float d = BP_ETA * delta[j] * x + BP_MOMENTUM * dw[k];
          w[k] += d;
          dw[k] = d;
        }
      }
#else
#pragma omp target teams distribute parallel for collapse(2)
      for (int i = 0; i < n; i++)
        for (int j = 0; j < BP_HID; j++) {
          long k = (long)i * BP_HID + j;
          float d = BP_ETA * delta[j] * in[i] + BP_MOMENTUM * dw[k];
          w[k] += d;
          dw[k] = d;
        }
#endif
      kernel += BENCH_NOW() - k0;
    }
    bench_report("backprop", rep, kernel, BENCH_NOW() - t0);
  }
  return bench_finish(bp_check(in, w0, dw0, n, hidden, w, dw));
}
