// A minimal stand-in for the CUDA runtime API subset of docs/CONTRACTS.md, used only by
// tests/host_runtime to exercise the host runtime's logic without a GPU and without the
// real emulator (ompgpu/runtime/emu/cuda_emu.h). Force-included like cuda_emu.h:
//   g++ -std=c++17 -DOMPGPU_EMU -include tests/host_runtime/support/cuda_mock.h -c ...
// "Device memory" is host memory from malloc; copies check that the device side lies
// inside a live allocation of the current device (so a wrong translation fails).
// Knobs: MOCK_CUDA_DEVICES (default 1; 0 = no device), MOCK_CUDA_SMS (default 132),
// MOCK_CUDA_MEM (bytes of "device memory" per device, default 80 GiB).
#ifndef OMPGPU_TEST_CUDA_MOCK_H
#define OMPGPU_TEST_CUDA_MOCK_H
#ifdef __cplusplus
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <map>
#include <mutex>

enum cudaError_t {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101,
  cudaErrorNotReady = 600,
  cudaErrorLaunchFailure = 719,
  cudaErrorCooperativeLaunchTooLarge = 720,
};
enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4,
};
enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrClockRate = 13,
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrManagedMemory = 83,
  cudaDevAttrPageableMemoryAccess = 88,
  cudaDevAttrConcurrentManagedAccess = 89,
  cudaDevAttrCanUseHostPointerForRegisteredMem = 91,
  cudaDevAttrCooperativeLaunch = 95,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
};
typedef struct CUstream_st *cudaStream_t;
struct cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem, sharedMemPerBlock, sharedMemPerBlockOptin;
  int regsPerBlock, warpSize, maxThreadsPerBlock, maxThreadsPerMultiProcessor, multiProcessorCount,
      clockRate, major, minor;
};

namespace cuda_mock {
struct State {
  std::mutex mu;
  int ndev = -1, sms = 132;
  std::size_t mem = (std::size_t)80 << 30;
  std::map<std::uintptr_t, std::size_t> allocs[8];   // per device
  std::size_t used[8] = {0};
  long long malloc_calls = 0;                         // successful cudaMalloc calls
  long long stream_syncs = 0, stream_waits = 0;       // cudaStreamSynchronize, cudaStreamWaitEvent calls
};
inline State &st() {
  static State *s = new State();
  std::lock_guard<std::mutex> g(s->mu);
  if (s->ndev < 0) {
    const char *e = std::getenv("MOCK_CUDA_DEVICES");
    s->ndev = e ? std::atoi(e) : 1;
    if (s->ndev > 8) s->ndev = 8;
    if (const char *m = std::getenv("MOCK_CUDA_SMS")) s->sms = std::atoi(m);
    if (const char *m = std::getenv("MOCK_CUDA_MEM")) s->mem = (std::size_t)std::atoll(m);
  }
  return *s;
}
inline thread_local int current = 0;
inline thread_local cudaError_t last = cudaSuccess;   // per host thread, like CUDA's
inline cudaError_t ret(cudaError_t e) {
  if (e != cudaSuccess) last = e;
  return e;
}
inline bool in_device(const void *p, std::size_t n) {
  State &s = st();
  std::lock_guard<std::mutex> g(s.mu);
  auto &a = s.allocs[current];
  std::uintptr_t x = reinterpret_cast<std::uintptr_t>(p);
  auto it = a.upper_bound(x);
  if (it == a.begin()) return false;
  --it;
  return x >= it->first && x + n <= it->first + it->second;
}
}  // namespace cuda_mock

inline const char *cudaGetErrorName(cudaError_t e) {
  switch (e) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case cudaErrorNoDevice: return "cudaErrorNoDevice";
    case cudaErrorInvalidDevice: return "cudaErrorInvalidDevice";
    case cudaErrorNotReady: return "cudaErrorNotReady";
    case cudaErrorLaunchFailure: return "cudaErrorLaunchFailure";
    case cudaErrorCooperativeLaunchTooLarge: return "cudaErrorCooperativeLaunchTooLarge";
  }
  return "cudaErrorUnknown";
}
inline const char *cudaGetErrorString(cudaError_t e) {
  switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorNotReady: return "device not ready";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
    case cudaErrorCooperativeLaunchTooLarge: return "too many blocks in cooperative launch";
  }
  return "unknown error";
}
inline cudaError_t cudaGetLastError(void) {
  cudaError_t e = cuda_mock::last;
  cuda_mock::last = cudaSuccess;
  return e;
}
inline cudaError_t cudaPeekAtLastError(void) { return cuda_mock::last; }
inline cudaError_t cudaGetDeviceCount(int *n) {
  int d = cuda_mock::st().ndev;
  *n = 0;
  if (d <= 0) return cuda_mock::ret(cudaErrorNoDevice);
  *n = d;
  return cudaSuccess;
}
inline cudaError_t cudaSetDevice(int d) {
  if (d < 0 || d >= cuda_mock::st().ndev) return cuda_mock::ret(cudaErrorInvalidDevice);
  cuda_mock::current = d;
  return cudaSuccess;
}
inline cudaError_t cudaGetDevice(int *d) {
  *d = cuda_mock::current;
  return cudaSuccess;
}
inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int d) {
  if (d < 0 || d >= cuda_mock::st().ndev) return cuda_mock::ret(cudaErrorInvalidDevice);
  std::memset(p, 0, sizeof *p);
  std::strcpy(p->name, "cuda mock");
  p->totalGlobalMem = (size_t)80 << 30;
  p->sharedMemPerBlock = 48 << 10;
  p->sharedMemPerBlockOptin = 227 << 10;
  p->regsPerBlock = 65536;
  p->warpSize = 32;
  p->maxThreadsPerBlock = 1024;
  p->maxThreadsPerMultiProcessor = 2048;
  p->multiProcessorCount = cuda_mock::st().sms;
  p->clockRate = 1755000;
  p->major = 9;
  return cudaSuccess;
}
inline cudaError_t cudaDeviceGetAttribute(int *v, cudaDeviceAttr a, int d) {
  cudaDeviceProp p;
  cudaError_t e = cudaGetDeviceProperties(&p, d);
  if (e) return e;
  switch (a) {
    case cudaDevAttrMaxThreadsPerBlock: *v = p.maxThreadsPerBlock; break;
    case cudaDevAttrClockRate: *v = p.clockRate; break;
    case cudaDevAttrMultiProcessorCount: *v = p.multiProcessorCount; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *v = (int)p.sharedMemPerBlockOptin; break;
    case cudaDevAttrPageableMemoryAccess: *v = 0; break;
    case cudaDevAttrManagedMemory:
    case cudaDevAttrCooperativeLaunch:
    case cudaDevAttrConcurrentManagedAccess:
    case cudaDevAttrCanUseHostPointerForRegisteredMem: *v = 1; break;
  }
  return cudaSuccess;
}
inline cudaError_t cudaMalloc(void **p, size_t n) {
  *p = nullptr;
  cuda_mock::State &s = cuda_mock::st();
  {
    std::lock_guard<std::mutex> g(s.mu);
    if (n > s.mem || s.used[cuda_mock::current] + n > s.mem) return cuda_mock::ret(cudaErrorMemoryAllocation);
  }
  void *q = std::malloc(n ? n : 1);
  if (!q) return cuda_mock::ret(cudaErrorMemoryAllocation);
  std::memset(q, 0xA5, n);   // device memory starts as garbage
  std::lock_guard<std::mutex> g(s.mu);
  s.allocs[cuda_mock::current][reinterpret_cast<std::uintptr_t>(q)] = n;
  s.used[cuda_mock::current] += n;
  s.malloc_calls++;
  *p = q;
  return cudaSuccess;
}
inline cudaError_t cudaFree(void *p) {
  if (!p) return cudaSuccess;
  cuda_mock::State &s = cuda_mock::st();
  std::lock_guard<std::mutex> g(s.mu);
  auto &a = s.allocs[cuda_mock::current];
  auto it = a.find(reinterpret_cast<std::uintptr_t>(p));
  if (it == a.end()) return cuda_mock::ret(cudaErrorInvalidValue);
  s.used[cuda_mock::current] -= it->second;
  a.erase(it);
  std::free(p);
  return cudaSuccess;
}
inline cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, cudaMemcpyKind k) {
  if (n == 0) return cudaSuccess;
  if ((k == cudaMemcpyHostToDevice || k == cudaMemcpyDeviceToDevice) && !cuda_mock::in_device(dst, n))
    return cuda_mock::ret(cudaErrorInvalidValue);
  if ((k == cudaMemcpyDeviceToHost || k == cudaMemcpyDeviceToDevice) && !cuda_mock::in_device(src, n))
    return cuda_mock::ret(cudaErrorInvalidValue);
  std::memmove(dst, src, n);
  return cudaSuccess;
}
inline cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, cudaMemcpyKind k, cudaStream_t = 0) {
  return cudaMemcpy(dst, src, n, k);
}
// height rows of width bytes, pitch bytes apart on each side
inline cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                                     cudaMemcpyKind k, cudaStream_t = 0) {
  for (size_t r = 0; r < height; ++r)
    if (cudaError_t e = cudaMemcpy(static_cast<char *>(dst) + r * dpitch, static_cast<const char *>(src) + r * spitch, width, k))
      return e;
  return cudaSuccess;
}
inline cudaError_t cudaMemset(void *p, int v, size_t n) {
  std::memset(p, v, n);
  return cudaSuccess;
}
inline cudaError_t cudaDeviceSynchronize(void) { return cudaSuccess; }
inline cudaError_t cudaStreamSynchronize(cudaStream_t) {
  cuda_mock::State &s = cuda_mock::st();
  std::lock_guard<std::mutex> g(s.mu);
  ++s.stream_syncs;
  return cudaSuccess;
}
#define cudaStreamNonBlocking 0x01
// Streams are distinct non-null handles (never dereferenced); work runs at once.
inline cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned int) {
  static char handles[1024];
  static int next = 0;
  cuda_mock::State &st = cuda_mock::st();
  std::lock_guard<std::mutex> g(st.mu);
  *s = reinterpret_cast<cudaStream_t>(&handles[next++ % 1024]);
  return cudaSuccess;
}
inline cudaError_t cudaStreamDestroy(cudaStream_t) { return cudaSuccess; }
// Device limits (the heap's size): accepted, nothing to size.
enum cudaLimit { cudaLimitStackSize = 0, cudaLimitPrintfFifoSize = 1, cudaLimitMallocHeapSize = 2 };
inline cudaError_t cudaDeviceSetLimit(cudaLimit, size_t) { return cudaSuccess; }
// Events: work runs at once, so an event is complete when recorded; its time is the host's.
typedef struct CUevent_st *cudaEvent_t;
#define cudaEventDefault 0x00
#define cudaEventDisableTiming 0x02
inline cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned int) {
  *e = reinterpret_cast<cudaEvent_t>(new double(0));
  return cudaSuccess;
}
inline cudaError_t cudaEventCreate(cudaEvent_t *e) { return cudaEventCreateWithFlags(e, cudaEventDefault); }
inline cudaError_t cudaEventDestroy(cudaEvent_t e) {
  delete reinterpret_cast<double *>(e);
  return cudaSuccess;
}
inline cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t = 0) {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  *reinterpret_cast<double *>(e) = ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
  return cudaSuccess;
}
inline cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
inline cudaError_t cudaEventQuery(cudaEvent_t) { return cudaSuccess; }
inline cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned int = 0) {
  cuda_mock::State &s = cuda_mock::st();
  std::lock_guard<std::mutex> g(s.mu);
  ++s.stream_waits;
  return cudaSuccess;
}
inline cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b) {
  *ms = static_cast<float>(*reinterpret_cast<double *>(b) - *reinterpret_cast<double *>(a));
  return cudaSuccess;
}
// Pinned host memory: plain host memory here.
#define cudaHostAllocDefault 0x00
inline cudaError_t cudaHostAlloc(void **p, size_t n, unsigned int) {
  *p = std::malloc(n ? n : 1);
  return *p ? cudaSuccess : cuda_mock::ret(cudaErrorMemoryAllocation);
}
// Managed memory: device memory here (the mock's host memory); registered host memory: nothing to do.
#define cudaMemAttachGlobal 0x01
inline cudaError_t cudaMallocManaged(void **p, size_t n, unsigned int = cudaMemAttachGlobal) { return cudaMalloc(p, n); }
#define cudaHostRegisterPortable 0x01
#define cudaHostRegisterMapped 0x02
inline cudaError_t cudaHostRegister(void *, size_t, unsigned int) { return cudaSuccess; }
enum cudaMemoryType { cudaMemoryTypeUnregistered = 0, cudaMemoryTypeHost = 1, cudaMemoryTypeDevice = 2, cudaMemoryTypeManaged = 3 };
struct cudaPointerAttributes {
  cudaMemoryType type;
  int device;
  void *devicePointer, *hostPointer;
};
inline cudaError_t cudaPointerGetAttributes(cudaPointerAttributes *a, const void *p) {
  std::memset(a, 0, sizeof *a);
  a->type = cuda_mock::in_device(p, 1) ? cudaMemoryTypeDevice : cudaMemoryTypeUnregistered;
  return cudaSuccess;
}
inline cudaError_t cudaDriverGetVersion(int *v) { *v = 13000; return cudaSuccess; }
inline cudaError_t cudaRuntimeGetVersion(int *v) { *v = 13000; return cudaSuccess; }

// test hook: number of live mock allocations on all devices
extern "C" inline int cuda_mock_live_allocations(void) {
  cuda_mock::State &s = cuda_mock::st();
  std::lock_guard<std::mutex> g(s.mu);
  int n = 0;
  for (auto &a : s.allocs) n += (int)a.size();
  return n;
}
// test hook: successful cudaMalloc calls so far
extern "C" inline long long cuda_mock_malloc_calls(void) {
  cuda_mock::State &s = cuda_mock::st();
  std::lock_guard<std::mutex> g(s.mu);
  return s.malloc_calls;
}
// test hook: cudaStreamSynchronize (which = 0) or cudaStreamWaitEvent (which = 1) calls so far
extern "C" inline long long cuda_mock_stream_calls(int which) {
  cuda_mock::State &s = cuda_mock::st();
  std::lock_guard<std::mutex> g(s.mu);
  return which ? s.stream_waits : s.stream_syncs;
}
// test hook: bytes allocated on all devices
extern "C" inline long long cuda_mock_used_bytes(void) {
  cuda_mock::State &s = cuda_mock::st();
  std::lock_guard<std::mutex> g(s.mu);
  long long n = 0;
  for (std::size_t u : s.used) n += (long long)u;
  return n;
}
#endif  // __cplusplus
#endif
