// Translation unit 2 of 2: plain C++ host code (no kernels), like the host runtime.
#include <cstdio>
#include <vector>
#ifndef OMPGPU_EMU
#include <cuda_runtime.h>
#endif

extern "C" int launch_add_one(int *p, int n);
extern "C" int read_counter();

int main() {
  const int n = 300;
  std::vector<int> h(n, 41);
  int *d = nullptr;
  if (cudaMalloc(&d, n * sizeof(int)) != cudaSuccess) return 1;
  cudaMemcpy(d, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  int e = launch_add_one(d, n);
  cudaMemcpy(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int v : h) bad += v != 42;
  printf("two_tu %s (launch %d, %d bad, counter %d)\n", bad || e ? "FAIL" : "ok", e, bad, read_counter());
  cudaFree(d);
  return 0;
}
