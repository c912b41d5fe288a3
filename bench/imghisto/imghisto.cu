/* imghisto, hand-written CUDA: a shared-memory histogram per block over a band of rows,
 * shared atomics, then one global atomic per non-empty bin.   ./imghisto_cuda [side] [bins] */
#include "imghisto.h"

__global__ void histo(const unsigned short *img, int side, int nbins, unsigned *hist) {
  __shared__ unsigned bins[IH_MAX_BINS];
  for (int b = threadIdx.x; b < nbins; b += blockDim.x) bins[b] = 0;
  __syncthreads();
  const long first = (long)blockIdx.x * IH_ROWS_PER_TEAM * side, count = (long)IH_ROWS_PER_TEAM * side;
  for (long i = threadIdx.x; i < count; i += blockDim.x) atomicAdd(&bins[img[first + i] * nbins / 4096], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < nbins; b += blockDim.x)
    if (bins[b]) atomicAdd(&hist[b], bins[b]);
}

int main(int argc, char **argv) {
  int side = bench_arg(argc, argv, 1, 4096), nbins = bench_arg(argc, argv, 2, 256);
  if (nbins > IH_MAX_BINS) nbins = IH_MAX_BINS;
  side = (side + IH_ROWS_PER_TEAM - 1) / IH_ROWS_PER_TEAM * IH_ROWS_PER_TEAM;
  const long n = (long)side * side;
  unsigned short *img = (unsigned short *)bench_alloc(sizeof(unsigned short) * n);
  unsigned *hist = (unsigned *)bench_alloc(sizeof(unsigned) * nbins);
  ih_make_image(img, side);
  bench_warmup();
  cudaEvent_t e0, e1;
  CUDA_CHECK(cudaEventCreate(&e0));
  CUDA_CHECK(cudaEventCreate(&e1));
  for (int rep = 0, reps = bench_reps(); rep < reps; rep++) {
    double t0 = bench_clock();
    unsigned short *d_img;
    unsigned *d_hist;
    CUDA_CHECK(cudaMalloc(&d_img, sizeof(unsigned short) * n));
    CUDA_CHECK(cudaMalloc(&d_hist, sizeof(unsigned) * nbins));
    CUDA_CHECK(cudaMemcpy(d_img, img, sizeof(unsigned short) * n, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_hist, 0, sizeof(unsigned) * nbins));
    CUDA_CHECK(cudaEventRecord(e0));
    BENCH_LAUNCH(histo, side / IH_ROWS_PER_TEAM, 256, (const unsigned short *)d_img, side, nbins, d_hist);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventRecord(e1));
    float ms = bench_event_ms(e0, e1);
    CUDA_CHECK(cudaMemcpy(hist, d_hist, sizeof(unsigned) * nbins, cudaMemcpyDeviceToHost));
    cudaFree(d_img);
    cudaFree(d_hist);
    bench_report("imghisto", rep, ms * 1e-3, bench_clock() - t0);
  }
  return bench_finish(ih_check(img, side, nbins, hist));
}
