/* stencil, hand-written CUDA: one thread per interior point, 32 x 8 blocks (rows of a block
 * read consecutive addresses); the same unrolled expression as the OpenMP version. */
#include "stencil.h"

__global__ void star(const double *in, double *out, int n) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x + STENCIL_R;
  const int i = blockIdx.y * blockDim.y + threadIdx.y + STENCIL_R;
  if (i < n - STENCIL_R && j < n - STENCIL_R) out[(long)i * n + j] += 0.0 ST_STAR;
}

int main(int argc, char **argv) {
  const int n = st_order(argc, argv);
  const long nn = (long)n * n;
  double *in = (double *)bench_alloc(sizeof(double) * nn), *out = (double *)bench_alloc(sizeof(double) * nn);
  st_fill(in, n);
  bench_warmup();
  cudaEvent_t e0, e1;
  CUDA_CHECK(cudaEventCreate(&e0));
  CUDA_CHECK(cudaEventCreate(&e1));
  const int inner = n - 2 * STENCIL_R;
  for (int rep = 0, reps = bench_reps(); rep < reps; rep++) {
    double t0 = bench_clock();
    double *din, *dout;
    CUDA_CHECK(cudaMalloc(&din, sizeof(double) * nn));
    CUDA_CHECK(cudaMalloc(&dout, sizeof(double) * nn));
    CUDA_CHECK(cudaMemcpy(din, in, sizeof(double) * nn, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(dout, 0, sizeof(double) * nn));
    CUDA_CHECK(cudaEventRecord(e0));
    for (int sweep = 0; sweep < STENCIL_SWEEPS; sweep++)
      BENCH_LAUNCH(star, dim3((inner + 31) / 32, (inner + 7) / 8), dim3(32, 8), (const double *)din, dout, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventRecord(e1));
    float ms = bench_event_ms(e0, e1);
    CUDA_CHECK(cudaMemcpy(out, dout, sizeof(double) * nn, cudaMemcpyDeviceToHost));
    cudaFree(din);
    cudaFree(dout);
    bench_report("stencil", rep, ms * 1e-3, bench_clock() - t0);
  }
  return bench_finish(st_check(in, out, n));
}
