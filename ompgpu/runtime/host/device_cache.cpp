// ompgpu host runtime: the per-device cache of present-table memory (DeviceMemoryCache in
// host_internal.hpp says why and how blocks are kept safe from kernels still running).
#include "host_internal.hpp"

#include <cstdlib>

namespace ompgpu_host {

namespace {

constexpr std::size_t kSmallestClass = 256;               // cudaMalloc's alignment
constexpr std::size_t kLargestStepped = std::size_t(64) << 20;   // quarter steps up to here
constexpr std::size_t kLargeStep = std::size_t(2) << 20;         // above: 2 MiB steps (< 3.2% more)

// Gives the cached blocks back to CUDA when the program ends normally, so that tools
// which look for leaks see none. Not after a fatal error (the failing thread may hold
// rt().mu) nor while another thread holds the lock: the driver frees the memory anyway.
void release_caches_at_exit() {
  if (exiting_on_error() || !runtime_started()) return;
  Runtime &r = rt();
  if (!r.mu.try_lock()) return;
  for (Device *d : r.devices) {
    if (d->cache.cached_blocks() == 0) continue;
    if (cudaSetDevice(d->id) != cudaSuccess) {
      (void)cudaGetLastError();
      continue;
    }
    d->cache.release_all();
  }
  r.mu.unlock();
}

// Registered after CUDA initialised, so it runs before the CUDA runtime's own exit handlers.
void register_exit_handler() {
  static std::once_flag once;
  std::call_once(once, [] { std::atexit(release_caches_at_exit); });
}

}  // namespace

std::size_t DeviceMemoryCache::size_class(std::size_t size, std::size_t cap) {
  if (cap == 0) return 0;
  std::size_t cls = kSmallestClass;
  if (size > kLargestStepped) {
    // Large arrays mapped again and again (a target data region in a time-step loop) come back
    // at the same size: a class of their size in 2 MiB steps wastes little and is found again.
    cls = (size + kLargeStep - 1) / kLargeStep * kLargeStep;
  } else if (size > kSmallestClass) {
    // the highest power of two below size, then steps of a quarter of it
    std::size_t base = kSmallestClass;
    while (base * 2 < size) base *= 2;
    std::size_t step = base / 4;
    cls = (size + step - 1) / step * step;
  }
  return cls <= cap ? cls : 0;
}

cudaError_t DeviceMemoryCache::allocate(std::size_t size, void **p, std::size_t *cls) {
  if (!left_running_.empty()) finish_ended_kernels();
  std::size_t c = size_class(size, env().device_cache_bytes);
  *cls = c;
  if (c) {
    auto it = free_.find(c);
    if (it != free_.end()) {
      std::deque<Block> &blocks = it->second;
      for (auto b = blocks.begin(); b != blocks.end(); ++b) {
        if (!reusable(*b)) continue;
        *p = b->p;
        lru_.erase(b->stamp);
        blocks.erase(b);
        cached_bytes_ -= c;
        --cached_blocks_;
        return cudaSuccess;
      }
    }
  }
  std::size_t bytes = c ? c : size;
  cudaError_t err = cudaMalloc(p, bytes);
  if (err == cudaErrorMemoryAllocation && cached_blocks_ > 0) {   // the cached blocks back to CUDA, once more
    (void)cudaGetLastError();
    release_all();
    err = cudaMalloc(p, bytes);
  }
  if (err == cudaErrorMemoryAllocation && bytes != size) {   // without rounding up to the class (not cached)
    (void)cudaGetLastError();
    *cls = 0;
    err = cudaMalloc(p, size);
  }
  return err;
}

void DeviceMemoryCache::release(void *p, std::size_t cls, std::vector<void *> *to_free) {
  if (cls == 0) {
    to_free->push_back(p);
    return;
  }
  // Make room by evicting the blocks released longest ago (size_class keeps cls <= cap).
  std::size_t cap = env().device_cache_bytes;
  while (cached_bytes_ + cls > cap && !lru_.empty()) {
    auto oldest = lru_.begin();
    std::size_t oc = oldest->second;
    std::deque<Block> &blocks = free_[oc];
    // blocks of a class are in release order, so the oldest of all is the first of its class
    to_free->push_back(blocks.front().p);
    blocks.pop_front();
    lru_.erase(oldest);
    cached_bytes_ -= oc;
    --cached_blocks_;
  }
  std::uint64_t stamp = ++releases_;
  free_[cls].push_back(Block{p, tickets_, stamp});
  lru_.emplace(stamp, cls);
  cached_bytes_ += cls;
  ++cached_blocks_;
  register_exit_handler();
}

void DeviceMemoryCache::release_all() {
  for (auto &kv : free_)
    for (const Block &b : kv.second)
      if (cudaFree(b.p) != cudaSuccess) (void)cudaGetLastError();
  free_.clear();
  lru_.clear();
  cached_bytes_ = 0;
  cached_blocks_ = 0;
}

std::uint64_t DeviceMemoryCache::kernel_started() {
  std::uint64_t t = ++tickets_;
  running_.insert(t);
  return t;
}

void DeviceMemoryCache::kernel_finished(std::uint64_t ticket) { running_.erase(ticket); }

void DeviceMemoryCache::kernel_left_running(std::uint64_t ticket, cudaEvent_t done) {
  finish_ended_kernels();   // a loop of calls that allocates nothing keeps the list short and reuses events
  left_running_.emplace_back(ticket, done);
}

cudaEvent_t DeviceMemoryCache::event_for_left_running() {
  if (!spare_events_.empty()) {
    cudaEvent_t e = spare_events_.back();
    spare_events_.pop_back();
    return e;
  }
  cudaEvent_t e = nullptr;
  if (cudaEventCreateWithFlags(&e, cudaEventDisableTiming) != cudaSuccess) {
    (void)cudaGetLastError();
    return nullptr;
  }
  return e;
}

void DeviceMemoryCache::finish_ended_kernels() {
  // Oldest first; the first that has not ended stops the look (those after it, mostly on the same
  // stream, have not either): a call then queries one event, not all.
  auto still = left_running_.begin();
  bool waiting = false;
  for (auto &k : left_running_) {
    const cudaError_t q = waiting ? cudaErrorNotReady : cudaEventQuery(k.second);
    if (q == cudaErrorNotReady) {
      waiting = true;
      *still++ = k;
      continue;
    }
    if (q != cudaSuccess) (void)cudaGetLastError();   // the kernel failed: the next wait on its stream says so
    running_.erase(k.first);
    spare_events_.push_back(k.second);
  }
  left_running_.erase(still, left_running_.end());
}

}  // namespace ompgpu_host

using namespace ompgpu_host;

// Test and debugging hook (not in ompgpu_host.h): the number of blocks in device's cache
// and, in *bytes (may be NULL), their total size; -1 when there is no such device.
extern "C" int ompgpu_debug_device_cache(int device, long long *bytes) {
  if (bytes) *bytes = 0;
  Runtime &r = rt();
  if (!r.available || device < 0 || device >= r.num_devices) return -1;
  std::lock_guard<std::mutex> g(r.mu);
  const DeviceMemoryCache &c = r.devices[static_cast<std::size_t>(device)]->cache;
  if (bytes) *bytes = static_cast<long long>(c.cached_bytes());
  return static_cast<int>(c.cached_blocks());
}
