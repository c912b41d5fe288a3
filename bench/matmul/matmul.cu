/* matmul, hand-written CUDA: 32 x 32 tiles of A and B through shared memory, one output
 * per thread (the textbook tiled kernel, no tensor cores). */
#include "matmul.h"
#define MM_TILE 32

__global__ void matmul(const double *a, const double *b, double *c, int n) {
  __shared__ double ta[MM_TILE][MM_TILE], tb[MM_TILE][MM_TILE];
  const int i = blockIdx.y * MM_TILE + threadIdx.y, j = blockIdx.x * MM_TILE + threadIdx.x;
  double sum = 0;
  for (int k0 = 0; k0 < n; k0 += MM_TILE) {
    ta[threadIdx.y][threadIdx.x] = i < n && k0 + threadIdx.x < n ? a[(long)i * n + k0 + threadIdx.x] : 0.0;
    tb[threadIdx.y][threadIdx.x] = j < n && k0 + threadIdx.y < n ? b[(long)(k0 + threadIdx.y) * n + j] : 0.0;
    __syncthreads();
    for (int k = 0; k < MM_TILE; k++) sum += ta[threadIdx.y][k] * tb[k][threadIdx.x];
    __syncthreads();
  }
  if (i < n && j < n) c[(long)i * n + j] = sum;
}

int main(int argc, char **argv) {
  const int n = bench_arg(argc, argv, 1, 2048);
  const long nn = (long)n * n;
  double *a = (double *)bench_alloc(sizeof(double) * nn), *b = (double *)bench_alloc(sizeof(double) * nn),
         *c = (double *)bench_alloc(sizeof(double) * nn);
  mm_fill(a, b, n);
  bench_warmup();
  cudaEvent_t e0, e1;
  CUDA_CHECK(cudaEventCreate(&e0));
  CUDA_CHECK(cudaEventCreate(&e1));
  for (int rep = 0, reps = bench_reps(); rep < reps; rep++) {
    double t0 = bench_clock();
    double *da, *db, *dc;
    CUDA_CHECK(cudaMalloc(&da, sizeof(double) * nn));
    CUDA_CHECK(cudaMalloc(&db, sizeof(double) * nn));
    CUDA_CHECK(cudaMalloc(&dc, sizeof(double) * nn));
    CUDA_CHECK(cudaMemcpy(da, a, sizeof(double) * nn, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(db, b, sizeof(double) * nn, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaEventRecord(e0));
    BENCH_LAUNCH(matmul, dim3((n + MM_TILE - 1) / MM_TILE, (n + MM_TILE - 1) / MM_TILE), dim3(MM_TILE, MM_TILE),
                 (const double *)da, (const double *)db, dc, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventRecord(e1));
    float ms = bench_event_ms(e0, e1);
    CUDA_CHECK(cudaMemcpy(c, dc, sizeof(double) * nn, cudaMemcpyDeviceToHost));
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    bench_report("matmul", rep, ms * 1e-3, bench_clock() - t0);
  }
  return bench_finish(mm_check(a, b, c, n));
}
