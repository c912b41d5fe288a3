// streamcluster's pgain, one warp per point, real data (streamcluster.h): which of CUDA's choices
// matter? AGG: per-block totals in shared memory (else a global atomic per point); INTER: points
// interleaved over the warps (i = warp, warp + all warps, ...; else a contiguous block per warp).
#include "../../bench/streamcluster/streamcluster.h"
template <bool AGG, bool INTER>
__global__ void __launch_bounds__(128) pgain(const float *p, const float *w, const float *cost, const int *assign, int n,
                                             long xo, int c, float *gain, float *lower, int *switches, int warps) {
  __shared__ float bl[SC_CENTRES], bg;
  __shared__ int bs;
  if (AGG) {
    for (int k = threadIdx.x; k < SC_CENTRES; k += blockDim.x) bl[k] = 0;
    if (threadIdx.x == 0) { bg = 0; bs = 0; }
    __syncthreads();
  }
  const int lane = threadIdx.x & 31, warp = blockIdx.x * 4 + (threadIdx.x >> 5);
  const long per = (n + warps - 1) / warps;
  const long lo = INTER ? warp : warp * per, hi = INTER ? n : (lo + per < n ? lo + per : n), step = INTER ? warps : 1;
  for (long i = lo; i < hi; i += step) {
    float d = 0;
    for (int k = lane; k < SC_DIM; k += 32) { float t = p[i * SC_DIM + k] - p[xo + k]; d += t * t; }
    for (int o = 16; o; o >>= 1) d += __shfl_xor_sync(~0u, d, o);
    if (lane == 0) {
      d *= w[i];
      if (d < cost[i]) {
        if (AGG) { atomicAdd(&bg, cost[i] - d); atomicAdd(&bs, 1); }
        else { atomicAdd(&gain[c], cost[i] - d); atomicAdd(&switches[c], 1); }
      } else if (AGG) atomicAdd(&bl[assign[i]], d - cost[i]);
      else atomicAdd(&lower[c * SC_CENTRES + assign[i]], d - cost[i]);
    }
  }
  if (AGG) {
    __syncthreads();
    for (int k = threadIdx.x; k < SC_CENTRES; k += blockDim.x) if (bl[k] != 0) atomicAdd(&lower[c * SC_CENTRES + k], bl[k]);
    if (threadIdx.x == 0) { atomicAdd(&gain[c], bg); atomicAdd(&switches[c], bs); }
  }
}
int main() {
  const int n = 65536, ncand = 8;
  const long np = (long)n * SC_DIM;
  float *p = (float *)malloc(4 * np), *w = (float *)malloc(4 * n), *cost = (float *)malloc(4 * n);
  int *assign = (int *)malloc(4 * n);
  sc_make(p, w, cost, assign, n);
  float *dp, *dw, *dc, *dg, *dl; int *da, *ds;
  cudaMalloc(&dp, 4 * np); cudaMalloc(&dw, 4 * n); cudaMalloc(&dc, 4 * n); cudaMalloc(&da, 4 * n);
  cudaMalloc(&dg, 4 * ncand); cudaMalloc(&dl, 4 * ncand * SC_CENTRES); cudaMalloc(&ds, 4 * ncand);
  cudaMemcpy(dp, p, 4 * np, cudaMemcpyHostToDevice); cudaMemcpy(dw, w, 4 * n, cudaMemcpyHostToDevice);
  cudaMemcpy(dc, cost, 4 * n, cudaMemcpyHostToDevice); cudaMemcpy(da, assign, 4 * n, cudaMemcpyHostToDevice);
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  const int warps = sms * 64, blocks = warps / 4;
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  for (int v = 0; v < 4; v++) {
    float best = 1e9;
    for (int rep = 0; rep < 7; rep++) {
      cudaEventRecord(e0);
      for (int c = 0; c < ncand; c++) {
        const long xo = (long)sc_candidate(c, n) * SC_DIM;
        if (v == 0) pgain<false, false><<<blocks, 128>>>(dp, dw, dc, da, n, xo, c, dg, dl, ds, warps);
        if (v == 1) pgain<false, true><<<blocks, 128>>>(dp, dw, dc, da, n, xo, c, dg, dl, ds, warps);
        if (v == 2) pgain<true, false><<<blocks, 128>>>(dp, dw, dc, da, n, xo, c, dg, dl, ds, warps);
        if (v == 3) pgain<true, true><<<blocks, 128>>>(dp, dw, dc, da, n, xo, c, dg, dl, ds, warps);
      }
      cudaEventRecord(e1); cudaEventSynchronize(e1);
      float ms; cudaEventElapsedTime(&ms, e0, e1); if (ms < best) best = ms;
    }
    printf("atomics %-9s points %-12s %.4f ms (8 launches)\n", v >= 2 ? "per block" : "global", v % 2 ? "interleaved" : "contiguous", best);
  }
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
}
