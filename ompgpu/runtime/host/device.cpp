// ompgpu host runtime: lazy device initialisation, device selection, properties.
#include "host_internal.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>

namespace ompgpu_host {

namespace {

std::atomic<bool> g_unified_shared_memory{false};
std::once_flag g_init_once;
std::atomic<Runtime *> g_rt{nullptr};

void init_runtime(Runtime *r) {
  const Env &e = env();
  if (e.offload == Offload::Disabled) {
    r->unavailable_reason = "OMP_TARGET_OFFLOAD=DISABLED";
    return;   // CUDA is never touched
  }
  int n = 0;
  note_cuda_touched();
  cudaError_t err = cudaGetDeviceCount(&n);
  if (err != cudaSuccess) {
    r->unavailable_reason = cuda_error_text(err);
    (void)cudaGetLastError();   // clear it: later calls must not see it
    return;
  }
  if (n <= 0) {
    r->unavailable_reason = "no CUDA device found";
    return;
  }
  for (int i = 0; i < n; ++i) {
    Device *d = new Device();
    d->id = i;
    cudaDeviceProp p;
    std::memset(&p, 0, sizeof p);
    err = cudaGetDeviceProperties(&p, i);
    if (err != cudaSuccess) {
      r->unavailable_reason = "properties of device " + std::to_string(i) + ": " + cuda_error_text(err);
      (void)cudaGetLastError();
      for (Device *x : r->devices) delete x;
      delete d;
      r->devices.clear();
      return;
    }
    d->name = p.name;
    if (p.multiProcessorCount > 0) d->sms = p.multiProcessorCount;
    if (p.maxThreadsPerBlock > 0) d->max_threads_per_block = p.maxThreadsPerBlock;
    if (p.maxThreadsPerMultiProcessor > 0) d->max_threads_per_sm = p.maxThreadsPerMultiProcessor;
    d->total_mem = p.totalGlobalMem;
    int pageable = 0;
    if (cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, i) != cudaSuccess) (void)cudaGetLastError();
    d->pageable_memory_access = pageable != 0;
    r->devices.push_back(d);
  }
  if (unified_shared_memory()) {
    for (Device *d : r->devices) {
      if (d->pageable_memory_access) continue;
      // Without pageable memory access: managed memory for the heap, registered host memory for
      // the rest (usm.cpp), where the device has managed memory that host and device may use at
      // the same time (cudaDevAttrConcurrentManagedAccess) and reaches registered host memory at
      // its host address (cudaDevAttrCanUseHostPointerForRegisteredMem).
      int managed = 0, concurrent = 0, host_pointer = 0;
      if (cudaDeviceGetAttribute(&managed, cudaDevAttrManagedMemory, d->id) != cudaSuccess ||
          cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess, d->id) != cudaSuccess ||
          cudaDeviceGetAttribute(&host_pointer, cudaDevAttrCanUseHostPointerForRegisteredMem, d->id) != cudaSuccess)
        (void)cudaGetLastError();
      if (managed && concurrent && host_pointer) {
        if (!r->usm_managed)
          info(Loc(), "unified shared memory: device %d (%s) cannot access pageable host memory; the heap of files "
               "that require unified_shared_memory is CUDA managed memory, stacks and static data are registered",
               d->id, d->name.c_str());
        r->usm_managed = true;
        continue;
      }
      // OpenMP: a device that does not meet the program's requirements is not available.
      r->unavailable_reason = "the program requires unified_shared_memory, and device " + std::to_string(d->id) + " (" +
                              d->name + ") can neither access pageable host memory (cudaDevAttrPageableMemoryAccess "
                              "is 0) nor share managed memory with the host";
      for (Device *x : r->devices) delete x;
      r->devices.clear();
      r->usm_managed = false;
      return;
    }
  }
  r->num_devices = n;
  r->available = true;
  // Each device's context and globals wait for its first use (activate_device).
}

}  // namespace

bool unified_shared_memory() { return g_unified_shared_memory.load(); }

Runtime &rt() {
  std::call_once(g_init_once, [] {
    Runtime *r = new Runtime();   // never destroyed (see env.cpp)
    init_runtime(r);
    g_rt.store(r);
  });
  return *g_rt.load();
}

bool runtime_started() { return g_rt.load() != nullptr; }

void forget_inherited_devices(const std::string &reason) {
  Runtime *r = g_rt.load();
  if (!r || !r->available) return;
  // The parent's Runtime (its devices, tables, streams) is left as it is: none of its CUDA
  // objects are valid in this process.
  Runtime *fresh = new Runtime();
  fresh->unavailable_reason = reason;
  g_rt.store(fresh);
}

void activate_device(int d) {
  Runtime &r = rt();
  Device &dev = *r.devices[static_cast<std::size_t>(d)];
  if (dev.active.load(std::memory_order_acquire)) return;
  std::call_once(dev.activation, [&] {
    // The context first (no lock held: creating it takes long), then the globals.
    if (cudaSetDevice(d) != cudaSuccess || cudaFree(nullptr) != cudaSuccess) (void)cudaGetLastError();
    // before any kernel runs there: CUDA fixes the heap's size at the first launch that uses it
    if (env().device_heap_bytes > 0 && cudaDeviceSetLimit(cudaLimitMallocHeapSize, env().device_heap_bytes) != cudaSuccess)
      (void)cudaGetLastError();
    std::lock_guard<std::mutex> g(r.mu);
    register_globals_on(dev);
    dev.active.store(true, std::memory_order_release);
  });
  (void)cudaSetDevice(d);
}

int usable_devices() {
  Runtime &r = rt();
  return r.available ? r.num_devices : 0;
}

void require_mandatory(const Loc &loc) {
  if (env().offload != Offload::Mandatory) return;
  Runtime &r = rt();
  if (r.available) return;
  // The error has no location (the condition is global); a note says which construct
  // needed the device.
  std::string text = "ompgpu: error: OMP_TARGET_OFFLOAD=MANDATORY but no GPU is available (" +
                     r.unavailable_reason + ")\n";
  std::string p = loc_prefix(loc, true);
  if (!p.empty())
    text += "ompgpu: " + p + "note: the '" + std::string(loc.construct ? loc.construct : "target") +
            "' construct here needs a device\n";
  fatal_text(text);
}

int resolve_device(const Loc &loc, long long device) {
  bool from_clause = device != OMPGPU_DEVICE_DEFAULT;
  if (!from_clause) device = default_device_icv();
  const Env &e = env();
  if (e.offload == Offload::Disabled) return -1;
  Runtime &r = rt();
  if (!r.available) {
    require_mandatory(loc);   // exits under MANDATORY
    if (!forked_child_reason().empty()) {
      static std::once_flag warned;
      std::call_once(warned, [] {
        warning("target constructs of this process run on the host: %s", forked_child_reason().c_str());
      });
    }
    return -1;                // DEFAULT: host fallback
  }
  if (device == r.num_devices) return -1;             // the host's device number
  if (!from_clause && device == -1) return -1;        // OMP_DEFAULT_DEVICE=initial / omp_set_default_device(-1)
  if (device < 0 || device > r.num_devices) {
    const char *c = loc.construct ? loc.construct : "target";
    if (from_clause)
      fatal(loc, "device number %lld in the device clause of '%s' is out of range (%d device%s available)",
            device, c, r.num_devices, r.num_devices == 1 ? "" : "s");
    fatal(loc, "default device %lld (OMP_DEFAULT_DEVICE / omp_set_default_device) used by '%s' is out of range "
               "(%d device%s available)",
          device, c, r.num_devices, r.num_devices == 1 ? "" : "s");
  }
  return static_cast<int>(device);
}

void select_device(const Loc &loc, int d) {
  cudaError_t err = cudaSetDevice(d);
  if (err != cudaSuccess) cuda_fatal(loc, err, "selecting device " + std::to_string(d));
  activate_device(d);
}

cudaStream_t thread_stream(const Loc &loc, int d) {
  // One stream per (host thread, device). A libgomp thread runs one task at a time and a
  // construct never yields to another task inside the runtime, so this is also a stream
  // per running target task.
  cudaStream_t caller = nullptr;
  if (call_stream(d, &caller)) {   // a Python API call on its caller's stream: its arrays are the program's
    device_addresses_escape();
    return caller;
  }
  thread_local std::vector<cudaStream_t> streams;
  std::size_t i = static_cast<std::size_t>(d);
  if (streams.size() <= i) streams.resize(i + 1, nullptr);
  if (!streams[i]) {
    cudaStream_t s = nullptr;
    cudaError_t err = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    if (err != cudaSuccess) cuda_fatal(loc, err, "creating a stream on device " + std::to_string(d));
    streams[i] = s;
  }
  order_after_deferred_copies(d, streams[i]);   // small copies other threads did not wait for
  return streams[i];
}

void *launch_scratch(int d, std::size_t bytes, unsigned *epoch) {
  // Per (host thread, device), like the stream: a target region's launch is synchronized on
  // its thread's stream before the construct returns, so no two kernels use one scratch at once.
  // Kernels leave it zeroed but for their jobs, which carry their launch's epoch (numbered per
  // scratch from 1; runtime/device/spread.cuh), so no launch has to clear them. Kept for the
  // thread's life. NULL where it cannot be had: the kernel then runs without splitting iterations.
  struct Scratch {
    void *p = nullptr;
    std::size_t bytes = 0;
    unsigned epoch = 0;
  };
  thread_local std::vector<Scratch> scratch;
  std::size_t i = static_cast<std::size_t>(d);
  if (scratch.size() <= i) scratch.resize(i + 1);
  Scratch &s = scratch[i];
  if (s.bytes < bytes) {
    if (s.p) (void)cudaFree(s.p);
    s = Scratch();
    const std::size_t want = std::max<std::size_t>(bytes, 64 * 1024);
    void *p = nullptr;
    if (cudaMalloc(&p, want) != cudaSuccess || cudaMemset(p, 0, want) != cudaSuccess) {
      if (p) (void)cudaFree(p);
      (void)cudaGetLastError();
      return nullptr;
    }
    s.p = p;
    s.bytes = want;
  }
  if (++s.epoch == 0) s.epoch = 2;   // 0 marks a job never published; the parity keeps alternating
  *epoch = s.epoch;
  return s.p;
}

}  // namespace ompgpu_host

// ------------------------------------------------------------ host-side omp_* device API
using namespace ompgpu_host;

extern "C" int ompgpu_omp_get_num_devices(void) { return usable_devices(); }

extern "C" int ompgpu_omp_get_default_device(void) { return static_cast<int>(default_device_icv()); }

extern "C" void ompgpu_omp_set_default_device(int device_num) { set_default_device_icv(device_num); }

// OpenMP 5.1: the host's device number equals omp_get_num_devices().
extern "C" int ompgpu_omp_get_initial_device(void) { return usable_devices(); }

extern "C" int ompgpu_omp_is_initial_device(void) { return 1; }   // host code

extern "C" int ompgpu_omp_get_device_num(void) { return usable_devices(); }

// The omp_* names (see memory_api.cpp): they win over libgomp's for any caller.
extern "C" int omp_get_num_devices(void) { return ompgpu_omp_get_num_devices(); }
extern "C" int omp_get_default_device(void) { return ompgpu_omp_get_default_device(); }
extern "C" void omp_set_default_device(int device_num) { ompgpu_omp_set_default_device(device_num); }
extern "C" int omp_get_initial_device(void) { return ompgpu_omp_get_initial_device(); }
extern "C" int omp_is_initial_device(void) { return ompgpu_omp_is_initial_device(); }
extern "C" int omp_get_device_num(void) { return ompgpu_omp_get_device_num(); }

extern "C" void ompgpu_require_unified_shared_memory(void) {
  if (ompgpu_host::runtime_started() && !ompgpu_host::unified_shared_memory())
    ompgpu_host::fatal(ompgpu_host::Loc(), "'requires unified_shared_memory' in code loaded after the runtime "
                                          "started its devices (at program start, or with OMPGPU_STARTUP=lazy at the "
                                          "first target construct); the requirement must hold for the whole program");
  ompgpu_host::g_unified_shared_memory.store(true);
}
