/* kmeans, hand-written CUDA: assignment one thread per point with the centres in shared
 * memory; update one block per centre coordinate with a shared-memory tree reduction.
 *     ./kmeans_cuda [points] [iterations] */
#include "kmeans.h"

__global__ void assign(const float *x, int n, const double *centre, int *member) {
  __shared__ double c[KM_K * KM_F];
  for (int k = threadIdx.x; k < KM_K * KM_F; k += blockDim.x) c[k] = centre[k];
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) member[i] = km_nearest(x, n, i, c);
}

__global__ void update(const float *x, int n, const int *member, double *centre) {
  __shared__ double ssum[256];
  __shared__ int scnt[256];
  const int cf = blockIdx.x, c = cf / KM_F, f = cf % KM_F;
  double sum = 0;
  int cnt = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    if (member[i] == c) {
      sum += x[(long)f * n + i];
      cnt++;
    }
  ssum[threadIdx.x] = sum;
  scnt[threadIdx.x] = cnt;
  __syncthreads();
  for (int s = 128; s; s >>= 1) {
    if (threadIdx.x < s) {
      ssum[threadIdx.x] += ssum[threadIdx.x + s];
      scnt[threadIdx.x] += scnt[threadIdx.x + s];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0 && scnt[0]) centre[cf] = ssum[0] / scnt[0];
}

int main(int argc, char **argv) {
  const int n = bench_arg(argc, argv, 1, 494020), iters = bench_arg(argc, argv, 2, 5);
  float *x = (float *)bench_alloc(sizeof(float) * n * KM_F);
  double *centre0 = (double *)bench_alloc(sizeof(double) * KM_K * KM_F);
  double *centre = (double *)bench_alloc(sizeof(double) * KM_K * KM_F);
  int *member = (int *)bench_alloc(sizeof(int) * n);
  km_make(x, n, centre0);
  bench_warmup();
  cudaEvent_t e0, e1;
  CUDA_CHECK(cudaEventCreate(&e0));
  CUDA_CHECK(cudaEventCreate(&e1));
  for (int rep = 0, reps = bench_reps(); rep < reps; rep++) {
    double t0 = bench_clock();
    float *d_x;
    double *d_c;
    int *d_m;
    CUDA_CHECK(cudaMalloc(&d_x, sizeof(float) * n * KM_F));
    CUDA_CHECK(cudaMalloc(&d_c, sizeof(double) * KM_K * KM_F));
    CUDA_CHECK(cudaMalloc(&d_m, sizeof(int) * n));
    CUDA_CHECK(cudaMemcpy(d_x, x, sizeof(float) * n * KM_F, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_c, centre0, sizeof(double) * KM_K * KM_F, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaEventRecord(e0));
    for (int it = 0; it < iters; it++) {
      BENCH_LAUNCH(assign, (n + 255) / 256, 256, (const float *)d_x, n, (const double *)d_c, d_m);
      BENCH_LAUNCH(update, KM_K * KM_F, 256, (const float *)d_x, n, (const int *)d_m, d_c);
    }
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventRecord(e1));
    float ms = bench_event_ms(e0, e1);
    CUDA_CHECK(cudaMemcpy(centre, d_c, sizeof(double) * KM_K * KM_F, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(member, d_m, sizeof(int) * n, cudaMemcpyDeviceToHost));
    cudaFree(d_x);
    cudaFree(d_c);
    cudaFree(d_m);
    bench_report("kmeans", rep, ms * 1e-3, bench_clock() - t0);
  }
  return bench_finish(km_check(x, n, iters, centre, member));
}
