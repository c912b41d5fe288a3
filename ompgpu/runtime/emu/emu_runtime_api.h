// emu_runtime_api.h - part of the ompgpu device emulator: include cuda_emu.h, which includes
// the parts in order (each uses what the ones before it define).
// The CUDA runtime API, host side: devices, memory, copies, streams, events, launches' attributes.
#ifndef OMPGPU_EMU_RUNTIME_API_H
#define OMPGPU_EMU_RUNTIME_API_H

// ---------------------------------------------------------------------------------------
// CUDA runtime API (host side)
// ---------------------------------------------------------------------------------------
namespace ompgpu_emu {
cudaError_t check_device();
cudaError_t check_kind(cudaMemcpyKind kind, void *dst, const void *src, size_t n);
cudaError_t memcpy_checked(void *dst, const void *src, size_t n, cudaMemcpyKind kind);
inline void register_range(const void *p, size_t n, int kind) {
  CudaState &s = state();
  Guard lk(s.mu);
  s.allocs[(uintptr_t)p] = std::make_pair(n, kind);
}
cudaError_t symbol_check(const void *sym, size_t symsize, size_t count, size_t offset);
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
    OMPGPU_EMU_E(cudaErrorLaunchTimeout) OMPGPU_EMU_E(cudaErrorCooperativeLaunchTooLarge) OMPGPU_EMU_E(cudaErrorAssert) OMPGPU_EMU_E(cudaErrorLaunchFailure)
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
    case cudaErrorCooperativeLaunchTooLarge: return "too many blocks in cooperative launch";
    case cudaErrorAssert: return "device-side assert triggered";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
    case cudaErrorNotSupported: return "operation not supported";
    case cudaErrorUnknown: return "unknown error";
  }
  return "unrecognized error code";
}
cudaError_t cudaGetLastError();
cudaError_t cudaPeekAtLastError();

cudaError_t cudaGetDeviceCount(int *count);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDevice(int *device);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp *prop, int device);
cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int device);
cudaError_t cudaDriverGetVersion(int *v);
cudaError_t cudaRuntimeGetVersion(int *v);
cudaError_t cudaDeviceSynchronize();
cudaError_t cudaDeviceReset();
cudaError_t cudaSetDeviceFlags(unsigned int);
cudaError_t cudaDeviceSetLimit(cudaLimit, size_t);
cudaError_t cudaDeviceGetLimit(size_t *v, cudaLimit limit);

// Device memory is host memory (256-byte aligned, filled with 0xA5 so that reading memory
// nobody wrote shows). Under -fsanitize=address kernels' out-of-bounds accesses to it are
// reported by AddressSanitizer.
cudaError_t cudaMalloc(void **ptr, size_t size);
template <class T>
OMPGPU_EMU_API cudaError_t cudaMalloc(T **ptr, size_t size) { return cudaMalloc((void **)ptr, size); }
cudaError_t cudaMallocManaged(void **ptr, size_t size, unsigned int = 1);
cudaError_t cudaMallocAsync(void **ptr, size_t size, cudaStream_t);
cudaError_t cudaFree(void *p);
cudaError_t cudaFreeAsync(void *p, cudaStream_t);
cudaError_t cudaMallocHost(void **ptr, size_t size);
template <class T>
OMPGPU_EMU_API cudaError_t cudaMallocHost(T **ptr, size_t size) { return cudaMallocHost((void **)ptr, size); }
cudaError_t cudaHostAlloc(void **ptr, size_t size, unsigned int);
cudaError_t cudaFreeHost(void *p);
cudaError_t cudaHostRegister(void *, size_t, unsigned int);
cudaError_t cudaHostUnregister(void *);
cudaError_t cudaMemGetInfo(size_t *free_b, size_t *total);
cudaError_t cudaPointerGetAttributes(cudaPointerAttributes *a, const void *p);

// Copies check that the device side lies inside one cudaMalloc allocation (or a symbol).
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, cudaMemcpyKind kind,
                                   cudaStream_t stream = 0);
// height rows of width bytes, each row checked as one copy (the rows pitch bytes apart).
cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                     size_t height, cudaMemcpyKind kind, cudaStream_t stream = 0);
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                                size_t height, cudaMemcpyKind kind);
cudaError_t cudaMemset(void *dst, int value, size_t count);
cudaError_t cudaMemsetAsync(void *dst, int value, size_t count, cudaStream_t stream = 0);

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
cudaError_t cudaFuncSetAttribute(const void *func, cudaFuncAttribute attr, int value);
template <class T>
OMPGPU_EMU_API cudaError_t cudaFuncSetAttribute(T *func, cudaFuncAttribute attr, int value) {
  return cudaFuncSetAttribute((const void *)func, attr, value);
}
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *a, const void *func);
template <class T>
OMPGPU_EMU_API cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *a, T *func) {
  return cudaFuncGetAttributes(a, (const void *)func);
}
// A plausible sm_90 answer: 2048 threads, 32 blocks and 228 KiB of shared memory per SM.
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func, int blockSize,
                                                                 size_t dynamicSMemSize);
template <class T>
OMPGPU_EMU_API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, T *func, int blockSize,
                                                                 size_t dynamicSMemSize) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, (const void *)func, blockSize, dynamicSMemSize);
}

// Streams and events: launches and copies are synchronous, so these are bookkeeping only.
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned int flags);
cudaError_t cudaStreamCreate(cudaStream_t *s);
cudaError_t cudaStreamDestroy(cudaStream_t s);
cudaError_t cudaStreamSynchronize(cudaStream_t s);
cudaError_t cudaStreamQuery(cudaStream_t s);
cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t, unsigned int = 0);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *ev, unsigned int flags);
cudaError_t cudaEventCreate(cudaEvent_t *ev);
cudaError_t cudaEventCreate(cudaEvent_t *ev, unsigned int flags);
cudaError_t cudaEventRecord(cudaEvent_t ev, cudaStream_t s = 0);
cudaError_t cudaEventSynchronize(cudaEvent_t ev);
cudaError_t cudaEventQuery(cudaEvent_t ev);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaEventDestroy(cudaEvent_t ev);

#endif  // OMPGPU_EMU_RUNTIME_API_H
