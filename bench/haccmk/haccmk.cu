/* haccmk, hand-written CUDA: one thread per particle, the neighbours staged through
 * shared memory in tiles of 256.   ./haccmk_cuda [particles] [neighbours] */
#include "haccmk.h"

#define TILE 256

__global__ void __launch_bounds__(TILE) kick(const float *x, const float *y, const float *z, int n, const float *nx,
                                             const float *ny, const float *nz, const float *nm, int nn, float *vx,
                                             float *vy, float *vz) {
  __shared__ float sx[TILE], sy[TILE], sz[TILE], sm[TILE];
  const int i = blockIdx.x * TILE + threadIdx.x;
  const float xi = i < n ? x[i] : 0, yi = i < n ? y[i] : 0, zi = i < n ? z[i] : 0;
  float fx = 0, fy = 0, fz = 0;
  for (int base = 0; base < nn; base += TILE) {
    int j = base + threadIdx.x;
    __syncthreads();
    sx[threadIdx.x] = j < nn ? nx[j] : 0;
    sy[threadIdx.x] = j < nn ? ny[j] : 0;
    sz[threadIdx.x] = j < nn ? nz[j] : 0;
    sm[threadIdx.x] = j < nn ? nm[j] : 0;
    __syncthreads();
    int count = nn - base < TILE ? nn - base : TILE;
    for (int t = 0; t < count; t++) {
      float dx = sx[t] - xi, dy = sy[t] - yi, dz = sz[t] - zi;
      float f = hm_force(dx * dx + dy * dy + dz * dz, sm[t]);
      fx += f * dx;
      fy += f * dy;
      fz += f * dz;
    }
  }
  if (i < n) {
    vx[i] = fx * HM_DT;
    vy[i] = fy * HM_DT;
    vz[i] = fz * HM_DT;
  }
}

int main(int argc, char **argv) {
  const int n = bench_arg(argc, argv, 1, 16384), nn = bench_arg(argc, argv, 2, 4096);
  float *h[10];
  const int sizes[10] = {n, n, n, n, n, n, nn, nn, nn, nn};
  for (int k = 0; k < 10; k++) h[k] = (float *)bench_alloc(sizeof(float) * sizes[k]);
  hm_make(h[0], h[1], h[2], NULL, n, 20);
  hm_make(h[6], h[7], h[8], h[9], nn, 30);
  bench_warmup();
  cudaEvent_t e0, e1;
  CUDA_CHECK(cudaEventCreate(&e0));
  CUDA_CHECK(cudaEventCreate(&e1));
  for (int rep = 0, reps = bench_reps(); rep < reps; rep++) {
    double t0 = bench_clock();
    float *d[10];
    for (int k = 0; k < 10; k++) {
      CUDA_CHECK(cudaMalloc(&d[k], sizeof(float) * sizes[k]));
      if (k < 3 || k >= 6) CUDA_CHECK(cudaMemcpy(d[k], h[k], sizeof(float) * sizes[k], cudaMemcpyHostToDevice));
    }
    CUDA_CHECK(cudaEventRecord(e0));
    BENCH_LAUNCH(kick, (n + TILE - 1) / TILE, TILE, (const float *)d[0], (const float *)d[1], (const float *)d[2], n,
                 (const float *)d[6], (const float *)d[7], (const float *)d[8], (const float *)d[9], nn, d[3], d[4], d[5]);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventRecord(e1));
    float ms = bench_event_ms(e0, e1);
    for (int k = 3; k < 6; k++) CUDA_CHECK(cudaMemcpy(h[k], d[k], sizeof(float) * n, cudaMemcpyDeviceToHost));
    for (int k = 0; k < 10; k++) cudaFree(d[k]);
    bench_report("haccmk", rep, ms * 1e-3, bench_clock() - t0);
  }
  return bench_finish(hm_check(h[0], h[1], h[2], n, h[6], h[7], h[8], h[9], nn, h[3], h[4], h[5]));
}
