/* tiledtranspose, hand-written CUDA: each 32 x 32 tile through shared memory (padded
 * against bank conflicts), so reads and writes are both coalesced. */
#include "tiledtranspose.h"

__global__ void transpose_add(const double *a, double *b, int n) {
  __shared__ double tile[TT_TILE][TT_TILE + 1];
  const int i0 = blockIdx.y * TT_TILE, j0 = blockIdx.x * TT_TILE;
  for (int r = threadIdx.y; r < TT_TILE; r += blockDim.y) tile[r][threadIdx.x] = a[(long)(i0 + r) * n + j0 + threadIdx.x];
  __syncthreads();
  for (int r = threadIdx.y; r < TT_TILE; r += blockDim.y) b[(long)(j0 + r) * n + i0 + threadIdx.x] += tile[threadIdx.x][r];
}

int main(int argc, char **argv) {
  const int n = tt_order(argc, argv);
  const long nn = (long)n * n;
  double *a = (double *)bench_alloc(sizeof(double) * nn), *b = (double *)bench_alloc(sizeof(double) * nn);
  tt_fill(a, n);
  bench_warmup();
  cudaEvent_t e0, e1;
  CUDA_CHECK(cudaEventCreate(&e0));
  CUDA_CHECK(cudaEventCreate(&e1));
  for (int rep = 0, reps = bench_reps(); rep < reps; rep++) {
    double t0 = bench_clock();
    double *da, *db;
    CUDA_CHECK(cudaMalloc(&da, sizeof(double) * nn));
    CUDA_CHECK(cudaMalloc(&db, sizeof(double) * nn));
    CUDA_CHECK(cudaMemcpy(da, a, sizeof(double) * nn, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(db, 0, sizeof(double) * nn));
    CUDA_CHECK(cudaEventRecord(e0));
    for (int sweep = 0; sweep < TT_SWEEPS; sweep++)
      BENCH_LAUNCH(transpose_add, dim3(n / TT_TILE, n / TT_TILE), dim3(TT_TILE, 8), (const double *)da, db, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventRecord(e1));
    float ms = bench_event_ms(e0, e1);
    CUDA_CHECK(cudaMemcpy(b, db, sizeof(double) * nn, cudaMemcpyDeviceToHost));
    cudaFree(da);
    cudaFree(db);
    bench_report("tiledtranspose", rep, ms * 1e-3, bench_clock() - t0);
  }
  return bench_finish(tt_check(b, n));
}
