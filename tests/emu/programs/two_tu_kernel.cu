// Translation unit 1 of 2: a kernel and a C-linkage launch stub, as generated code has.
#include "compat.cuh"

__device__ int tu_counter;

__global__ void add_one(int *p, int n) {
  int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) p[i] += 1;
  atomicAdd(&tu_counter, 1);
}

extern "C" int launch_add_one(int *p, int n) {
  OMPGPU_LAUNCH_KERNEL(add_one, (n + 127) / 128, 128, 0, nullptr, p, n);
  return (int)cudaGetLastError();
}

extern "C" int read_counter() {
  int v = -1;
  cudaMemcpyFromSymbol(&v, tu_counter, sizeof v);
  return v;
}
