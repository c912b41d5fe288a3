/* lud, hand-written CUDA: per step k one kernel over 16x16 tiles of the trailing matrix;
 * the tile's pivot-row segment and multipliers go through shared memory, and the
 * multipliers are stored by a second small kernel.   ./lud_cuda [n] */
#include "lud.h"

#define TILE 16

__global__ void step(float *a, int n, int k) {
  __shared__ float prow[TILE], mult[TILE];
  const int i = k + 1 + blockIdx.y * TILE + threadIdx.y, j = k + 1 + blockIdx.x * TILE + threadIdx.x;
  if (threadIdx.y == 0 && j < n) prow[threadIdx.x] = a[(long)k * n + j];
  if (threadIdx.x == 0 && i < n) mult[threadIdx.y] = a[(long)i * n + k] / a[(long)k * n + k];
  __syncthreads();
  if (i < n && j < n) a[(long)i * n + j] -= mult[threadIdx.y] * prow[threadIdx.x];
}

/* after the update: no block of `step` reads column k any more */
__global__ void store_multipliers(float *a, int n, int k) {
  const int i = k + 1 + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[(long)i * n + k] /= a[(long)k * n + k];
}

int main(int argc, char **argv) {
  const int n = bench_arg(argc, argv, 1, 1024);
  const long nn = (long)n * n;
  float *a0 = (float *)bench_alloc(sizeof(float) * nn), *a = (float *)bench_alloc(sizeof(float) * nn);
  lud_make(a0, n);
  bench_warmup();
  cudaEvent_t e0, e1;
  CUDA_CHECK(cudaEventCreate(&e0));
  CUDA_CHECK(cudaEventCreate(&e1));
  for (int rep = 0, reps = bench_reps(); rep < reps; rep++) {
    double t0 = bench_clock();
    float *d_a;
    CUDA_CHECK(cudaMalloc(&d_a, sizeof(float) * nn));
    CUDA_CHECK(cudaMemcpy(d_a, a0, sizeof(float) * nn, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaEventRecord(e0));
    for (int k = 0; k < n - 1; k++) {
      int m = (n - k - 1 + TILE - 1) / TILE;
      BENCH_LAUNCH(step, dim3(m, m), dim3(TILE, TILE), d_a, n, k);
      BENCH_LAUNCH(store_multipliers, (n - k - 1 + 127) / 128, 128, d_a, n, k);
    }
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventRecord(e1));
    float ms = bench_event_ms(e0, e1);
    CUDA_CHECK(cudaMemcpy(a, d_a, sizeof(float) * nn, cudaMemcpyDeviceToHost));
    cudaFree(d_a);
    bench_report("lud", rep, ms * 1e-3, bench_clock() - t0);
  }
  return bench_finish(lud_check(a0, a, n));
}
