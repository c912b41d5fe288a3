// saxpy at n = 2^24 on one GPU: the kernel ompgpu generates (sx.device.cu, launched through its
// stub as the runtime would: one iteration per thread, 256 threads a team) beside a 32-bit
// one-element-per-thread kernel (CuPy's RawKernel), the same grid loop in 32 bits, and a
// grid-stride loop of 4 elements a thread. Times: median of 200 launches (cudaEvent).
#include <cstdio>
#include <vector>
#include <algorithm>
#include "ompgpu_host.h"
extern "C" int __ompgpu_launch___omp_offloading_saxpy_l2(const ompgpu_launch_config *cfg, void **args);
extern "C" void ompgpu_device_teams_icvs(int icvs[2]) { icvs[0] = 0; icvs[1] = 0; }

__global__ void raw32(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
__global__ void loop32(int n, float a, const float *x, float *y) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < (unsigned)n; i += gridDim.x * blockDim.x)
    y[i] = a * x[i] + y[i];
}
__global__ void loop64(int n, float a, const float *x, float *y) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    int j = (int)i;
    y[j] = a * x[j] + y[j];
  }
}
__global__ void stride4(int n, float a, const float *x, float *y) {
  unsigned s = gridDim.x * blockDim.x;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < (unsigned)n; i += s) y[i] = a * x[i] + y[i];
}

template <class F> float median_ms(F launch) {
  cudaEvent_t b, e; cudaEventCreate(&b); cudaEventCreate(&e);
  std::vector<float> t;
  for (int r = 0; r < 210; ++r) {
    cudaEventRecord(b); launch(); cudaEventRecord(e); cudaEventSynchronize(e);
    float ms; cudaEventElapsedTime(&ms, b, e); if (r >= 10) t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main() {
  const int n = 1 << 24;
  float *x, *y; cudaMalloc(&x, n * 4); cudaMalloc(&y, n * 4);
  cudaMemset(x, 0, n * 4); cudaMemset(y, 0, n * 4);
  float a = 2.0f; int nn = n;
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  ompgpu_launch_config cfg{}; cfg.num_teams = (n + 255) / 256; cfg.threads_per_team = 256; cfg.stream = 0;
  cfg.device_num = 0; cfg.num_devices = 1;
  void *args[] = {&x, &y, &nn, &a};
  printf("ompgpu generated (64-bit grid loop)  %.4f ms\n", median_ms([&] { __ompgpu_launch___omp_offloading_saxpy_l2(&cfg, args); }));
  printf("raw 32-bit, one element a thread      %.4f ms\n", median_ms([&] { raw32<<<(n + 255) / 256, 256>>>(n, a, x, y); }));
  printf("grid loop, 32-bit                     %.4f ms\n", median_ms([&] { loop32<<<(n + 255) / 256, 256>>>(n, a, x, y); }));
  printf("grid loop, 64-bit                     %.4f ms\n", median_ms([&] { loop64<<<(n + 255) / 256, 256>>>(n, a, x, y); }));
  for (int k : {4, 8, 16, 32})
    printf("grid-stride, %2d teams an SM           %.4f ms\n", k, median_ms([&] { stride4<<<sms * k, 256>>>(n, a, x, y); }));
  cfg.num_teams = sms * 16;
  printf("ompgpu generated, 16 teams an SM      %.4f ms\n", median_ms([&] { __ompgpu_launch___omp_offloading_saxpy_l2(&cfg, args); }));
  printf("error: %s\n", cudaGetErrorString(cudaGetLastError()));
}
