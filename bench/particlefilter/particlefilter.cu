/* particlefilter, hand-written CUDA: likelihood one thread per particle with the disk in
 * shared memory; resampling one thread per new particle with a binary search of the CDF
 * (same answer as the linear search: the first i with cdf[i] >= u).
 *     ./particlefilter_cuda [particles] */
#include "particlefilter.h"

__global__ void likelihood(const unsigned char *img, const float *px, const float *py, int n, const int *dy,
                           const int *dx, int nd, float *like) {
  __shared__ int sdy[PF_MAXDISK], sdx[PF_MAXDISK];
  for (int k = threadIdx.x; k < nd; k += blockDim.x) {
    sdy[k] = dy[k];
    sdx[k] = dx[k];
  }
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = 0;
  for (int k = 0; k < nd; k++) s += pf_pixel_term(img, px[i], py[i], sdy[k], sdx[k]);
  like[i] = s;
}

__global__ void resample(const double *cdf, const float *px, const float *py, int n, int *pick, float *nx, float *ny) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n) return;
  const double u = (j + 0.5) / n;
  int lo = 0, hi = n - 1; /* first index in [lo, hi] with cdf >= u; cdf[n-1] = 1 */
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (cdf[mid] >= u) hi = mid;
    else lo = mid + 1;
  }
  pick[j] = lo;
  nx[j] = px[lo];
  ny[j] = py[lo];
}

int main(int argc, char **argv) {
  const int n = bench_arg(argc, argv, 1, 16384);
  unsigned char *img = (unsigned char *)bench_alloc(PF_SIDE * PF_SIDE);
  float *px = (float *)bench_alloc(sizeof(float) * n), *py = (float *)bench_alloc(sizeof(float) * n);
  float *nx = (float *)bench_alloc(sizeof(float) * n), *ny = (float *)bench_alloc(sizeof(float) * n);
  float *like = (float *)bench_alloc(sizeof(float) * n);
  double *cdf = (double *)bench_alloc(sizeof(double) * n);
  int *pick = (int *)bench_alloc(sizeof(int) * n);
  int dy[PF_MAXDISK], dx[PF_MAXDISK];
  const int nd = pf_disk(dy, dx);
  pf_make(img, px, py, n);
  bench_warmup();
  cudaEvent_t e0, e1, e2, e3;
  CUDA_CHECK(cudaEventCreate(&e0));
  CUDA_CHECK(cudaEventCreate(&e1));
  CUDA_CHECK(cudaEventCreate(&e2));
  CUDA_CHECK(cudaEventCreate(&e3));
  for (int rep = 0, reps = bench_reps(); rep < reps; rep++) {
    double t0 = bench_clock();
    unsigned char *d_img;
    float *d_px, *d_py, *d_nx, *d_ny, *d_like;
    int *d_dy, *d_dx, *d_pick;
    double *d_cdf;
    CUDA_CHECK(cudaMalloc(&d_img, PF_SIDE * PF_SIDE));
    CUDA_CHECK(cudaMalloc(&d_px, sizeof(float) * n));
    CUDA_CHECK(cudaMalloc(&d_py, sizeof(float) * n));
    CUDA_CHECK(cudaMalloc(&d_nx, sizeof(float) * n));
    CUDA_CHECK(cudaMalloc(&d_ny, sizeof(float) * n));
    CUDA_CHECK(cudaMalloc(&d_like, sizeof(float) * n));
    CUDA_CHECK(cudaMalloc(&d_dy, sizeof(int) * nd));
    CUDA_CHECK(cudaMalloc(&d_dx, sizeof(int) * nd));
    CUDA_CHECK(cudaMalloc(&d_pick, sizeof(int) * n));
    CUDA_CHECK(cudaMalloc(&d_cdf, sizeof(double) * n));
    CUDA_CHECK(cudaMemcpy(d_img, img, PF_SIDE * PF_SIDE, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_px, px, sizeof(float) * n, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_py, py, sizeof(float) * n, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_dy, dy, sizeof(int) * nd, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_dx, dx, sizeof(int) * nd, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaEventRecord(e0));
    BENCH_LAUNCH(likelihood, (n + 127) / 128, 128, (const unsigned char *)d_img, (const float *)d_px, (const float *)d_py, n,
                 (const int *)d_dy, (const int *)d_dx, nd, d_like);
    CUDA_CHECK(cudaEventRecord(e1));
    float ms = bench_event_ms(e0, e1);
    CUDA_CHECK(cudaMemcpy(like, d_like, sizeof(float) * n, cudaMemcpyDeviceToHost));
    pf_cdf(like, n, nd, cdf);
    CUDA_CHECK(cudaMemcpy(d_cdf, cdf, sizeof(double) * n, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaEventRecord(e2));
    BENCH_LAUNCH(resample, (n + 127) / 128, 128, (const double *)d_cdf, (const float *)d_px, (const float *)d_py, n, d_pick, d_nx, d_ny);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventRecord(e3));
    ms += bench_event_ms(e2, e3);
    CUDA_CHECK(cudaMemcpy(pick, d_pick, sizeof(int) * n, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(nx, d_nx, sizeof(float) * n, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(ny, d_ny, sizeof(float) * n, cudaMemcpyDeviceToHost));
    cudaFree(d_img); cudaFree(d_px); cudaFree(d_py); cudaFree(d_nx); cudaFree(d_ny);
    cudaFree(d_like); cudaFree(d_dy); cudaFree(d_dx); cudaFree(d_pick); cudaFree(d_cdf);
    bench_report("particlefilter", rep, ms * 1e-3, bench_clock() - t0);
  }
  int moved_ok = 1;
  for (int j = 0; j < n; j++) moved_ok &= nx[j] == px[pick[j]] && ny[j] == py[pick[j]];
  return bench_finish(moved_ok && pf_check(img, px, py, n, like, cdf, pick));
}
