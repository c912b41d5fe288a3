/* sparserows, hand-written CUDA (see sparserows.h): the vector CSR kernel, one warp per row,
 * lanes striding over the row's nonzeros and a shuffle reduction, 8 warps per block.
 *     ./sparserows_cuda [rows] [max_len] */
#include "sparserows.h"

__global__ void __launch_bounds__(256) spmv(int rows, const long *start, const int *col, const float *val,
                                            const float *x, float *y) {
  const int lane = threadIdx.x & 31;
  const int r = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  if (r >= rows) return;
  float s = 0;
  for (long k = start[r] + lane; k < start[r + 1]; k += 32) s += val[k] * x[col[k]];
  for (int off = 16; off > 0; off /= 2) s += __shfl_down_sync(0xffffffffu, s, off);
  if (lane == 0) y[r] = s;
}

int main(int argc, char **argv) {
  sr_matrix m = SR_MATRIX(argc, argv);
  const int rows = m.rows;
  float *x = (float *)bench_alloc(sizeof(float) * rows), *y = (float *)bench_alloc(sizeof(float) * rows);
  sr_vector(x, rows);
  bench_warmup();
  cudaEvent_t e0, e1;
  CUDA_CHECK(cudaEventCreate(&e0));
  CUDA_CHECK(cudaEventCreate(&e1));
  for (int rep = 0, reps = bench_reps(); rep < reps; rep++) {
    double t0 = bench_clock();
    long *d_start;
    int *d_col;
    float *d_val, *d_x, *d_y;
    CUDA_CHECK(cudaMalloc(&d_start, sizeof(long) * (rows + 1)));
    CUDA_CHECK(cudaMalloc(&d_col, sizeof(int) * m.nnz));
    CUDA_CHECK(cudaMalloc(&d_val, sizeof(float) * m.nnz));
    CUDA_CHECK(cudaMalloc(&d_x, sizeof(float) * rows));
    CUDA_CHECK(cudaMalloc(&d_y, sizeof(float) * rows));
    CUDA_CHECK(cudaMemcpy(d_start, m.start, sizeof(long) * (rows + 1), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_col, m.col, sizeof(int) * m.nnz, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_val, m.val, sizeof(float) * m.nnz, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_x, x, sizeof(float) * rows, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaEventRecord(e0));
    BENCH_LAUNCH(spmv, (rows + 7) / 8, 256, rows, (const long *)d_start, (const int *)d_col, (const float *)d_val,
                 (const float *)d_x, d_y);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventRecord(e1));
    float ms = bench_event_ms(e0, e1);
    CUDA_CHECK(cudaMemcpy(y, d_y, sizeof(float) * rows, cudaMemcpyDeviceToHost));
    cudaFree(d_start); cudaFree(d_col); cudaFree(d_val); cudaFree(d_x); cudaFree(d_y);
    bench_report(SR_NAME, rep, ms * 1e-3, bench_clock() - t0);
  }
  return bench_finish(sr_check(&m, x, y));
}
