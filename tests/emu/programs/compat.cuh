// Lets the emulator test programs build with real nvcc too. Under the emulator
// (g++ -DOMPGPU_EMU -include cuda_emu.h) everything here is already defined.
#ifndef OMPGPU_EMU_TEST_COMPAT_CUH
#define OMPGPU_EMU_TEST_COMPAT_CUH

#include <cstdio>
#include <cstdlib>
#include <cstring>

#ifndef OMPGPU_EMU
#include <cuda_runtime.h>

#define OMPGPU_LAUNCH_KERNEL(kernel, grid, block, shmem, stream, ...) \
  kernel<<<(grid), (block), (shmem), (cudaStream_t)(stream)>>>(__VA_ARGS__)

static __device__ __forceinline__ char *test_dynamic_shared() {
  extern __shared__ __align__(16) char test_dynamic_shared_mem[];
  return test_dynamic_shared_mem;
}
#define OMPGPU_DYNAMIC_SHARED() (test_dynamic_shared())

// The same PTX the device runtime uses (barrier.sync: non-aligned, exited lanes count).
static __device__ __forceinline__ void ompgpu_emu_bar_sync(unsigned id, unsigned count) {
  if (count == 0)
    asm volatile("barrier.sync %0;" ::"r"(id) : "memory");
  else
    asm volatile("barrier.sync %0, %1;" ::"r"(id), "r"(count) : "memory");
}
static __device__ __forceinline__ void ompgpu_emu_bar_arrive(unsigned id, unsigned count) {
  asm volatile("barrier.arrive %0, %1;" ::"r"(id), "r"(count) : "memory");
}
static __device__ __forceinline__ void ompgpu_emu_thread_exit() { asm volatile("exit;" ::: "memory"); }
#define ompgpu_emu_fail(...) \
  do {                       \
    printf(__VA_ARGS__);     \
    __trap();                \
  } while (0)
#endif

// Host-side check: print the failing call and exit 1.
#define CHECK(call)                                                                                    \
  do {                                                                                                 \
    cudaError_t check_e_ = (call);                                                                     \
    if (check_e_ != cudaSuccess) {                                                                     \
      printf("FAIL %s:%d: %s -> %s\n", __FILE__, __LINE__, #call, cudaGetErrorName(check_e_));         \
      exit(1);                                                                                         \
    }                                                                                                  \
  } while (0)

#endif
