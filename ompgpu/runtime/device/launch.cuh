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

static __device__ __forceinline__ char *ompgpu_dynamic_shared_base() {
  extern __shared__ __align__(16) char ompgpu_dynamic_shared_mem[];
  return ompgpu_dynamic_shared_mem;
}
#define OMPGPU_DYNAMIC_SHARED() (ompgpu_dynamic_shared_base())

#endif  // !OMPGPU_EMU

#ifndef __CUDACC_RTC__
// Tells this translation unit's copy of ompgpu_device_identity (api.cuh) on the current device
// which device it is, once per device: omp_get_device_num() and friends read it. Several host
// threads may race here on the first launch; they write the same values.
static inline int ompgpu_set_device_identity(int device_num, int num_devices) {
  enum { kTrackedDevices = 64 };
  static volatile bool written[kTrackedDevices];
  const bool tracked = device_num >= 0 && device_num < kTrackedDevices;
  if (tracked && written[device_num]) return 0;
  const int identity[2] = {device_num, num_devices};
  const cudaError_t err = cudaMemcpyToSymbol(ompgpu_device_identity, identity, sizeof identity);
  if (err == cudaSuccess && tracked) written[device_num] = true;
  return (int)err;
}
#endif

#endif  // OMPGPU_DEVICE_LAUNCH_CUH
