// ompgpu host runtime: copies between host and device memory at pinned-memory speed.
//
// The copy engines move data only between device memory and pinned (page-locked) host
// memory. A cudaMemcpy from pageable memory makes the driver copy it through its own small
// pinned buffers, one thread, one piece at a time: 7-8 GB/s to the device and 9-14 back on
// an H100 whose link moves several times that from pinned memory. So a large copy from or to
// pageable memory goes through the runtime's own pinned staging buffers instead: the copy is
// cut into chunks; for each chunk the host side (pageable <-> pinned) is done by the calling
// thread and a few helper threads together, and it overlaps the DMA of the neighbouring
// chunks (several buffers in flight on the stream, each guarded by an event).
//
// Small copies, copies from memory that is pinned already (cudaHostAlloc, cudaHostRegister,
// managed memory), and copies while another thread uses the device's staging buffers go
// straight to cudaMemcpyAsync as before. The user's pages are never registered: memory a
// program frees while registered would stay pinned, and a later allocation at the same
// address would be copied from stale pages.
#include "host_internal.hpp"

#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <new>
#include <thread>

namespace ompgpu_host {
namespace {

constexpr int kMaxBuffers = 16;                              // chunks in flight: Env::staging_buffers
constexpr std::size_t kSmallestChunk = std::size_t(512) << 10;
constexpr std::size_t kSmallestPiece = std::size_t(256) << 10;   // of a helper thread's share of a chunk
constexpr std::size_t kPieceAlign = 4096;                    // helpers' pieces start on pages

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23   // Linux 5.14; older kernels answer EINVAL and the copy faults as before
#endif

constexpr int kFreshHuge = 1, kFreshPopulate = 2;   // Env::fresh_pages bits
constexpr std::uintptr_t kHugePage = std::uintptr_t(2) << 20;

// madvise over the whole pages inside [p, p + n) aligned to `align`; errors are ignored (the
// advice only makes the copy faster where the kernel takes it).
void advise(void *p, std::size_t n, std::uintptr_t align, int advice) {
  const std::uintptr_t b = (reinterpret_cast<std::uintptr_t>(p) + align - 1) / align * align;
  const std::uintptr_t e = (reinterpret_cast<std::uintptr_t>(p) + n) / align * align;
  if (e > b) (void)madvise(reinterpret_cast<void *>(b), e - b, advice);
}

std::uintptr_t page_size() {
  static const std::uintptr_t size = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE) > 0 ? sysconf(_SC_PAGESIZE) : 4096);
  return size;
}

// The first whole page of [p, p + n) is not backed yet: the memory has not been touched since it
// was allocated (a fresh malloc). Only such a destination is advised: advice on memory in use
// would split its mapping anew at every copy into another part of it (the process's count of
// mappings is limited, vm.max_map_count).
bool looks_fresh(void *p, std::size_t n) {
  const std::uintptr_t pg = page_size();
  const std::uintptr_t b = (reinterpret_cast<std::uintptr_t>(p) + pg - 1) / pg * pg;
  if (b + pg > reinterpret_cast<std::uintptr_t>(p) + n) return false;
  unsigned char resident = 0;
  return mincore(reinterpret_cast<void *>(b), pg, &resident) == 0 && !(resident & 1);
}

// ------------------------------------------------------------------ copy helpers
// A memcpy shared by the calling thread and the helper threads: each takes the next piece.
class CopyPool {
 public:
  // populate: each piece's destination pages are faulted in before it is copied (kFreshPopulate).
  void copy(void *dst, const void *src, std::size_t n, bool populate = false) {
    std::unique_lock<std::mutex> busy(job_mu_, std::try_to_lock);
    const std::size_t pieces = std::min<std::size_t>(static_cast<std::size_t>(workers() + 1), n / kSmallestPiece);
    if (!busy.owns_lock() || pieces < 2) {   // another thread's copy has the helpers, or too small
      if (populate) advise(dst, n, page_size(), MADV_POPULATE_WRITE);
      std::memcpy(dst, src, n);
      return;
    }
    {
      std::lock_guard<std::mutex> g(mu_);
      populate_ = populate;
      dst_ = static_cast<char *>(dst);
      src_ = static_cast<const char *>(src);
      n_ = n;
      piece_ = (n / pieces + kPieceAlign - 1) / kPieceAlign * kPieceAlign;
      next_ = 0;
      left_ = (n + piece_ - 1) / piece_;
      ++generation_;
    }
    wake_.notify_all();
    work();
    std::unique_lock<std::mutex> g(mu_);
    finished_.wait(g, [&] { return left_ == 0; });
  }

  // Starts the helper threads now (the background start-up: not inside the first copy).
  void start() {
    std::lock_guard<std::mutex> busy(job_mu_);
    (void)workers();
  }

  // In a child process the helper threads do not exist: start afresh (threads on demand).
  void forget_threads() {
    new (&mu_) std::mutex();
    new (&job_mu_) std::mutex();
    new (&wake_) std::condition_variable();
    new (&finished_) std::condition_variable();
    started_ = 0;
    left_ = 0;
  }

 private:
  int workers() {
    int want = env().copy_threads;
    // Half the processors, less the caller, at most 7: on an H200 machine's 16 processors, 7
    // helpers moved 33-48 GB/s at 64 MB to 1 GB, 4 helpers 20-30, none 9-10
    // (bench/results/issue33-h200-2026-11-26-run2-threads.txt).
    if (want < 0) want = std::max(0, std::min(7, static_cast<int>(std::thread::hardware_concurrency() / 2) - 1));
    while (started_ < want) {
      try {
        std::thread([this, gen = generation_] { loop(gen); }).detach();
      } catch (const std::exception &) {
        break;
      }
      ++started_;
    }
    return started_;
  }

  // Takes pieces of the current job until none is left.
  void work() {
    for (;;) {
      char *d;
      const char *s;
      std::size_t len;
      bool populate;
      {
        std::lock_guard<std::mutex> g(mu_);
        if (next_ >= n_) return;
        d = dst_ + next_;
        s = src_ + next_;
        len = std::min(piece_, n_ - next_);
        next_ += len;
        populate = populate_;
      }
      if (populate) advise(d, len, page_size(), MADV_POPULATE_WRITE);
      std::memcpy(d, s, len);
      std::lock_guard<std::mutex> g(mu_);
      if (--left_ == 0) finished_.notify_all();
    }
  }

  void loop(unsigned long long seen) {
    for (;;) {
      {
        std::unique_lock<std::mutex> g(mu_);
        wake_.wait(g, [&] { return generation_ != seen; });
        seen = generation_;
      }
      work();
    }
  }

  std::mutex job_mu_;   // one job at a time
  std::mutex mu_;       // the job's state
  std::condition_variable wake_, finished_;
  char *dst_ = nullptr;
  const char *src_ = nullptr;
  std::size_t n_ = 0, piece_ = 0, next_ = 0, left_ = 0;
  bool populate_ = false;
  unsigned long long generation_ = 0;
  int started_ = 0;
};

CopyPool &pool() {
  static CopyPool *p = new CopyPool();   // never destroyed: its threads outlive main
  return *p;
}

// ------------------------------------------------------------------ staging buffers
struct Staging {
  std::mutex mu;                 // one staged copy at a time per device
  bool tried = false, usable = false;
  int buffers = 0;               // in flight (OMPGPU_STAGING_BUFFERS)
  std::size_t chunk_bytes = 0;   // each buffer's size, the largest chunk (OMPGPU_STAGING_CHUNK_BYTES)
  char *buffer[kMaxBuffers] = {};
  cudaEvent_t drained[kMaxBuffers] = {};   // the DMA of the buffer's last chunk is complete
};

std::mutex g_staging_list_mu;
std::vector<Staging *> &stagings() {
  static auto *v = new std::vector<Staging *>();
  return *v;
}

Staging &staging_of(int device) {
  std::lock_guard<std::mutex> g(g_staging_list_mu);
  auto &v = stagings();
  if (v.size() <= static_cast<std::size_t>(device)) v.resize(static_cast<std::size_t>(device) + 1, nullptr);
  if (!v[static_cast<std::size_t>(device)]) v[static_cast<std::size_t>(device)] = new Staging();
  return *v[static_cast<std::size_t>(device)];
}

// Allocates the buffers of the selected device once; false when they cannot be had.
bool ready(Staging &st) {
  if (st.tried) return st.usable;
  st.tried = true;
  void *p = nullptr;
  st.buffers = std::max(2, std::min(kMaxBuffers, env().staging_buffers));
  st.chunk_bytes = std::max(kSmallestChunk, (env().staging_chunk_bytes + kPieceAlign - 1) / kPieceAlign * kPieceAlign);
  if (cudaHostAlloc(&p, st.chunk_bytes * static_cast<std::size_t>(st.buffers), cudaHostAllocDefault) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  for (int i = 0; i < st.buffers; ++i) {
    st.buffer[i] = static_cast<char *>(p) + st.chunk_bytes * static_cast<std::size_t>(i);
    if (cudaEventCreateWithFlags(&st.drained[i], cudaEventDisableTiming) != cudaSuccess) {
      (void)cudaGetLastError();
      return false;   // the buffers stay allocated: a few MB, for the process's life
    }
  }
  st.usable = true;
  return true;
}

bool pageable(const void *host) {
  cudaPointerAttributes a;
  std::memset(&a, 0, sizeof a);
  if (cudaPointerGetAttributes(&a, host) != cudaSuccess) {
    (void)cudaGetLastError();
    return true;   // older runtimes report unregistered memory as an error
  }
  return a.type == cudaMemoryTypeUnregistered;
}

std::size_t chunk_for(const Staging &st, std::size_t size) {
  // At least as many chunks as buffers, so that the host side of one overlaps the DMA of others.
  std::size_t c = (size / static_cast<std::size_t>(st.buffers) + kPieceAlign - 1) / kPieceAlign * kPieceAlign;
  return std::max(kSmallestChunk, std::min(st.chunk_bytes, c));
}

cudaError_t staged_to_device(Staging &st, cudaStream_t s, char *dst, const char *src, std::size_t size) {
  const std::size_t chunk = chunk_for(st, size);
  cudaError_t err = cudaSuccess;
  for (std::size_t off = 0, i = 0; off < size && err == cudaSuccess; off += chunk, ++i) {
    const int b = static_cast<int>(i % static_cast<std::size_t>(st.buffers));
    const std::size_t len = std::min(chunk, size - off);
    if (i >= static_cast<std::size_t>(st.buffers) && (err = cudaEventSynchronize(st.drained[b])) != cudaSuccess) break;
    pool().copy(st.buffer[b], src + off, len);
    err = cudaMemcpyAsync(dst + off, st.buffer[b], len, cudaMemcpyHostToDevice, s);
    if (err == cudaSuccess) err = cudaEventRecord(st.drained[b], s);
  }
  cudaError_t done = cudaStreamSynchronize(s);
  return err != cudaSuccess ? err : done;
}

cudaError_t staged_from_device(Staging &st, cudaStream_t s, char *dst, const char *src, std::size_t size) {
  // Destination pages the process has not touched yet (a fresh malloc: a program's result
  // arrays) cost a page fault each inside the copy (OMPGPU_FRESH_PAGES, host_internal.hpp).
  const int fresh = env().fresh_pages;
  if ((fresh & kFreshHuge) && looks_fresh(dst, size)) advise(dst, size, kHugePage, MADV_HUGEPAGE);
  const bool populate = fresh & kFreshPopulate;
  const std::size_t chunk = chunk_for(st, size);
  const std::size_t chunks = (size + chunk - 1) / chunk;
  auto issue = [&](std::size_t i) {
    const int b = static_cast<int>(i % static_cast<std::size_t>(st.buffers));
    const std::size_t off = i * chunk, len = std::min(chunk, size - off);
    cudaError_t e = cudaMemcpyAsync(st.buffer[b], src + off, len, cudaMemcpyDeviceToHost, s);
    return e == cudaSuccess ? cudaEventRecord(st.drained[b], s) : e;
  };
  cudaError_t err = cudaSuccess;
  const std::size_t in_flight = static_cast<std::size_t>(st.buffers);
  for (std::size_t i = 0; i < chunks && i < in_flight && err == cudaSuccess; ++i) err = issue(i);
  for (std::size_t i = 0; i < chunks && err == cudaSuccess; ++i) {
    const int b = static_cast<int>(i % static_cast<std::size_t>(st.buffers));
    const std::size_t off = i * chunk, len = std::min(chunk, size - off);
    if ((err = cudaEventSynchronize(st.drained[b])) != cudaSuccess) break;
    pool().copy(dst + off, st.buffer[b], len, populate);
    if (i + in_flight < chunks) err = issue(i + in_flight);
  }
  cudaError_t done = cudaStreamSynchronize(s);
  return err != cudaSuccess ? err : done;
}

void forget_helpers_in_child() {
  pool().forget_threads();
  for (Staging *st : stagings()) {
    if (!st) continue;
    new (&st->mu) std::mutex();
    st->tried = true;   // the parent's pinned buffers and events are not this process's
    st->usable = false;
  }
  new (&g_staging_list_mu) std::mutex();
}

struct AtForkRegistration {
  AtForkRegistration() { pthread_atfork(nullptr, nullptr, forget_helpers_in_child); }
} g_atfork_registration;



cudaError_t copy_now(int device, cudaStream_t s, void *dst, const void *src, std::size_t size, cudaMemcpyKind kind) {
  const std::size_t min = env().staging_min_bytes;
  const bool to_device = kind == cudaMemcpyHostToDevice;
  if (min > 0 && size >= min && (to_device || kind == cudaMemcpyDeviceToHost) && pageable(to_device ? src : dst)) {
    Staging &st = staging_of(device);
    std::unique_lock<std::mutex> g(st.mu, std::try_to_lock);
    if (g.owns_lock() && ready(st)) {
      return to_device ? staged_to_device(st, s, static_cast<char *>(dst), static_cast<const char *>(src), size)
                       : staged_from_device(st, s, static_cast<char *>(dst), static_cast<const char *>(src), size);
    }
  }
  cudaError_t err = cudaMemcpyAsync(dst, src, size, kind, s);
  return err == cudaSuccess ? cudaStreamSynchronize(s) : err;
}

}  // namespace

void prepare_transfers(int device) {
  if (env().staging_min_bytes == 0) return;
  Staging &st = staging_of(device);
  {
    std::lock_guard<std::mutex> g(st.mu);
    (void)ready(st);
  }
  pool().start();
}

cudaError_t copy_host_device(const Loc &loc, int device, cudaStream_t s, void *dst, const void *src, std::size_t size,
                             cudaMemcpyKind kind) {
  if (!profiling() || (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToHost))
    return copy_now(device, s, dst, src, size, kind);
  const double t0 = profile_now_us();
  cudaError_t err = copy_now(device, s, dst, src, size, kind);
  profile_transfer(loc, device, s, kind == cudaMemcpyHostToDevice, size, t0, profile_now_us());
  return err;
}

}  // namespace ompgpu_host
