/* gaussjordan, hand-written CUDA: one block of 256 threads per matrix, the augmented
 * matrix in shared memory, __syncthreads between the steps.   ./gaussjordan_cuda [matrices] */
#include "gaussjordan.h"

__global__ void invert(float *aug) {
  __shared__ float m[GJ_SIZE];
  __shared__ float f[GJ_M];
  float *g = aug + (long)blockIdx.x * GJ_SIZE;
  const int t = threadIdx.x;
  for (int e = t; e < GJ_SIZE; e += blockDim.x) m[e] = g[e];
  __syncthreads();
  for (int k = 0; k < GJ_M; k++) {
    const float piv = m[k * GJ_W + k];
    __syncthreads();
    if (t < GJ_W) m[k * GJ_W + t] /= piv;
    if (t >= GJ_W && t < GJ_W + GJ_M) f[t - GJ_W] = m[(t - GJ_W) * GJ_W + k];
    __syncthreads();
    for (int e = t; e < GJ_SIZE; e += blockDim.x) {
      int i = e / GJ_W, j = e % GJ_W;
      if (i != k) m[e] -= f[i] * m[k * GJ_W + j];
    }
    __syncthreads();
  }
  for (int e = t; e < GJ_SIZE; e += blockDim.x) g[e] = m[e];
}

int main(int argc, char **argv) {
  const int batch = bench_arg(argc, argv, 1, 8192);
  const long n = (long)batch * GJ_SIZE;
  float *aug0 = (float *)bench_alloc(sizeof(float) * n), *aug = (float *)bench_alloc(sizeof(float) * n);
  gj_make(aug0, batch);
  bench_warmup();
  cudaEvent_t e0, e1;
  CUDA_CHECK(cudaEventCreate(&e0));
  CUDA_CHECK(cudaEventCreate(&e1));
  for (int rep = 0, reps = bench_reps(); rep < reps; rep++) {
    double t0 = bench_clock();
    float *d;
    CUDA_CHECK(cudaMalloc(&d, sizeof(float) * n));
    CUDA_CHECK(cudaMemcpy(d, aug0, sizeof(float) * n, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaEventRecord(e0));
    BENCH_LAUNCH(invert, batch, 256, d);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventRecord(e1));
    float ms = bench_event_ms(e0, e1);
    CUDA_CHECK(cudaMemcpy(aug, d, sizeof(float) * n, cudaMemcpyDeviceToHost));
    cudaFree(d);
    bench_report("gaussjordan", rep, ms * 1e-3, bench_clock() - t0);
  }
  return bench_finish(gj_check(aug0, aug, batch));
}
