// ompgpu device runtime: kernel launch and dynamic shared memory for real CUDA.
// Under OMPGPU_EMU the emulator header (cuda_emu.h) defines both macros instead.
//
//   OMPGPU_LAUNCH_KERNEL(kernel, grid, block, shmem, stream, args...)   a statement
//   OMPGPU_LAUNCH_COOPERATIVE(kernel, grid, block, shmem, stream, args...)  a cudaError_t:
//                  cudaLaunchCooperativeKernel, every block resident at once (grid.cuh)
//   OMPGPU_DYNAMIC_SHARED()                                              char *, 16-aligned
#ifndef OMPGPU_DEVICE_LAUNCH_CUH
#define OMPGPU_DEVICE_LAUNCH_CUH

#ifndef OMPGPU_EMU

#define OMPGPU_LAUNCH_KERNEL(kernel, grid, block, shmem, stream, ...) \
  kernel<<<(grid), (block), (shmem), (cudaStream_t)(stream)>>>(__VA_ARGS__)

#ifndef OMPGPU_DEVICE_IMAGE   // an image has no launch stubs: the runtime launches its kernels
// The arguments go by address, in the kernel's parameter types (the launch stubs convert them).
template <class... A>
static cudaError_t ompgpu_launch_cooperative(const void *kernel, dim3 grid, dim3 block, size_t shmem,
                                             cudaStream_t stream, A... args) {
  void *argv[] = {(void *)&args..., nullptr};
  return cudaLaunchCooperativeKernel(kernel, grid, block, argv, shmem, stream);
}
#define OMPGPU_LAUNCH_COOPERATIVE(kernel, grid, block, shmem, stream, ...) \
  ompgpu_launch_cooperative((const void *)(kernel), (grid), (block), (shmem), (cudaStream_t)(stream), __VA_ARGS__)
#endif

static OMPGPU_DEVICE OMPGPU_FORCEINLINE char *ompgpu_dynamic_shared_base() {
  extern OMPGPU_SHARED OMPGPU_ALIGN(16) char ompgpu_dynamic_shared_mem[];
  return ompgpu_dynamic_shared_mem;
}
#define OMPGPU_DYNAMIC_SHARED() (ompgpu_dynamic_shared_base())

#endif  // !OMPGPU_EMU

#endif  // OMPGPU_DEVICE_LAUNCH_CUH
