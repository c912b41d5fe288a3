// sparserows short rows: block-of-256 per row vs warp per row (8 per block) vs 16 lanes vs thread per row
#include <cstdio>
#include <cmath>
#include <cuda_runtime.h>
__global__ void __launch_bounds__(256) block_row(int rows, const long *st, const int *col, const float *val, const float *x, float *y) {
  __shared__ float red[8];
  for (int r = blockIdx.x; r < rows; r += gridDim.x) {
    float s = 0;
    for (long k = st[r] + threadIdx.x; k < st[r + 1]; k += 256) s += val[k] * x[col[k]];
    for (int o = 16; o; o /= 2) s += __shfl_down_sync(~0u, s, o);
    if ((threadIdx.x & 31) == 0) red[threadIdx.x >> 5] = s;
    __syncthreads();
    if (threadIdx.x == 0) { float t = 0; for (int w = 0; w < 8; w++) t += red[w]; y[r] = t; }
    __syncthreads();
  }
}
template <int W>
__global__ void __launch_bounds__(256) lanes_row(int rows, const long *st, const int *col, const float *val, const float *x, float *y) {
  const int lane = threadIdx.x % W;
  for (int r = blockIdx.x * (256 / W) + threadIdx.x / W; r < rows; r += gridDim.x * (256 / W)) {
    float s = 0;
    for (long k = st[r] + lane; k < st[r + 1]; k += W) s += val[k] * x[col[k]];
    for (int o = W / 2; o; o /= 2) s += __shfl_down_sync(~0u, s, o, W);
    if (lane == 0) y[r] = s;
  }
}
static unsigned hsh(unsigned v) { v ^= v >> 16; v *= 0x7feb352du; v ^= v >> 15; v *= 0x846ca68bu; v ^= v >> 16; return v; }
int main() {
  const int rows = 1 << 20, max_len = 1024;
  long *st = (long *)malloc(8L * (rows + 1)); long nnz = 0;
  for (int r = 0; r < rows; r++) { st[r] = nnz; unsigned rank = hsh(r * 2654435761u + 7u) % rows; double l = max_len / pow(1.0 + rank, 1.5); nnz += l < 1 ? 1 : (int)l; }
  st[rows] = nnz;
  int *col = (int *)malloc(4 * nnz); float *val = (float *)malloc(4 * nnz), *x = (float *)malloc(4 * rows);
  for (long k = 0; k < nnz; k++) { col[k] = hsh(k * 40503u) % rows; val[k] = (hsh(k) % 1000) / 1000.f; }
  for (int i = 0; i < rows; i++) x[i] = (hsh(i + 11) % 1000) / 1000.f;
  long *dst; int *dcol; float *dval, *dx, *dy;
  cudaMalloc(&dst, 8L * (rows + 1)); cudaMalloc(&dcol, 4 * nnz); cudaMalloc(&dval, 4 * nnz); cudaMalloc(&dx, 4 * rows); cudaMalloc(&dy, 4 * rows);
  cudaMemcpy(dst, st, 8L * (rows + 1), cudaMemcpyHostToDevice); cudaMemcpy(dcol, col, 4 * nnz, cudaMemcpyHostToDevice);
  cudaMemcpy(dval, val, 4 * nnz, cudaMemcpyHostToDevice); cudaMemcpy(dx, x, 4 * rows, cudaMemcpyHostToDevice);
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  printf("rows %d nnz %ld sms %d\n", rows, nnz, sms);
  const char *names[] = {"block256/row grid=rows", "block256/row grid=8*sms", "warp/row", "16 lanes/row", "8 lanes/row", "thread/row", "warp/row grid=8*sms"};
  for (int v = 0; v < 7; v++) {
    float best = 1e9;
    for (int rep = 0; rep < 7; rep++) {
      cudaEventRecord(e0);
      switch (v) {
        case 0: block_row<<<rows, 256>>>(rows, dst, dcol, dval, dx, dy); break;
        case 1: block_row<<<8 * sms, 256>>>(rows, dst, dcol, dval, dx, dy); break;
        case 2: lanes_row<32><<<rows / 8, 256>>>(rows, dst, dcol, dval, dx, dy); break;
        case 3: lanes_row<16><<<rows / 16, 256>>>(rows, dst, dcol, dval, dx, dy); break;
        case 4: lanes_row<8><<<rows / 32, 256>>>(rows, dst, dcol, dval, dx, dy); break;
        case 5: lanes_row<1><<<rows / 256, 256>>>(rows, dst, dcol, dval, dx, dy); break;
        case 6: lanes_row<32><<<8 * sms, 256>>>(rows, dst, dcol, dval, dx, dy); break;
      }
      cudaEventRecord(e1); cudaEventSynchronize(e1);
      float ms; cudaEventElapsedTime(&ms, e0, e1); if (ms < best) best = ms;
    }
    printf("%-26s %.4f ms\n", names[v], best);
  }
}
