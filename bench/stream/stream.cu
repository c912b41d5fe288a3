/* stream, hand-written CUDA: a grid-stride triad, 8 blocks of 256 threads per SM. */
#include "stream.h"

__global__ void triad(double *a, const double *b, const double *c, double s, long n) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x)
    a[i] = b[i] + s * c[i];
}

int main(int argc, char **argv) {
  const long n = stream_length(argc, argv);
  double *a = (double *)bench_alloc(sizeof(double) * n);
  double *b = (double *)bench_alloc(sizeof(double) * n);
  double *c = (double *)bench_alloc(sizeof(double) * n);
  stream_fill(b, c, n);
  int sms = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  bench_warmup();
  cudaEvent_t e0, e1;
  CUDA_CHECK(cudaEventCreate(&e0));
  CUDA_CHECK(cudaEventCreate(&e1));
  double kernel = 0;
  for (int rep = 0, reps = bench_reps(); rep < reps; rep++) {
    double t0 = bench_clock();
    double *da, *db, *dc;
    CUDA_CHECK(cudaMalloc(&da, sizeof(double) * n));
    CUDA_CHECK(cudaMalloc(&db, sizeof(double) * n));
    CUDA_CHECK(cudaMalloc(&dc, sizeof(double) * n));
    CUDA_CHECK(cudaMemcpy(db, b, sizeof(double) * n, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dc, c, sizeof(double) * n, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaEventRecord(e0));
    for (int sweep = 0; sweep < STREAM_SWEEPS; sweep++)
      BENCH_LAUNCH(triad, sms * 8, 256, da, (const double *)db, (const double *)dc, STREAM_SCALAR, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventRecord(e1));
    kernel = bench_event_ms(e0, e1) * 1e-3;
    CUDA_CHECK(cudaMemcpy(a, da, sizeof(double) * n, cudaMemcpyDeviceToHost));
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    bench_report("stream", rep, kernel, bench_clock() - t0);
  }
  return bench_finish(stream_check(a, n, kernel));
}
