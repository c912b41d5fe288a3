// Hand-written CUDA STREAM triad (the reference for stream_triad.c): grid-stride loop.
#include <cstdio>
#include <cuda_runtime.h>
#ifndef N
#define N (1L << 26)
#endif
__global__ void init(double *a, double *b, double *c, long n) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
    a[i] = 0.0; b[i] = (double)(i % 1000); c[i] = 0.5;
  }
}
__global__ void triad(double *a, const double *b, const double *c, double s, long n) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x)
    a[i] = b[i] + s * c[i];
}
int main() {
  double *a, *b, *c;
  cudaMalloc(&a, N * sizeof(double)); cudaMalloc(&b, N * sizeof(double)); cudaMalloc(&c, N * sizeof(double));
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  init<<<sms * 8, 256>>>(a, b, c, N);
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  float best = 1e30f;
  for (int r = 0; r < 20; r++) {
    cudaEventRecord(e0);
    triad<<<sms * 8, 256>>>(a, b, c, 3.0, N);
    cudaEventRecord(e1); cudaEventSynchronize(e1);
    float ms; cudaEventElapsedTime(&ms, e0, e1);
    if (ms < best) best = ms;
  }
  double *h = new double[N];
  cudaMemcpy(h, a, N * sizeof(double), cudaMemcpyDeviceToHost);
  long bad = 0;
  for (long i = 0; i < N; i++) bad += h[i] != (double)(i % 1000) + 1.5;
  printf("triad CUDA: %.1f GB/s (best of 20, n=%ld) %s\n", 3.0 * N * sizeof(double) / (best * 1e-3) * 1e-9, (long)N,
         bad ? "FAIL" : "PASS");
  return bad != 0;
}
