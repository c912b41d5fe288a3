// printf from device code.
#include "compat.cuh"

__global__ void hello(int tag) {
  printf("hello block %d thread %d tag %d\n", (int)blockIdx.x, (int)threadIdx.x, tag);
  __syncthreads();
  if (threadIdx.x == 0) printf("block %d after the barrier, %.2f\n", (int)blockIdx.x, 0.5 * tag);
}

int main() {
  printf("host before\n");
  OMPGPU_LAUNCH_KERNEL(hello, 2, 3, 0, 0, 7);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  printf("host after\n");
  return 0;
}
