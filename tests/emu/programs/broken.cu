// Deliberately broken kernels; each one must end with an "ompgpu-emu:" report and exit
// status 3 under the emulator. Usage: broken SCENARIO. Builds with nvcc too, but is not
// meant to run on a GPU (most of these hang or trap there).
#include "compat.cuh"

__device__ int flag;
__device__ int sink;

__global__ void k_deadlock(int) {
  // warp 0 waits at barrier 7 (count 64) alone; warps 1..4 at barrier 8 (count 160)
  if (threadIdx.x < 32)
    ompgpu_emu_bar_sync(7, 64);
  else
    ompgpu_emu_bar_sync(8, 160);
}
__global__ void k_coll_deadlock(int) {
  // lanes 0..15 shuffle over the full warp while lanes 16..31 wait at __syncthreads
  if (threadIdx.x < 16)
    sink = __shfl_sync(0xffffffffu, (int)threadIdx.x, 0);
  else
    __syncthreads();
}
__global__ void k_count40(int) { ompgpu_emu_bar_sync(1, 40); }
__global__ void k_count_exceeds(int) { ompgpu_emu_bar_sync(1, 288); }
__global__ void k_mixed_counts(int) {
  if (threadIdx.x < 32)
    ompgpu_emu_bar_sync(7, 64);
  else
    ompgpu_emu_bar_sync(7, 96);
}
__global__ void k_split(int) {
  if (threadIdx.x % 32 < 16)
    ompgpu_emu_bar_sync(7, 64);
  else
    ompgpu_emu_bar_sync(8, 64);
}
__global__ void k_double_arrive(int) {
  if (threadIdx.x < 32) {
    ompgpu_emu_bar_arrive(9, 64);
    ompgpu_emu_bar_arrive(9, 64);
  } else {
    for (int i = 0; i < 1000; i++) atomicAdd(&sink, 1);
    ompgpu_emu_bar_sync(9, 64);
  }
}
__global__ void k_dyn(int) { OMPGPU_DYNAMIC_SHARED()[0] = 1; }
__device__ int deep(int n) {
  volatile char buf[4096];
  buf[n % 4096] = (char)n;
  return n == 0 ? buf[0] : deep(n - 1) + buf[n % 4096];
}
__global__ void k_stack(int n) { sink = deep(n); }
__global__ void k_trap(int) {
  if (threadIdx.x == 5) __trap();
  __syncthreads();
}
__global__ void k_fail(int) {
  if (threadIdx.x == 0 && blockIdx.x == 1)
    ompgpu_emu_fail("ompgpu: soft stack overflow in team %d (needed %d bytes, %d available)\n", (int)blockIdx.x, 4096,
                    1024);
}
__global__ void k_segv(int) {
  if (threadIdx.x == 3) *(volatile int *)(size_t)16 = 1;
}
__global__ void k_mask(int) { sink = __shfl_sync(0x1u, (int)threadIdx.x, 0); }
__global__ void k_collmix(int) {
  if (threadIdx.x < 16)
    sink = (int)__ballot_sync(0xffffffffu, 1);
  else
    sink = __shfl_sync(0xffffffffu, 1, 0);
}
__global__ void k_spin(int) {
  if (threadIdx.x == 0)
    while (atomicAdd(&flag, 0) == 0) {
    }
}
__global__ void k_plain_spin(int) {
  if (threadIdx.x == 0)
    while (*(volatile int *)&flag == 0) {
    }
}
__global__ void k_oob(int *p) { p[blockIdx.x * blockDim.x + threadIdx.x] = 1; }  // 128 threads, 100 ints
__global__ void k_div0(int d) { sink = 100 / (d - (int)threadIdx.x - 1 + 1 - d + 7 - 7); }

int main(int argc, char **argv) {
  const char *s = argc > 1 ? argv[1] : "";
  setvbuf(stdout, nullptr, _IOLBF, 0);
  printf("scenario %s\n", s);
  if (!strcmp(s, "deadlock")) OMPGPU_LAUNCH_KERNEL(k_deadlock, 1, 160, 0, 0, 0);
  if (!strcmp(s, "coll_deadlock")) OMPGPU_LAUNCH_KERNEL(k_coll_deadlock, 1, 32, 0, 0, 0);
  if (!strcmp(s, "count40")) OMPGPU_LAUNCH_KERNEL(k_count40, 1, 64, 0, 0, 0);
  if (!strcmp(s, "count_exceeds")) OMPGPU_LAUNCH_KERNEL(k_count_exceeds, 1, 256, 0, 0, 0);
  if (!strcmp(s, "mixed_counts")) OMPGPU_LAUNCH_KERNEL(k_mixed_counts, 1, 96, 0, 0, 0);
  if (!strcmp(s, "split")) OMPGPU_LAUNCH_KERNEL(k_split, 1, 64, 0, 0, 0);
  if (!strcmp(s, "double_arrive")) OMPGPU_LAUNCH_KERNEL(k_double_arrive, 1, 64, 0, 0, 0);
  if (!strcmp(s, "dynshared")) {
    CHECK(cudaFuncSetAttribute(k_dyn, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024));
    OMPGPU_LAUNCH_KERNEL(k_dyn, 1, 32, 240 * 1024, 0, 0);
  }
  if (!strcmp(s, "stack")) OMPGPU_LAUNCH_KERNEL(k_stack, 1, 32, 0, 0, 100);
  if (!strcmp(s, "trap")) OMPGPU_LAUNCH_KERNEL(k_trap, 2, 32, 0, 0, 0);
  if (!strcmp(s, "fail")) OMPGPU_LAUNCH_KERNEL(k_fail, 2, 32, 0, 0, 0);
  if (!strcmp(s, "segv")) OMPGPU_LAUNCH_KERNEL(k_segv, 1, 32, 0, 0, 0);
  if (!strcmp(s, "mask")) OMPGPU_LAUNCH_KERNEL(k_mask, 1, 32, 0, 0, 0);
  if (!strcmp(s, "collmix")) OMPGPU_LAUNCH_KERNEL(k_collmix, 1, 32, 0, 0, 0);
  if (!strcmp(s, "spin")) OMPGPU_LAUNCH_KERNEL(k_spin, 1, 64, 0, 0, 0);
  if (!strcmp(s, "plain_spin")) OMPGPU_LAUNCH_KERNEL(k_plain_spin, 1, 64, 0, 0, 0);
  if (!strcmp(s, "div0")) OMPGPU_LAUNCH_KERNEL(k_div0, 1, 8, 0, 0, 0);
  if (!strcmp(s, "oob")) {  // only reported when built with -fsanitize=address
    int *d;
    CHECK(cudaMalloc(&d, 100 * sizeof(int)));
    OMPGPU_LAUNCH_KERNEL(k_oob, 1, 128, 0, 0, d);
  }
  cudaError_t e = cudaDeviceSynchronize();
  printf("finished: %s\n", cudaGetErrorName(e));
  return 0;
}
