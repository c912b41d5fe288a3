/* covers: backprop-shaped layer: forward pass (target teams distribute over hidden units, parallel for reduction over inputs), output layer and deltas, weight adjustment with collapse(2) over a 2-D weight array with momentum, exp in device code, target data with map(alloc:) and target update from */
#include <stdio.h>
#include <math.h>

#define NIN 512
#define NHID 16
#define NOUT 4
#define ETA 0.3
#define MOMENTUM 0.3

static double in[NIN + 1], hid[NHID + 1], outv[NOUT + 1];
static double w1[NIN + 1][NHID + 1], dw1[NIN + 1][NHID + 1];
static double w2[NHID + 1][NOUT + 1];
static double target_v[NOUT + 1], delta_h[NHID + 1], delta_o[NOUT + 1];

#pragma omp declare target
static double squash(double x) { return 1.0 / (1.0 + exp(-x)); }
#pragma omp end declare target

static double ref_hid[NHID + 1], ref_w1[NIN + 1][NHID + 1];

int main(void) {
  for (int i = 0; i <= NIN; i++) in[i] = ((i * 37) % 100) / 100.0;
  in[0] = 1.0;
  for (int i = 0; i <= NIN; i++)
    for (int j = 0; j <= NHID; j++) {
      w1[i][j] = (((i * 17 + j * 31) % 200) - 100) / 1000.0;
      dw1[i][j] = 0.0;
    }
  for (int j = 0; j <= NHID; j++)
    for (int k = 0; k <= NOUT; k++) w2[j][k] = (((j * 13 + k * 7) % 50) - 25) / 100.0;
  for (int k = 0; k <= NOUT; k++) target_v[k] = (k % 2) ? 0.9 : 0.1;

#pragma omp target data map(to: in, w2, target_v) map(tofrom: w1) map(alloc: dw1, hid, outv, delta_h, delta_o)
  {
#pragma omp target teams distribute parallel for collapse(2)
    for (int i = 0; i <= NIN; i++)
      for (int j = 0; j <= NHID; j++) dw1[i][j] = 0.0;

    for (int epoch = 0; epoch < 3; epoch++) {
      /* forward: input -> hidden */
#pragma omp target teams distribute num_teams(NHID)
      for (int j = 1; j <= NHID; j++) {
        double sum = 0.0;
#pragma omp parallel for reduction(+: sum)
        for (int i = 0; i <= NIN; i++) sum += w1[i][j] * in[i];
        hid[j] = squash(sum);
      }
      /* hidden -> output, deltas: small, one thread */
#pragma omp target
      {
        hid[0] = 1.0;
        for (int k = 1; k <= NOUT; k++) {
          double s = 0.0;
          for (int j = 0; j <= NHID; j++) s += w2[j][k] * hid[j];
          outv[k] = squash(s);
          delta_o[k] = outv[k] * (1.0 - outv[k]) * (target_v[k] - outv[k]);
        }
        for (int j = 1; j <= NHID; j++) {
          double s = 0.0;
          for (int k = 1; k <= NOUT; k++) s += delta_o[k] * w2[j][k];
          delta_h[j] = hid[j] * (1.0 - hid[j]) * s;
        }
      }
      /* adjust input -> hidden weights */
#pragma omp target teams distribute parallel for collapse(2)
      for (int i = 0; i <= NIN; i++)
        for (int j = 1; j <= NHID; j++) {
          double nd = ETA * delta_h[j] * in[i] + MOMENTUM * dw1[i][j];
          w1[i][j] += nd;
          dw1[i][j] = nd;
        }
    }
#pragma omp target update from(hid, outv)
  }

  /* host reference */
  static double rdw[NIN + 1][NHID + 1];
  for (int i = 0; i <= NIN; i++)
    for (int j = 0; j <= NHID; j++) ref_w1[i][j] = (((i * 17 + j * 31) % 200) - 100) / 1000.0;
  double rout[NOUT + 1], rdo[NOUT + 1], rdh[NHID + 1];
  for (int epoch = 0; epoch < 3; epoch++) {
    for (int j = 1; j <= NHID; j++) {
      double sum = 0.0;
      for (int i = 0; i <= NIN; i++) sum += ref_w1[i][j] * in[i];
      ref_hid[j] = 1.0 / (1.0 + exp(-sum));
    }
    ref_hid[0] = 1.0;
    for (int k = 1; k <= NOUT; k++) {
      double s = 0.0;
      for (int j = 0; j <= NHID; j++) s += w2[j][k] * ref_hid[j];
      rout[k] = 1.0 / (1.0 + exp(-s));
      rdo[k] = rout[k] * (1.0 - rout[k]) * (target_v[k] - rout[k]);
    }
    for (int j = 1; j <= NHID; j++) {
      double s = 0.0;
      for (int k = 1; k <= NOUT; k++) s += rdo[k] * w2[j][k];
      rdh[j] = ref_hid[j] * (1.0 - ref_hid[j]) * s;
    }
    for (int i = 0; i <= NIN; i++)
      for (int j = 1; j <= NHID; j++) {
        double nd = ETA * rdh[j] * in[i] + MOMENTUM * rdw[i][j];
        ref_w1[i][j] += nd;
        rdw[i][j] = nd;
      }
  }
  double err = 0.0, wsum = 0.0;
  for (int i = 0; i <= NIN; i++)
    for (int j = 0; j <= NHID; j++) {
      double e = fabs(ref_w1[i][j] - w1[i][j]);
      if (e > err) err = e;
      wsum += w1[i][j];
    }
  for (int k = 1; k <= NOUT; k++)
    if (fabs(rout[k] - outv[k]) > err) err = fabs(rout[k] - outv[k]);
  printf("hidden: %.6f %.6f %.6f\n", hid[1], hid[8], hid[16]);
  printf("output: %.6f %.6f %.6f %.6f\n", outv[1], outv[2], outv[3], outv[4]);
  printf("weight sum=%.6f\n", wsum);
  printf("%s\n", err < 1e-9 ? "PASS" : "FAIL");
  return 0;
}
