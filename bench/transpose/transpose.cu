/* transpose, hand-written CUDA: 32x32 tiles of each (i, k) plane through shared memory
 * (padded against bank conflicts), so reads and writes are both coalesced.
 *     ./transpose_cuda [side] */
#include "transpose.h"

__global__ void permute(const float *a, float *b, int s) {
  __shared__ float tile[32][33];
  const int j = blockIdx.z, i0 = blockIdx.y * 32, k0 = blockIdx.x * 32;
  for (int r = threadIdx.y; r < 32; r += blockDim.y) {
    int i = i0 + r, k = k0 + threadIdx.x;
    if (i < s && k < s) tile[r][threadIdx.x] = a[((long)i * s + j) * s + k];
  }
  __syncthreads();
  for (int r = threadIdx.y; r < 32; r += blockDim.y) {
    int k = k0 + r, i = i0 + threadIdx.x;
    if (i < s && k < s) b[((long)k * s + j) * s + i] = tile[threadIdx.x][r];
  }
}

int main(int argc, char **argv) {
  const int s = bench_arg(argc, argv, 1, 256);
  const long n = (long)s * s * s;
  float *a = (float *)bench_alloc(sizeof(float) * n), *b = (float *)bench_alloc(sizeof(float) * n);
  for (long i = 0; i < n; i++) a[i] = (float)i;
  bench_warmup();
  cudaEvent_t e0, e1;
  CUDA_CHECK(cudaEventCreate(&e0));
  CUDA_CHECK(cudaEventCreate(&e1));
  for (int rep = 0, reps = bench_reps(); rep < reps; rep++) {
    double t0 = bench_clock();
    float *d_a, *d_b;
    CUDA_CHECK(cudaMalloc(&d_a, sizeof(float) * n));
    CUDA_CHECK(cudaMalloc(&d_b, sizeof(float) * n));
    CUDA_CHECK(cudaMemcpy(d_a, a, sizeof(float) * n, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaEventRecord(e0));
    BENCH_LAUNCH(permute, dim3((s + 31) / 32, (s + 31) / 32, s), dim3(32, 8), (const float *)d_a, d_b, s);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventRecord(e1));
    float ms = bench_event_ms(e0, e1);
    CUDA_CHECK(cudaMemcpy(b, d_b, sizeof(float) * n, cudaMemcpyDeviceToHost));
    cudaFree(d_a);
    cudaFree(d_b);
    bench_report("transpose", rep, ms * 1e-3, bench_clock() - t0);
  }
  return bench_finish(tr_check(a, b, s));
}
