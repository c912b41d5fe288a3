// emu_runtime_api.h - part of the ompgpu device emulator: include cuda_emu.h, which includes
// the parts in order (each uses what the ones before it define).
// The CUDA runtime API, host side: devices, memory, copies, streams, events, launches' attributes.
#ifndef OMPGPU_EMU_RUNTIME_API_H
#define OMPGPU_EMU_RUNTIME_API_H

// ---------------------------------------------------------------------------------------
// CUDA runtime API (host side)
// ---------------------------------------------------------------------------------------
namespace ompgpu_emu {
OMPGPU_EMU_API cudaError_t check_device() {
  if (config().devices == 0) return set_error(cudaErrorNoDevice);
  return cudaSuccess;
}
OMPGPU_EMU_API cudaError_t check_kind(cudaMemcpyKind kind, void *dst, const void *src, size_t n) {
  bool dev_dst = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
  bool dev_src = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
  if ((int)kind < 0 || (int)kind > 4) return set_error(cudaErrorInvalidMemcpyDirection);
  if (dev_dst && !is_device_range(dst, n)) return set_error(cudaErrorInvalidValue);
  if (dev_src && !is_device_range(src, n)) return set_error(cudaErrorInvalidValue);
  return cudaSuccess;
}
OMPGPU_EMU_API cudaError_t memcpy_checked(void *dst, const void *src, size_t n, cudaMemcpyKind kind) {
  if (cudaError_t e = check_device()) return e;
  if (n == 0) return cudaSuccess;
  if (!dst || !src) return set_error(cudaErrorInvalidValue);
  if (cudaError_t e = check_kind(kind, dst, src, n)) return e;
  memmove(dst, src, n);
  return cudaSuccess;
}
inline void register_range(const void *p, size_t n, int kind) {
  CudaState &s = state();
  Guard lk(s.mu);
  s.allocs[(uintptr_t)p] = std::make_pair(n, kind);
}
OMPGPU_EMU_API cudaError_t symbol_check(const void *sym, size_t symsize, size_t count, size_t offset) {
  if (cudaError_t e = check_device()) return e;
  if (!sym || on_current_stack(sym)) return set_error(cudaErrorInvalidSymbol);
  {
    CudaState &s = state();
    Guard lk(s.mu);
    auto it = s.allocs.upper_bound((uintptr_t)sym);
    if (it != s.allocs.begin()) {
      --it;
      if (it->second.second != 1 && (uintptr_t)sym < it->first + it->second.first)
        return set_error(cudaErrorInvalidSymbol);  // heap memory is no symbol
    }
  }
  if (symsize && (offset > symsize || count > symsize - offset)) return set_error(cudaErrorInvalidValue);
  register_range(sym, symsize ? symsize : offset + count, 1);
  return cudaSuccess;
}
}  // namespace ompgpu_emu

inline const char *cudaGetErrorName(cudaError_t e) {
  switch (e) {
#define OMPGPU_EMU_E(n) case n: return #n;
    OMPGPU_EMU_E(cudaSuccess) OMPGPU_EMU_E(cudaErrorInvalidValue) OMPGPU_EMU_E(cudaErrorMemoryAllocation)
    OMPGPU_EMU_E(cudaErrorInitializationError) OMPGPU_EMU_E(cudaErrorCudartUnloading)
    OMPGPU_EMU_E(cudaErrorInvalidConfiguration) OMPGPU_EMU_E(cudaErrorInvalidPitchValue)
    OMPGPU_EMU_E(cudaErrorInvalidSymbol) OMPGPU_EMU_E(cudaErrorInvalidDevicePointer)
    OMPGPU_EMU_E(cudaErrorInvalidMemcpyDirection) OMPGPU_EMU_E(cudaErrorInsufficientDriver)
    OMPGPU_EMU_E(cudaErrorInvalidDeviceFunction) OMPGPU_EMU_E(cudaErrorNoDevice) OMPGPU_EMU_E(cudaErrorInvalidDevice)
    OMPGPU_EMU_E(cudaErrorNoKernelImageForDevice) OMPGPU_EMU_E(cudaErrorInvalidResourceHandle)
    OMPGPU_EMU_E(cudaErrorNotReady) OMPGPU_EMU_E(cudaErrorIllegalAddress) OMPGPU_EMU_E(cudaErrorLaunchOutOfResources)
    OMPGPU_EMU_E(cudaErrorLaunchTimeout) OMPGPU_EMU_E(cudaErrorAssert) OMPGPU_EMU_E(cudaErrorLaunchFailure)
    OMPGPU_EMU_E(cudaErrorNotSupported) OMPGPU_EMU_E(cudaErrorUnknown)
#undef OMPGPU_EMU_E
  }
  return "cudaErrorUnknown";
}
inline const char *cudaGetErrorString(cudaError_t e) {
  switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInitializationError: return "initialization error";
    case cudaErrorCudartUnloading: return "driver shutting down";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidPitchValue: return "invalid pitch argument";
    case cudaErrorInvalidSymbol: return "invalid device symbol";
    case cudaErrorInvalidDevicePointer: return "invalid device pointer";
    case cudaErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
    case cudaErrorInsufficientDriver: return "CUDA driver version is insufficient for CUDA runtime version";
    case cudaErrorInvalidDeviceFunction: return "invalid device function";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorNoKernelImageForDevice: return "no kernel image is available for execution on the device";
    case cudaErrorInvalidResourceHandle: return "invalid resource handle";
    case cudaErrorNotReady: return "device not ready";
    case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
    case cudaErrorLaunchOutOfResources: return "too many resources requested for launch";
    case cudaErrorLaunchTimeout: return "the launch timed out and was terminated";
    case cudaErrorAssert: return "device-side assert triggered";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
    case cudaErrorNotSupported: return "operation not supported";
    case cudaErrorUnknown: return "unknown error";
  }
  return "unrecognized error code";
}
OMPGPU_EMU_API cudaError_t cudaGetLastError() {
  cudaError_t e = (cudaError_t)ompgpu_emu::t_last_error;
  ompgpu_emu::t_last_error = cudaSuccess;
  return e;
}
OMPGPU_EMU_API cudaError_t cudaPeekAtLastError() { return (cudaError_t)ompgpu_emu::t_last_error; }

OMPGPU_EMU_API cudaError_t cudaGetDeviceCount(int *count) {
  if (!count) return ompgpu_emu::set_error(cudaErrorInvalidValue);
  *count = ompgpu_emu::config().devices;
  return ompgpu_emu::check_device();
}
OMPGPU_EMU_API cudaError_t cudaSetDevice(int device) {
  if (cudaError_t e = ompgpu_emu::check_device()) return e;
  if (device < 0 || device >= ompgpu_emu::config().devices) return ompgpu_emu::set_error(cudaErrorInvalidDevice);
  ompgpu_emu::t_device = device;
  return cudaSuccess;
}
OMPGPU_EMU_API cudaError_t cudaGetDevice(int *device) {
  if (cudaError_t e = ompgpu_emu::check_device()) return e;
  if (!device) return ompgpu_emu::set_error(cudaErrorInvalidValue);
  *device = ompgpu_emu::t_device;
  return cudaSuccess;
}
OMPGPU_EMU_API cudaError_t cudaGetDeviceProperties(cudaDeviceProp *prop, int device) {
  if (cudaError_t e = ompgpu_emu::check_device()) return e;
  if (!prop) return ompgpu_emu::set_error(cudaErrorInvalidValue);
  if (device < 0 || device >= ompgpu_emu::config().devices) return ompgpu_emu::set_error(cudaErrorInvalidDevice);
  memset(prop, 0, sizeof *prop);
  snprintf(prop->name, sizeof prop->name, "ompgpu emulator");
  prop->totalGlobalMem = ompgpu_emu::config().mem;
  prop->sharedMemPerBlock = ompgpu_emu::kDefaultDynShared;
  prop->regsPerBlock = 65536;
  prop->warpSize = 32;
  prop->memPitch = 2147483647;
  prop->maxThreadsPerBlock = 1024;
  prop->maxThreadsDim[0] = 1024;
  prop->maxThreadsDim[1] = 1024;
  prop->maxThreadsDim[2] = 64;
  prop->maxGridSize[0] = 2147483647;
  prop->maxGridSize[1] = 65535;
  prop->maxGridSize[2] = 65535;
  prop->totalConstMem = 65536;
  prop->major = 9;
  prop->minor = 0;
  prop->multiProcessorCount = ompgpu_emu::config().sms;
  prop->canMapHostMemory = 1;
  prop->concurrentKernels = 1;
  prop->pciBusID = device;
  prop->asyncEngineCount = 1;
  prop->unifiedAddressing = 1;
  prop->memoryBusWidth = 5120;
  prop->l2CacheSize = 50 * 1024 * 1024;
  prop->maxThreadsPerMultiProcessor = 2048;
  prop->sharedMemPerMultiprocessor = 228 * 1024;
  prop->regsPerMultiprocessor = 65536;
  prop->managedMemory = 1;
  prop->concurrentManagedAccess = 1;
  prop->pageableMemoryAccess = ompgpu_emu::config().pageable;
  prop->cooperativeLaunch = 1;
  prop->sharedMemPerBlockOptin = ompgpu_emu::kMaxDynShared;
  prop->maxBlocksPerMultiProcessor = 32;
  prop->reservedSharedMemPerBlock = 1024;
  return cudaSuccess;
}
OMPGPU_EMU_API cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int device) {
  cudaDeviceProp p;
  if (cudaError_t e = cudaGetDeviceProperties(&p, device)) return e;
  if (!value) return ompgpu_emu::set_error(cudaErrorInvalidValue);
  switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: *value = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: *value = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: *value = p.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: *value = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: *value = p.maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = (int)p.sharedMemPerBlock; break;
    case cudaDevAttrTotalConstantMemory: *value = (int)p.totalConstMem; break;
    case cudaDevAttrWarpSize: *value = 32; break;
    case cudaDevAttrMaxRegistersPerBlock: *value = p.regsPerBlock; break;
    case cudaDevAttrClockRate: *value = 1000000; break;
    case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
    case cudaDevAttrIntegrated: *value = 0; break;
    case cudaDevAttrConcurrentKernels: *value = 1; break;
    case cudaDevAttrMemoryClockRate: *value = 2619000; break;
    case cudaDevAttrGlobalMemoryBusWidth: *value = p.memoryBusWidth; break;
    case cudaDevAttrL2CacheSize: *value = p.l2CacheSize; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrUnifiedAddressing: *value = 1; break;
    case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *value = (int)p.sharedMemPerMultiprocessor; break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *value = p.regsPerMultiprocessor; break;
    case cudaDevAttrManagedMemory: *value = 1; break;
    case cudaDevAttrPageableMemoryAccess: *value = p.pageableMemoryAccess; break;
    case cudaDevAttrCooperativeLaunch: *value = 1; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = (int)p.sharedMemPerBlockOptin; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *value = p.maxBlocksPerMultiProcessor; break;
    default: return ompgpu_emu::set_error(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}
OMPGPU_EMU_API cudaError_t cudaDriverGetVersion(int *v) {
  if (!v) return ompgpu_emu::set_error(cudaErrorInvalidValue);
  *v = 13000;
  return cudaSuccess;
}
OMPGPU_EMU_API cudaError_t cudaRuntimeGetVersion(int *v) {
  if (!v) return ompgpu_emu::set_error(cudaErrorInvalidValue);
  *v = 13000;
  return cudaSuccess;
}
OMPGPU_EMU_API cudaError_t cudaDeviceSynchronize() { return ompgpu_emu::check_device(); }
OMPGPU_EMU_API cudaError_t cudaDeviceReset() { return ompgpu_emu::check_device(); }
OMPGPU_EMU_API cudaError_t cudaSetDeviceFlags(unsigned int) { return ompgpu_emu::check_device(); }
OMPGPU_EMU_API cudaError_t cudaDeviceSetLimit(cudaLimit, size_t) { return ompgpu_emu::check_device(); }
OMPGPU_EMU_API cudaError_t cudaDeviceGetLimit(size_t *v, cudaLimit limit) {
  if (!v) return ompgpu_emu::set_error(cudaErrorInvalidValue);
  *v = limit == cudaLimitStackSize ? 1024 : limit == cudaLimitPrintfFifoSize ? (1u << 20) : (8u << 20);
  return ompgpu_emu::check_device();
}

// Device memory is host memory (256-byte aligned, filled with 0xA5 so that reading memory
// nobody wrote shows). Under -fsanitize=address kernels' out-of-bounds accesses to it are
// reported by AddressSanitizer.
OMPGPU_EMU_API cudaError_t cudaMalloc(void **ptr, size_t size) {
  using namespace ompgpu_emu;
  if (cudaError_t e = check_device()) return e;
  if (!ptr) return set_error(cudaErrorInvalidValue);
  *ptr = nullptr;
  if (size == 0) return cudaSuccess;
  CudaState &s = state();
  {
    Guard lk(s.mu);
    if (size > config().mem || s.used + size > config().mem) return set_error(cudaErrorMemoryAllocation);
  }
  // Exact size under AddressSanitizer, so that it catches kernels running past the end.
  void *p = nullptr;
  if (posix_memalign(&p, 256, OMPGPU_EMU_ASAN ? size : (size + 255) / 256 * 256) != 0 || !p)
    return set_error(cudaErrorMemoryAllocation);
  memset(p, 0xA5, size);
  Guard lk(s.mu);
  s.allocs[(uintptr_t)p] = std::make_pair(size, 0);
  s.used += size;
  *ptr = p;
  return cudaSuccess;
}
template <class T>
OMPGPU_EMU_API cudaError_t cudaMalloc(T **ptr, size_t size) { return cudaMalloc((void **)ptr, size); }
OMPGPU_EMU_API cudaError_t cudaMallocManaged(void **ptr, size_t size, unsigned int = 1) { return cudaMalloc(ptr, size); }
OMPGPU_EMU_API cudaError_t cudaMallocAsync(void **ptr, size_t size, cudaStream_t) { return cudaMalloc(ptr, size); }
OMPGPU_EMU_API cudaError_t cudaFree(void *p) {
  using namespace ompgpu_emu;
  if (cudaError_t e = check_device()) return e;
  if (!p) return cudaSuccess;
  CudaState &s = state();
  Guard lk(s.mu);
  auto it = s.allocs.find((uintptr_t)p);
  if (it == s.allocs.end() || it->second.second != 0) return set_error(cudaErrorInvalidValue);
  s.used -= it->second.first;
  s.allocs.erase(it);
  free(p);
  return cudaSuccess;
}
OMPGPU_EMU_API cudaError_t cudaFreeAsync(void *p, cudaStream_t) { return cudaFree(p); }
OMPGPU_EMU_API cudaError_t cudaMallocHost(void **ptr, size_t size) {
  if (!ptr) return ompgpu_emu::set_error(cudaErrorInvalidValue);
  *ptr = aligned_alloc(256, (std::max(size, (size_t)1) + 255) / 256 * 256);
  return *ptr ? cudaSuccess : ompgpu_emu::set_error(cudaErrorMemoryAllocation);
}
template <class T>
OMPGPU_EMU_API cudaError_t cudaMallocHost(T **ptr, size_t size) { return cudaMallocHost((void **)ptr, size); }
OMPGPU_EMU_API cudaError_t cudaHostAlloc(void **ptr, size_t size, unsigned int) { return cudaMallocHost(ptr, size); }
OMPGPU_EMU_API cudaError_t cudaFreeHost(void *p) {
  free(p);
  return cudaSuccess;
}
OMPGPU_EMU_API cudaError_t cudaHostRegister(void *, size_t, unsigned int) { return cudaSuccess; }
OMPGPU_EMU_API cudaError_t cudaHostUnregister(void *) { return cudaSuccess; }
OMPGPU_EMU_API cudaError_t cudaMemGetInfo(size_t *free_b, size_t *total) {
  if (cudaError_t e = ompgpu_emu::check_device()) return e;
  ompgpu_emu::Guard lk(ompgpu_emu::state().mu);
  if (free_b) *free_b = (size_t)(ompgpu_emu::config().mem - ompgpu_emu::state().used);
  if (total) *total = (size_t)ompgpu_emu::config().mem;
  return cudaSuccess;
}
OMPGPU_EMU_API cudaError_t cudaPointerGetAttributes(cudaPointerAttributes *a, const void *p) {
  if (!a) return ompgpu_emu::set_error(cudaErrorInvalidValue);
  bool dev = ompgpu_emu::is_device_range(p, 1);
  a->type = dev ? cudaMemoryTypeDevice : cudaMemoryTypeUnregistered;
  a->device = 0;
  a->devicePointer = dev ? const_cast<void *>(p) : nullptr;
  a->hostPointer = dev ? nullptr : const_cast<void *>(p);
  return cudaSuccess;
}

// Copies check that the device side lies inside one cudaMalloc allocation (or a symbol).
OMPGPU_EMU_API cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, cudaMemcpyKind kind) {
  return ompgpu_emu::memcpy_checked(dst, src, count, kind);
}
OMPGPU_EMU_API cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, cudaMemcpyKind kind,
                                   cudaStream_t stream = 0) {
  if (!ompgpu_emu::valid_stream(stream)) return ompgpu_emu::set_error(cudaErrorInvalidResourceHandle);
  return ompgpu_emu::memcpy_checked(dst, src, count, kind);
}
// height rows of width bytes, each row checked as one copy (the rows pitch bytes apart).
OMPGPU_EMU_API cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                     size_t height, cudaMemcpyKind kind, cudaStream_t stream = 0) {
  if (!ompgpu_emu::valid_stream(stream)) return ompgpu_emu::set_error(cudaErrorInvalidResourceHandle);
  if (width > dpitch || width > spitch) return ompgpu_emu::set_error(cudaErrorInvalidPitchValue);
  for (size_t r = 0; r < height; ++r) {
    cudaError_t e = ompgpu_emu::memcpy_checked(static_cast<char *>(dst) + r * dpitch,
                                               static_cast<const char *>(src) + r * spitch, width, kind);
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}
OMPGPU_EMU_API cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                size_t height, cudaMemcpyKind kind) {
  return cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind, 0);
}
OMPGPU_EMU_API cudaError_t cudaMemset(void *dst, int value, size_t count) {
  if (cudaError_t e = ompgpu_emu::check_device()) return e;
  if (count == 0) return cudaSuccess;
  if (!ompgpu_emu::is_device_range(dst, count)) return ompgpu_emu::set_error(cudaErrorInvalidValue);
  memset(dst, value, count);
  return cudaSuccess;
}
OMPGPU_EMU_API cudaError_t cudaMemsetAsync(void *dst, int value, size_t count, cudaStream_t stream = 0) {
  if (!ompgpu_emu::valid_stream(stream)) return ompgpu_emu::set_error(cudaErrorInvalidResourceHandle);
  return cudaMemset(dst, value, count);
}

// Symbols: `symbol` is the __device__/__constant__ variable itself (CUDA's C++ API).
template <class T>
OMPGPU_EMU_API cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count, size_t offset = 0,
                                      cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  if (cudaError_t e = ompgpu_emu::symbol_check(&symbol, sizeof(T), count, offset)) return e;
  if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
    return ompgpu_emu::set_error(cudaErrorInvalidMemcpyDirection);
  if (count) memmove((char *)const_cast<T *>(&symbol) + offset, src, count);
  return cudaSuccess;
}
template <class T>
OMPGPU_EMU_API cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count, size_t offset = 0,
                                        cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  if (cudaError_t e = ompgpu_emu::symbol_check(&symbol, sizeof(T), count, offset)) return e;
  if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
    return ompgpu_emu::set_error(cudaErrorInvalidMemcpyDirection);
  if (count) memmove(dst, (const char *)&symbol + offset, count);
  return cudaSuccess;
}
template <class T>
OMPGPU_EMU_API cudaError_t cudaMemcpyToSymbolAsync(const T &symbol, const void *src, size_t count, size_t offset = 0,
                                           cudaMemcpyKind kind = cudaMemcpyHostToDevice, cudaStream_t = 0) {
  return cudaMemcpyToSymbol(symbol, src, count, offset, kind);
}
template <class T>
OMPGPU_EMU_API cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const T &symbol, size_t count, size_t offset = 0,
                                             cudaMemcpyKind kind = cudaMemcpyDeviceToHost, cudaStream_t = 0) {
  return cudaMemcpyFromSymbol(dst, symbol, count, offset, kind);
}
template <class T>
OMPGPU_EMU_API cudaError_t cudaGetSymbolAddress(void **devPtr, const T &symbol) {
  if (!devPtr) return ompgpu_emu::set_error(cudaErrorInvalidValue);
  if (cudaError_t e = ompgpu_emu::symbol_check(&symbol, sizeof(T), 0, 0)) return e;
  *devPtr = (void *)const_cast<T *>(&symbol);
  return cudaSuccess;
}
template <class T>
OMPGPU_EMU_API cudaError_t cudaGetSymbolSize(size_t *size, const T &symbol) {
  if (!size) return ompgpu_emu::set_error(cudaErrorInvalidValue);
  if (cudaError_t e = ompgpu_emu::symbol_check(&symbol, sizeof(T), 0, 0)) return e;
  *size = sizeof(T);
  return cudaSuccess;
}

// Kernel attributes, keyed by the kernel's address.
OMPGPU_EMU_API cudaError_t cudaFuncSetAttribute(const void *func, cudaFuncAttribute attr, int value) {
  if (cudaError_t e = ompgpu_emu::check_device()) return e;
  if (!func) return ompgpu_emu::set_error(cudaErrorInvalidDeviceFunction);
  if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
    if (value < 0 || (size_t)value > ompgpu_emu::kMaxDynShared) return ompgpu_emu::set_error(cudaErrorInvalidValue);
    ompgpu_emu::Guard lk(ompgpu_emu::state().mu);
    ompgpu_emu::state().func_max_dyn[func] = value;
    return cudaSuccess;
  }
  if (attr == cudaFuncAttributePreferredSharedMemoryCarveout) return cudaSuccess;
  return ompgpu_emu::set_error(cudaErrorInvalidValue);
}
template <class T>
OMPGPU_EMU_API cudaError_t cudaFuncSetAttribute(T *func, cudaFuncAttribute attr, int value) {
  return cudaFuncSetAttribute((const void *)func, attr, value);
}
OMPGPU_EMU_API cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *a, const void *func) {
  if (cudaError_t e = ompgpu_emu::check_device()) return e;
  if (!a) return ompgpu_emu::set_error(cudaErrorInvalidValue);
  if (!func) return ompgpu_emu::set_error(cudaErrorInvalidDeviceFunction);
  memset(a, 0, sizeof *a);
  a->maxThreadsPerBlock = 1024;
  a->numRegs = 32;
  a->ptxVersion = 90;
  a->binaryVersion = 90;
  ompgpu_emu::Guard lk(ompgpu_emu::state().mu);
  auto it = ompgpu_emu::state().func_max_dyn.find(func);
  a->maxDynamicSharedSizeBytes = it == ompgpu_emu::state().func_max_dyn.end() ? (int)ompgpu_emu::kDefaultDynShared : it->second;
  a->preferredShmemCarveout = -1;
  return cudaSuccess;
}
template <class T>
OMPGPU_EMU_API cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *a, T *func) {
  return cudaFuncGetAttributes(a, (const void *)func);
}
// A plausible sm_90 answer: 2048 threads, 32 blocks and 228 KiB of shared memory per SM.
OMPGPU_EMU_API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func, int blockSize,
                                                                 size_t dynamicSMemSize) {
  if (cudaError_t e = ompgpu_emu::check_device()) return e;
  if (!numBlocks || blockSize <= 0) return ompgpu_emu::set_error(cudaErrorInvalidValue);
  if (!func) return ompgpu_emu::set_error(cudaErrorInvalidDeviceFunction);
  if (blockSize > 1024) {
    *numBlocks = 0;
    return cudaSuccess;
  }
  int warps = (blockSize + 31) / 32;
  int n = std::min(32, 64 / warps);
  size_t per = dynamicSMemSize + 1024;
  n = std::min<long long>(n, (long long)((228 * 1024) / per));
  *numBlocks = n;
  return cudaSuccess;
}
template <class T>
OMPGPU_EMU_API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, T *func, int blockSize,
                                                                 size_t dynamicSMemSize) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, (const void *)func, blockSize, dynamicSMemSize);
}

// Streams and events: launches and copies are synchronous, so these are bookkeeping only.
OMPGPU_EMU_API cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned int flags) {
  if (cudaError_t e = ompgpu_emu::check_device()) return e;
  if (!s) return ompgpu_emu::set_error(cudaErrorInvalidValue);
  *s = new CUstream_st{ompgpu_emu::kStreamMagic, flags};
  return cudaSuccess;
}
OMPGPU_EMU_API cudaError_t cudaStreamCreate(cudaStream_t *s) { return cudaStreamCreateWithFlags(s, cudaStreamDefault); }
OMPGPU_EMU_API cudaError_t cudaStreamDestroy(cudaStream_t s) {
  if (!s || s == cudaStreamLegacy || s == cudaStreamPerThread || s->magic != ompgpu_emu::kStreamMagic)
    return ompgpu_emu::set_error(cudaErrorInvalidResourceHandle);
  s->magic = 0;
  delete s;
  return cudaSuccess;
}
OMPGPU_EMU_API cudaError_t cudaStreamSynchronize(cudaStream_t s) {
  if (!ompgpu_emu::valid_stream(s)) return ompgpu_emu::set_error(cudaErrorInvalidResourceHandle);
  return ompgpu_emu::check_device();
}
OMPGPU_EMU_API cudaError_t cudaStreamQuery(cudaStream_t s) { return cudaStreamSynchronize(s); }
OMPGPU_EMU_API cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t, unsigned int = 0) { return cudaStreamSynchronize(s); }
OMPGPU_EMU_API cudaError_t cudaEventCreateWithFlags(cudaEvent_t *ev, unsigned int flags) {
  if (cudaError_t e = ompgpu_emu::check_device()) return e;
  if (!ev) return ompgpu_emu::set_error(cudaErrorInvalidValue);
  *ev = new CUevent_st{ompgpu_emu::kEventMagic, flags, false, 0};
  return cudaSuccess;
}
OMPGPU_EMU_API cudaError_t cudaEventCreate(cudaEvent_t *ev) { return cudaEventCreateWithFlags(ev, cudaEventDefault); }
OMPGPU_EMU_API cudaError_t cudaEventCreate(cudaEvent_t *ev, unsigned int flags) { return cudaEventCreateWithFlags(ev, flags); }
OMPGPU_EMU_API cudaError_t cudaEventRecord(cudaEvent_t ev, cudaStream_t s = 0) {
  if (!ev || ev->magic != ompgpu_emu::kEventMagic || !ompgpu_emu::valid_stream(s))
    return ompgpu_emu::set_error(cudaErrorInvalidResourceHandle);
  ev->recorded = true;
  ev->ns = ompgpu_emu::now_ns();
  return cudaSuccess;
}
OMPGPU_EMU_API cudaError_t cudaEventSynchronize(cudaEvent_t ev) {
  if (!ev || ev->magic != ompgpu_emu::kEventMagic) return ompgpu_emu::set_error(cudaErrorInvalidResourceHandle);
  return cudaSuccess;
}
OMPGPU_EMU_API cudaError_t cudaEventQuery(cudaEvent_t ev) { return cudaEventSynchronize(ev); }
OMPGPU_EMU_API cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end) {
  if (!ms) return ompgpu_emu::set_error(cudaErrorInvalidValue);
  if (!start || !end || start->magic != ompgpu_emu::kEventMagic || end->magic != ompgpu_emu::kEventMagic ||
      !start->recorded || !end->recorded || ((start->flags | end->flags) & cudaEventDisableTiming))
    return ompgpu_emu::set_error(cudaErrorInvalidResourceHandle);
  *ms = (float)((double)((long long)end->ns - (long long)start->ns) / 1e6);
  return cudaSuccess;
}
OMPGPU_EMU_API cudaError_t cudaEventDestroy(cudaEvent_t ev) {
  if (!ev || ev->magic != ompgpu_emu::kEventMagic) return ompgpu_emu::set_error(cudaErrorInvalidResourceHandle);
  ev->magic = 0;
  delete ev;
  return cudaSuccess;
}

#endif  // OMPGPU_EMU_RUNTIME_API_H
