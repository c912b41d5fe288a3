/* streamcluster, hand-written CUDA: one warp per point (coalesced 128-float rows, shuffle
 * reduction), the candidate in shared memory, per-block totals in shared memory flushed with
 * one global atomic each.   ./streamcluster_cuda [points] [candidates] */
#include "streamcluster.h"

#define WARPS 8

__global__ void pgain(const float *p, const float *w, const float *cost, const int *assign, int n, long xo, int c,
                      float *gain, float *lower, int *switches) {
  __shared__ float x[SC_DIM], bl[SC_CENTRES], bg;
  __shared__ int bs;
  for (int k = threadIdx.x; k < SC_DIM; k += blockDim.x) x[k] = p[xo + k];
  for (int k = threadIdx.x; k < SC_CENTRES; k += blockDim.x) bl[k] = 0;
  if (threadIdx.x == 0) {
    bg = 0;
    bs = 0;
  }
  __syncthreads();
  const int lane = threadIdx.x & 31;
  for (int i = blockIdx.x * WARPS + threadIdx.x / 32; i < n; i += gridDim.x * WARPS) {
    float d = 0;
    for (int k = lane; k < SC_DIM; k += 32) {
      float t = p[(long)i * SC_DIM + k] - x[k];
      d += t * t;
    }
    for (int o = 16; o; o >>= 1) d += __shfl_xor_sync(0xffffffffu, d, o);
    if (lane == 0) {
      d *= w[i];
      if (d < cost[i]) {
        atomicAdd(&bg, cost[i] - d);
        atomicAdd(&bs, 1);
      } else
        atomicAdd(&bl[assign[i]], d - cost[i]);
    }
  }
  __syncthreads();
  for (int k = threadIdx.x; k < SC_CENTRES; k += blockDim.x)
    if (bl[k] != 0) atomicAdd(&lower[c * SC_CENTRES + k], bl[k]);
  if (threadIdx.x == 0) {
    atomicAdd(&gain[c], bg);
    atomicAdd(&switches[c], bs);
  }
}

int main(int argc, char **argv) {
  const int n = bench_arg(argc, argv, 1, 65536), ncand = bench_arg(argc, argv, 2, 8);
  const long np = (long)n * SC_DIM;
  float *p = (float *)bench_alloc(sizeof(float) * np), *w = (float *)bench_alloc(sizeof(float) * n);
  float *cost = (float *)bench_alloc(sizeof(float) * n);
  int *assign = (int *)bench_alloc(sizeof(int) * n);
  float *gain = (float *)bench_alloc(sizeof(float) * ncand), *lower = (float *)bench_alloc(sizeof(float) * ncand * SC_CENTRES);
  int *switches = (int *)bench_alloc(sizeof(int) * ncand);
  sc_make(p, w, cost, assign, n);
  bench_warmup();
  cudaEvent_t e0, e1;
  CUDA_CHECK(cudaEventCreate(&e0));
  CUDA_CHECK(cudaEventCreate(&e1));
  for (int rep = 0, reps = bench_reps(); rep < reps; rep++) {
    double t0 = bench_clock();
    float *d_p, *d_w, *d_cost, *d_gain, *d_lower;
    int *d_assign, *d_sw;
    CUDA_CHECK(cudaMalloc(&d_p, sizeof(float) * np));
    CUDA_CHECK(cudaMalloc(&d_w, sizeof(float) * n));
    CUDA_CHECK(cudaMalloc(&d_cost, sizeof(float) * n));
    CUDA_CHECK(cudaMalloc(&d_assign, sizeof(int) * n));
    CUDA_CHECK(cudaMalloc(&d_gain, sizeof(float) * ncand));
    CUDA_CHECK(cudaMalloc(&d_lower, sizeof(float) * ncand * SC_CENTRES));
    CUDA_CHECK(cudaMalloc(&d_sw, sizeof(int) * ncand));
    CUDA_CHECK(cudaMemcpy(d_p, p, sizeof(float) * np, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_w, w, sizeof(float) * n, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_cost, cost, sizeof(float) * n, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_assign, assign, sizeof(int) * n, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_gain, 0, sizeof(float) * ncand));
    CUDA_CHECK(cudaMemset(d_lower, 0, sizeof(float) * ncand * SC_CENTRES));
    CUDA_CHECK(cudaMemset(d_sw, 0, sizeof(int) * ncand));
    CUDA_CHECK(cudaEventRecord(e0));
    for (int c = 0; c < ncand; c++)
      BENCH_LAUNCH(pgain, (n + WARPS - 1) / WARPS < 1024 ? (n + WARPS - 1) / WARPS : 1024, WARPS * 32, (const float *)d_p,
                   (const float *)d_w, (const float *)d_cost, (const int *)d_assign, n, (long)sc_candidate(c, n) * SC_DIM, c,
                   d_gain, d_lower, d_sw);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventRecord(e1));
    float ms = bench_event_ms(e0, e1);
    CUDA_CHECK(cudaMemcpy(gain, d_gain, sizeof(float) * ncand, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(lower, d_lower, sizeof(float) * ncand * SC_CENTRES, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(switches, d_sw, sizeof(int) * ncand, cudaMemcpyDeviceToHost));
    cudaFree(d_p); cudaFree(d_w); cudaFree(d_cost); cudaFree(d_assign); cudaFree(d_gain); cudaFree(d_lower); cudaFree(d_sw);
    bench_report("streamcluster", rep, ms * 1e-3, bench_clock() - t0);
  }
  return bench_finish(sc_check(p, w, cost, assign, n, ncand, gain, lower, switches));
}
