// Launch configuration errors come back through cudaGetLastError, as with CUDA.
#include "compat.cuh"

__global__ void touch(int *p) {
  if (threadIdx.x + threadIdx.y + threadIdx.z + blockIdx.x + blockIdx.y + blockIdx.z == 0) *p += 1;
}
__global__ void big_shared(int *p) {
  char *s = OMPGPU_DYNAMIC_SHARED();
  s[threadIdx.x] = (char)threadIdx.x;
  __syncthreads();
  if (threadIdx.x == 0) *p += s[31];
}

static void report(const char *what) {
  cudaError_t peek = cudaPeekAtLastError();
  cudaError_t e = cudaGetLastError();
  cudaError_t after = cudaGetLastError();
  printf("%s: %s%s%s\n", what, cudaGetErrorName(e), peek == e ? "" : " (peek differs)",
         after == cudaSuccess ? "" : " (not cleared)");
}

int main() {
  int *d;
  CHECK(cudaMalloc(&d, sizeof(int)));
  CHECK(cudaMemset(d, 0, sizeof(int)));
  OMPGPU_LAUNCH_KERNEL(touch, 1, 1025, 0, 0, d);
  report("block 1025");
  OMPGPU_LAUNCH_KERNEL(touch, 1, 0, 0, 0, d);
  report("block 0");
  OMPGPU_LAUNCH_KERNEL(touch, 0, 32, 0, 0, d);
  report("grid 0");
  OMPGPU_LAUNCH_KERNEL(touch, 1, dim3(1, 1, 65), 0, 0, d);
  report("block z 65");
  OMPGPU_LAUNCH_KERNEL(touch, 1, dim3(32, 32, 2), 0, 0, d);
  report("block 32x32x2");
  OMPGPU_LAUNCH_KERNEL(touch, dim3(1, 65536, 1), 32, 0, 0, d);
  report("grid y 65536");
  OMPGPU_LAUNCH_KERNEL(big_shared, 1, 32, 64 * 1024, 0, d);
  report("64 KiB dynamic shared without opt-in");
  CHECK(cudaFuncSetAttribute(big_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024));
  OMPGPU_LAUNCH_KERNEL(big_shared, 1, 32, 64 * 1024, 0, d);
  report("64 KiB dynamic shared after opt-in");
  cudaError_t e = cudaFuncSetAttribute(big_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, 300 * 1024);
  printf("opt-in 300 KiB: %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  OMPGPU_LAUNCH_KERNEL(touch, dim3(2, 2, 2), dim3(32, 32, 1), 0, 0, d);
  report("block 1024");
  int h = 0;
  CHECK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
  printf("good launches ran: %d\n", h);
  return 0;
}
