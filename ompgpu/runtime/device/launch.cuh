// ompgpu device runtime: kernel launch and dynamic shared memory for real CUDA.
// Under OMPGPU_EMU the emulator header (cuda_emu.h) defines both macros instead.
//
//   OMPGPU_LAUNCH_KERNEL(kernel, grid, block, shmem, stream, args...)   a statement
//   OMPGPU_DYNAMIC_SHARED()                                              char *, 16-aligned
#ifndef OMPGPU_DEVICE_LAUNCH_CUH
#define OMPGPU_DEVICE_LAUNCH_CUH

#ifndef OMPGPU_EMU

#define OMPGPU_LAUNCH_KERNEL(kernel, grid, block, shmem, stream, ...) \
  kernel<<<(grid), (block), (shmem), (cudaStream_t)(stream)>>>(__VA_ARGS__)

static OMPGPU_DEVICE OMPGPU_FORCEINLINE char *ompgpu_dynamic_shared_base() {
  extern OMPGPU_SHARED OMPGPU_ALIGN(16) char ompgpu_dynamic_shared_mem[];
  return ompgpu_dynamic_shared_mem;
}
#define OMPGPU_DYNAMIC_SHARED() (ompgpu_dynamic_shared_base())

#endif  // !OMPGPU_EMU

#endif  // OMPGPU_DEVICE_LAUNCH_CUH
