// streamcluster's per-point team work, one warp per point: does a warp barrier after lane 0's
// global atomics cost the round trip? V: 0 none, 1 __syncwarp after lane 0's block, 2 ours:
// d in shared memory, barriers around its init, after the region and around lane 0's block.
#include <cstdio>
#include <cuda_runtime.h>
#define DIM 128
#define CENTRES 32
template <int V>
__global__ void __launch_bounds__(128) pgain(const float *p, const float *w, const float *cost, const int *assign, int n,
                                             long xo, int c, float *gain, float *lower, int *switches, int league) {
  __shared__ float dsh[4];
  const int lane = threadIdx.x & 31, slot = threadIdx.x >> 5;
  const int team = blockIdx.x * 4 + slot;
  if (team >= league) return;
  const long per = (n + league - 1) / league;
  const long lo = team * per, hi = lo + per < n ? lo + per : n;
  for (long i = lo; i < hi; i++) {
    if (V == 2) { __syncwarp(); if (lane == 0) dsh[slot] = 0; __syncwarp(); }
    float d = 0;
    for (int k = lane; k < DIM; k += 32) { float t = p[i * DIM + k] - p[xo + k]; d += t * t; }
    for (int o = 16; o; o >>= 1) d += __shfl_down_sync(~0u, d, o);
    if (V == 2) { if (lane == 0) atomicAdd(&dsh[slot], d); __syncwarp(); __syncwarp(); if (lane == 0) d = dsh[slot]; }
    if (lane == 0) {
      d *= w[i];
      if (V == 2) dsh[slot] = d;
      if (d < cost[i]) { atomicAdd(&gain[c], cost[i] - d); atomicAdd(&switches[c], 1); }
      else atomicAdd(&lower[c * CENTRES + assign[i]], d - cost[i]);
    }
    if (V >= 1) __syncwarp();
  }
}
int main() {
  const int n = 65536, ncand = 8;
  float *p, *w, *cost, *gain, *lower; int *assign, *sw;
  cudaMalloc(&p, 4L * n * DIM); cudaMalloc(&w, 4 * n); cudaMalloc(&cost, 4 * n); cudaMalloc(&assign, 4 * n);
  cudaMalloc(&gain, 4 * ncand); cudaMalloc(&lower, 4 * ncand * CENTRES); cudaMalloc(&sw, 4 * ncand);
  cudaMemset(p, 0, 4L * n * DIM); cudaMemset(w, 0, 4 * n); cudaMemset(assign, 0, 4 * n);
  float one = 1; for (int i = 0; i < n; i += 2) cudaMemcpy(cost + i, &one, 4, cudaMemcpyHostToDevice);  // half the points gain
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  const int league = sms * 64, blocks = (league + 3) / 4;
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  const char *names[] = {"no warp barrier (CUDA's)", "warp barrier after lane 0's atomics", "ours: shared d, 6 barriers"};
  for (int v = 0; v < 3; v++) {
    float best = 1e9;
    for (int rep = 0; rep < 7; rep++) {
      cudaEventRecord(e0);
      for (int c = 0; c < ncand; c++) {
        if (v == 0) pgain<0><<<blocks, 128>>>(p, w, cost, assign, n, (long)c * 1000 * DIM, c, gain, lower, sw, league);
        if (v == 1) pgain<1><<<blocks, 128>>>(p, w, cost, assign, n, (long)c * 1000 * DIM, c, gain, lower, sw, league);
        if (v == 2) pgain<2><<<blocks, 128>>>(p, w, cost, assign, n, (long)c * 1000 * DIM, c, gain, lower, sw, league);
      }
      cudaEventRecord(e1); cudaEventSynchronize(e1);
      float ms; cudaEventElapsedTime(&ms, e0, e1); if (ms < best) best = ms;
    }
    printf("%-40s %.4f ms (8 launches)\n", names[v], best);
  }
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
}
