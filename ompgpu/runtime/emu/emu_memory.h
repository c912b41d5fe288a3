// emu_memory.h - part of the ompgpu device emulator: include cuda_emu.h, which includes
// the parts in order (each uses what the ones before it define).
// Memory: the host-side state of the emulated devices (allocations, symbols, streams, events).
#ifndef OMPGPU_EMU_MEMORY_H
#define OMPGPU_EMU_MEMORY_H

namespace ompgpu_emu {

// ----- host-side state --------------------------------------------------------------------------
struct CudaState {
  Mutex mu;
  std::map<uintptr_t, std::pair<size_t, int>> allocs;  // base -> (size, kind: 0 device, 1 symbol)
  std::map<const void *, int> func_max_dyn;            // cudaFuncAttributeMaxDynamicSharedMemorySize
  unsigned long long used = 0;
  Mutex launch_mu;
  unsigned long long launch_start_ns = 0;              // __atomic; 0 when no launch runs
  const char *launch_name = nullptr;
};
inline CudaState &state() {
  static CudaState *s = new CudaState();
  return *s;
}
inline __thread int t_last_error = 0;
inline __thread int t_device = 0;
inline cudaError_t set_error(cudaError_t e) {
  if (e != cudaSuccess) t_last_error = e;
  return e;
}

// Device range [p, p+n) inside one registered allocation (device memory or symbol)?
inline bool is_device_range(const void *p, size_t n) {
  CudaState &s = state();
  Guard lk(s.mu);
  uintptr_t a = (uintptr_t)p;
  auto it = s.allocs.upper_bound(a);
  if (it == s.allocs.begin()) return false;
  --it;
  if (it->second.second == 2) return false;
  return a >= it->first && a + n <= it->first + it->second.first && a + n >= a;
}

inline bool on_current_stack(const void *p) {
  static __thread uintptr_t lo = 0, hi = 0;
  if (!hi) {
    pthread_attr_t at;
    if (pthread_getattr_np(pthread_self(), &at) == 0) {
      void *base = nullptr;
      size_t size = 0;
      pthread_attr_getstack(&at, &base, &size);
      lo = (uintptr_t)base;
      hi = lo + size;
      pthread_attr_destroy(&at);
    } else {
      hi = 1;
    }
  }
  return (uintptr_t)p >= lo && (uintptr_t)p < hi;
}

void *watchdog(void *);
inline void watchdog_start() {
  if (config().timeout_s <= 0) return;
  static bool once = (start_detached(watchdog, nullptr), true);
  (void)once;
}

inline cudaError_t launch(Launch &L) {
  const Config &c = config();
  if (c.devices == 0) return set_error(cudaErrorNoDevice);
  if (t_exec && t_exec->cur) fatal("kernel %s launched from device code (not supported)%s", L.name, where().c_str());
  dim3 g = L.grid, b = L.block;
  unsigned long long nt = (unsigned long long)b.x * b.y * b.z;
  if (!g.x || !g.y || !g.z || !b.x || !b.y || !b.z || nt > kMaxThreads || b.x > 1024 || b.y > 1024 || b.z > 64 ||
      g.x > 2147483647u || g.y > 65535 || g.z > 65535)
    return set_error(cudaErrorInvalidValue);  // what CUDA 13 returns (checked on an H100)
  if (!valid_stream(L.stream)) return set_error(cudaErrorInvalidResourceHandle);
  if (L.shmem > kMaxDynShared)
    fatal("kernel %s: dynamic shared memory request of %zu bytes exceeds the %zu bytes (227 KiB) a block can have",
          L.name, L.shmem, kMaxDynShared);
  if (L.shmem > kDefaultDynShared) {
    int allowed = 0;
    {
      Guard lk(state().mu);
      auto it = state().func_max_dyn.find((const void *)L.invoke_key);
      if (it != state().func_max_dyn.end()) allowed = it->second;
    }
    if (L.shmem > (size_t)allowed) return set_error(cudaErrorInvalidValue);
  }
  L.nthreads = (unsigned)nt;
  L.nblocks = (unsigned long long)g.x * g.y * g.z;
  Guard lk(state().launch_mu);
  watchdog_start();
  state().launch_name = L.name;
  __atomic_store_n(&state().launch_start_ns, now_ns(), __ATOMIC_RELAXED);
  if (L.cooperative && L.nblocks > kMaxCooperativeBlocks) return set_error(cudaErrorCooperativeLaunchTooLarge);
  int workers = L.cooperative ? (int)L.nblocks - 1
                              : (int)std::min<unsigned long long>((unsigned long long)c.threads, L.nblocks) - 1;
  if (workers <= 0)
    run_blocks(L);
  else
    pool_run(L, workers);
  __atomic_store_n(&state().launch_start_ns, 0ull, __ATOMIC_RELAXED);
  return cudaSuccess;
}

template <class Tuple, class Fn>
struct KernelCall {
  Fn fn;
  Tuple args;
  static void invoke(void *p) {
    KernelCall *k = static_cast<KernelCall *>(p);
    std::apply(k->fn, k->args);
  }
};

template <class... P, class... A>
inline cudaError_t launch_kernel_as(bool cooperative, const char *name, void (*fn)(P...), dim3 grid, dim3 block,
                                    size_t shmem, cudaStream_t stream, A &&...args) {
  static_assert(sizeof...(P) == sizeof...(A), "OMPGPU_LAUNCH_KERNEL: wrong number of kernel arguments");
  using Tuple = std::tuple<std::decay_t<P>...>;
  KernelCall<Tuple, void (*)(P...)> call{fn, Tuple(std::forward<A>(args)...)};
  Launch L;
  L.name = name;
  L.invoke = &KernelCall<Tuple, void (*)(P...)>::invoke;
  L.invoke_key = (const void *)fn;
  L.ctx = &call;
  L.grid = grid;
  L.block = block;
  L.shmem = shmem;
  L.stream = stream;
  L.cooperative = cooperative;
  return launch(L);
}

template <class... P, class... A>
inline void launch_kernel(const char *name, void (*fn)(P...), dim3 grid, dim3 block, size_t shmem, cudaStream_t stream,
                          A &&...args) {
  (void)launch_kernel_as(false, name, fn, grid, block, shmem, stream, std::forward<A>(args)...);
}

inline char *dynamic_shared() {
  Exec *e = t_exec;
  return e ? e->dyn : nullptr;
}

template <class T>
inline uint64_t to_bits(T v) {
  static_assert(sizeof(T) <= 8, "");
  uint64_t b = 0;
  memcpy(&b, &v, sizeof v);
  return b;
}
template <class T>
inline T from_bits(uint64_t b) {
  T v;
  memcpy(&v, &b, sizeof v);
  return v;
}


}  // namespace ompgpu_emu

#endif  // OMPGPU_EMU_MEMORY_H
