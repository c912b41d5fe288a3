// ompgpu host runtime: copies between host and device memory at the link's speed.
//
// The copy engines move data only between device memory and pinned (page-locked) host
// memory. A cudaMemcpy from pageable memory makes the driver copy it through its own small
// pinned buffers, one thread, one piece at a time: 8-10 GB/s to the device and 14-17 back on
// an H200 whose link moves 55 each way from pinned memory. So a large copy from or to pageable
// memory goes through the runtime's own pinned staging buffers instead: the copy is cut into
// chunks and each chunk into pieces; the helper threads and the calling thread copy the pieces
// between pageable memory and the buffers with streaming stores, and the calling thread queues
// each chunk's DMA as soon as its pieces are done (to the device) or releases its pieces as soon
// as its DMA is complete (from the device), so that the host side of some chunks overlaps the
// DMA of others with no pause between chunks. A device has one set of buffers per direction:
// copies both ways at once (two host threads) are both staged.
//
// Pinning the user's memory for the time of one copy instead (cudaHostRegister) measured
// slower: 21-29 GB/s to register touched memory and 2.6-3.4 to register fresh memory, both
// serialised by the driver, 12-15 GB/s for register, DMA and unregister together (session 11
// runs 1 and 6). Pinning only a copy's tail beside the staging of its head halved the whole
// copy's rate (64 MB-1 GB: 18-21 GB/s against 40-45; run 6): while the driver registers, the
// staging's own calls into it wait.
//
// Small copies, copies from memory that is pinned already (cudaHostAlloc, cudaHostRegister,
// managed memory), and copies while another thread uses the buffers of that device and
// direction go straight to cudaMemcpyAsync as before; so do copies of a size class for which
// the driver's path measured faster, from the device in a process with few processors
// (HelperTuner). The user's pages are never registered:
// memory a program frees while registered would stay pinned, and a later allocation at the same
// address would be copied from stale pages.
#include "host_internal.hpp"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <memory>
#include <new>
#include <thread>
#include <vector>

namespace ompgpu_host {

// A FreshDestinations is faulting in the destination that p points into (defined with it, below).
bool being_readied(const void *p);

namespace {

constexpr int kMaxBuffers = 16;                              // chunks in flight: Env::staging_buffers
constexpr std::size_t kSmallestChunk = std::size_t(256) << 10;
constexpr std::size_t kSmallestPiece = std::size_t(64) << 10;    // of a thread's share of a chunk
constexpr std::size_t kPieceAlign = 4096;                    // helpers' pieces start on pages

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23   // Linux 5.14; older kernels answer EINVAL and the copy faults as before
#endif

constexpr int kFreshHuge = 1, kFreshPopulate = 2;   // Env::fresh_pages bits
constexpr std::uintptr_t kHugePage = std::uintptr_t(2) << 20;

// madvise over the whole pages inside [p, p + n) aligned to `align`: madvise's result (0 where
// no whole page is inside). The advice only makes a copy faster where the kernel takes it.
int advise(void *p, std::size_t n, std::uintptr_t align, int advice) {
  const std::uintptr_t b = (reinterpret_cast<std::uintptr_t>(p) + align - 1) / align * align;
  const std::uintptr_t e = (reinterpret_cast<std::uintptr_t>(p) + n) / align * align;
  return e > b ? madvise(reinterpret_cast<void *>(b), e - b, advice) : 0;
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

// Copies n bytes with non-temporal stores where the processor has them: streaming stores spare
// the read of each destination line that a cached store costs, where the processor does not
// read the destination next (staging_job). On an H200 machine's 16 processors, 256 MB touched
// to touched: 62 GB/s on 16 threads against the C library's 41 (bench/startup/copy_paths.cu,
// session 11 run 1).
void stream_copy(void *dst, const void *src, std::size_t n) {
#if defined(__x86_64__)
  char *d = static_cast<char *>(dst);
  const char *s = static_cast<const char *>(src);
  const std::size_t head = (16 - (reinterpret_cast<std::uintptr_t>(d) & 15)) & 15;
  if (n < head + 64) {
    std::memcpy(d, s, n);
    return;
  }
  std::memcpy(d, s, head);
  d += head;
  s += head;
  n -= head;
  for (std::size_t blocks = n / 64; blocks; --blocks, d += 64, s += 64) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + 16));
    const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + 32));
    const __m128i e = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + 48));
    _mm_stream_si128(reinterpret_cast<__m128i *>(d), a);
    _mm_stream_si128(reinterpret_cast<__m128i *>(d + 16), b);
    _mm_stream_si128(reinterpret_cast<__m128i *>(d + 32), c);
    _mm_stream_si128(reinterpret_cast<__m128i *>(d + 48), e);
  }
  _mm_sfence();   // the stores are visible before the piece is counted done (and the DMA reads it)
  std::memcpy(d, s, n % 64);
#else
  std::memcpy(dst, src, n);
#endif
}

// ------------------------------------------------------------------ copy helpers
// Work shared by the calling threads and the helper threads: `pieces` pieces, of which the first
// `released` may be taken (a staged copy releases a chunk's pieces once its buffer is free, or
// once its data arrived), done by `run`, and counted done per group of `group` pieces (a chunk).
// At most `max_workers` helpers work on it at once.
struct Job {
  std::function<void(std::size_t)> run;
  std::size_t pieces = 0, group = 1, released = 0, next = 0;   // the pool's lock guards these
  int max_workers = 1 << 30, active = 0;
  std::unique_ptr<std::atomic<std::size_t>[]> left;            // per group: pieces not done yet

  void cut(std::size_t n, std::size_t per_group) {
    pieces = n;
    group = per_group;
    const std::size_t groups = (n + per_group - 1) / per_group;
    left.reset(new std::atomic<std::size_t>[groups]);
    for (std::size_t g = 0; g < groups; ++g) left[g].store(std::min(per_group, n - g * per_group));
  }
  // Read without the lock by the thread that waits for the group (it spins on it).
  bool group_done(std::size_t g) const { return left[g].load(std::memory_order_acquire) == 0; }
};

class CopyPool {
 public:
  // Adds job j (its pieces below `released` may be taken at once).
  void submit(Job *j) {
    (void)workers();
    {
      std::lock_guard<std::mutex> g(mu_);
      jobs_.push_back(j);
    }
    epoch_.fetch_add(1, std::memory_order_release);
    work_.notify_all();
  }

  // Lets the pieces below `released` of j be taken.
  void release(Job *j, std::size_t released) {
    {
      std::lock_guard<std::mutex> g(mu_);
      j->released = std::min(j->pieces, std::max(j->released, released));
    }
    epoch_.fetch_add(1, std::memory_order_release);
    work_.notify_all();
  }

  // The calling thread does one released piece of j itself; false when none is left to take.
  bool help(Job *j) {
    std::size_t k;
    {
      std::lock_guard<std::mutex> g(mu_);
      if (j->next >= j->released) return false;
      k = j->next++;
      ++j->active;
    }
    finish(j, k);
    return true;
  }

  // No more pieces of j are taken; returns once none is being done (j may then go away).
  void withdraw(Job *j) {
    std::unique_lock<std::mutex> g(mu_);
    j->released = j->next;
    done_.wait(g, [&] { return j->active == 0; });
    jobs_.erase(std::remove(jobs_.begin(), jobs_.end(), j), jobs_.end());
  }

  // The helpers that the pool has (started on first use; the background start-up starts them).
  int workers() {
    std::lock_guard<std::mutex> g(start_mu_);
    int want = env().copy_threads;
    if (want < 0) want = default_helpers();
    while (started_ < want) {
      try {
        std::thread([this] { loop(); }).detach();
      } catch (const std::exception &) {
        break;
      }
      ++started_;
    }
    return started_;
  }

  // In a child process the helper threads do not exist: start afresh (threads on demand).
  void forget_threads() {
    new (&mu_) std::mutex();
    new (&start_mu_) std::mutex();
    new (&work_) std::condition_variable();
    new (&done_) std::condition_variable();
    new (&jobs_) std::vector<Job *>();   // the parent's jobs live on its threads' stacks
    started_ = 0;
  }

 private:
  // Every processor the process may run on but the caller's, at most 15: host memory moves
  // more with every thread up to all of an H200 machine's 16 (session 11 run 1: streaming
  // copies 27, 41, 57 and 62 GB/s on 4, 8, 12 and 16 threads), and a copy engine takes 55.
  // None on two processors or fewer: one helper adds little there (memcpy 11.7 GB/s on one
  // thread, 13.3 on two) and its wait for work competes with the program's own threads.
  static int default_helpers() {
    int cpus = static_cast<int>(std::thread::hardware_concurrency());
#if defined(__linux__)
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) cpus = CPU_COUNT(&set);
#endif
    return cpus <= 2 ? 0 : std::min(15, cpus - 1);
  }

  void finish(Job *j, std::size_t k) {
    j->run(k);
    j->left[k / j->group].fetch_sub(1, std::memory_order_acq_rel);
    std::lock_guard<std::mutex> g(mu_);
    if (--j->active == 0) done_.notify_all();
  }

  // The first job (in submission order) with a piece to take and room for another helper.
  bool take(Job **job, std::size_t *piece) {
    for (Job *j : jobs_) {
      if (j->next < j->released && j->active < j->max_workers) {
        *job = j;
        *piece = j->next++;
        ++j->active;
        return true;
      }
    }
    return false;
  }

  void loop() {
    for (;;) {
      Job *j;
      std::size_t k;
      {
        std::unique_lock<std::mutex> g(mu_);
        if (!take(&j, &k)) {
          // A staged copy releases its next chunk within microseconds: look for it a little
          // while before sleeping (a wake-up from the condition variable takes longer).
          const unsigned long long seen = epoch_.load(std::memory_order_acquire);
          g.unlock();
          const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(100);
          while (epoch_.load(std::memory_order_acquire) == seen && std::chrono::steady_clock::now() < until)
            std::this_thread::yield();
          g.lock();
          work_.wait(g, [&] { return take(&j, &k); });
        }
      }
      finish(j, k);
    }
  }

  std::mutex mu_;         // the jobs and their counts
  std::mutex start_mu_;   // starting helpers
  std::condition_variable work_, done_;
  std::vector<Job *> jobs_;
  std::atomic<unsigned long long> epoch_{0};   // counts submissions and releases
  int started_ = 0;
};

CopyPool &pool() {
  static CopyPool *p = new CopyPool();   // never destroyed: its threads outlive main
  return *p;
}

// ------------------------------------------------------------------ staging buffers
// One set per device and direction, so that a copy to a device and one from it (two host
// threads) both run staged, the copy engines busy both ways at once.
struct Staging {
  std::mutex mu;                 // one staged copy at a time per set
  bool tried = false, usable = false;
  int buffers = 0;               // in flight (OMPGPU_STAGING_BUFFERS)
  std::size_t chunk_bytes = 0;   // each buffer's size, the largest chunk (OMPGPU_STAGING_CHUNK_BYTES)
  char *buffer[kMaxBuffers] = {};
  cudaEvent_t drained[kMaxBuffers] = {};   // the DMA of the buffer's last chunk is complete
  // Small copies to the device through the buffers (small_to_device), whose DMAs are not waited
  // for: the buffer they fill now and how much of it; the stream of each buffer's last DMA; and
  // whether any such DMA may still be queued (a staged copy then waits for them first).
  int small_buffer = 0;
  std::size_t small_used = 0;
  cudaStream_t last_stream[kMaxBuffers] = {};
  bool small_queued = false;
};

std::mutex g_staging_list_mu;
std::vector<Staging *> &stagings() {
  static auto *v = new std::vector<Staging *>();
  return *v;
}

Staging &staging_of(int device, bool to_device) {
  std::lock_guard<std::mutex> g(g_staging_list_mu);
  auto &v = stagings();
  const std::size_t i = static_cast<std::size_t>(device) * 2 + (to_device ? 0 : 1);
  if (v.size() <= i) v.resize(i + 1, nullptr);
  if (!v[i]) v[i] = new Staging();
  return *v[i];
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

// The buffers are there already: small copies use them only then (allocating them takes
// milliseconds, which a staged copy pays once but a copy of a few KB should not).
bool allocated(const Staging &st) { return st.tried && st.usable; }

// What CUDA knows of memory at p: pinned, device, managed, or unregistered (pageable).
cudaMemoryType memory_type(const void *p) {
  cudaPointerAttributes a;
  std::memset(&a, 0, sizeof a);
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    (void)cudaGetLastError();
    return cudaMemoryTypeUnregistered;   // older runtimes report unregistered memory as an error
  }
  return a.type;
}

bool pageable(const void *host) { return memory_type(host) == cudaMemoryTypeUnregistered; }

// How a staged copy of `size` bytes is cut: chunks (one buffer's DMA each) and pieces (one
// thread's share of a chunk's host side). Every chunk has the same number of pieces; a shorter
// chunk has shorter pieces.
struct Cut {
  std::size_t pieces_per_chunk = 1;
  std::vector<std::size_t> start;   // chunk c is [start[c], start[c + 1]) of the copy
  std::size_t chunks() const { return start.size() - 1; }
  std::size_t chunk_len(std::size_t c) const { return start[c + 1] - start[c]; }
  std::size_t piece_of(std::size_t c) const {
    return (chunk_len(c) / pieces_per_chunk + kPieceAlign) / kPieceAlign * kPieceAlign;   // >= len / pieces
  }
  // Piece k: its offset in its chunk, its length (0 past a short chunk's end).
  std::size_t offset_in_chunk(std::size_t k) const { return (k % pieces_per_chunk) * piece_of(k / pieces_per_chunk); }
  std::size_t piece_len(std::size_t k) const {
    const std::size_t c = k / pieces_per_chunk, at = offset_in_chunk(k), len = chunk_len(c);
    return at >= len ? 0 : std::min(piece_of(c), len - at);
  }
};

// Chunks of at most `steady` bytes, of one length to a byte. Chunks that grew from 256 KB at a
// copy's start and shrank to it at its end were tried and taken out (session 17 run 3): at 16 MB
// they left copies from the device at 22-24 GB/s against 26 without them. The first chunk's
// host side waits for the helpers to wake, and a copy's first DMA took 30-45 us, whatever its size.
std::vector<std::size_t> chunk_starts(std::size_t size, std::size_t steady) {
  const std::size_t n = (size + steady - 1) / steady;
  std::vector<std::size_t> starts(1, 0);
  for (std::size_t i = 0; i < n; ++i) starts.push_back(starts.back() + size / n + (i < size % n ? 1 : 0));
  return starts;
}

Cut cut_for(const Staging &st, std::size_t size) {
  Cut cut;
  // At least twice as many chunks as buffers, so that the host side of some chunks overlaps
  // the DMA of others from the start.
  const std::size_t c = (size / (2 * static_cast<std::size_t>(st.buffers)) + kPieceAlign - 1) / kPieceAlign * kPieceAlign;
  const std::size_t steady = std::max(kSmallestChunk, std::min(st.chunk_bytes, c));
  cut.start = chunk_starts(size, steady);
  const std::size_t threads = static_cast<std::size_t>(pool().workers()) + 1;
  const std::size_t p = (steady / threads + kPieceAlign - 1) / kPieceAlign * kPieceAlign;
  const std::size_t piece = std::max(std::min(kSmallestPiece, steady), std::min(steady, p));
  cut.pieces_per_chunk = (steady + piece - 1) / piece;
  return cut;
}

// The job of a staged copy: piece k moves its part of the user's memory into its chunk's buffer
// (to_buffers) or out of it. Streaming stores into the buffers, which only the DMA reads next;
// cached stores out of them, where the program reads its data next: streaming ones measured
// slower there (session 11 run 8, 64-256 MB from the device: 47-51 GB/s against 42-47), cached
// ones slower into the buffers (16 MB to the device: 20-23 GB/s against 37-38).
void staging_job(Job *job, const Cut &cut, const Staging &st, char *user, bool to_buffers) {
  job->cut(cut.chunks() * cut.pieces_per_chunk, cut.pieces_per_chunk);
  job->run = [&cut, &st, user, to_buffers](std::size_t k) {
    const std::size_t c = k / cut.pieces_per_chunk, at = cut.offset_in_chunk(k);
    char *buffer = st.buffer[c % static_cast<std::size_t>(st.buffers)] + at;
    if (to_buffers) stream_copy(buffer, user + cut.start[c] + at, cut.piece_len(k));
    else std::memcpy(user + cut.start[c] + at, buffer, cut.piece_len(k));
  };
}

// How many helpers a staged copy in one direction asks for, chosen by measurement on the machine
// for each class of sizes (kSizeClasses, a factor of four apart): the first copies of a class try
// all of the helpers, three quarters and half of them (and, from the device with few helpers, the
// driver's pageable path), in turn, twice each; later copies of the class take the way whose copy
// moved the most bytes a second and refine its rate. Host memory's bandwidth is shared with the
// DMA, and the best count differs by direction, size and machine:
// on an H200 machine 7 helpers moved 53 GB/s from the device and 38 to it, 15 helpers 40 and 44
// (64 MB-1 GB, session 11 run 2); at 16 MB from the device 7 helpers moved 31-32 GB/s, 15
// helpers 25-27 (session 17 run 2).
constexpr int kSizeClasses = 5;   // below 4 MB, 4-16, 16-64, 64-256, 256 MB and more

int size_class(std::size_t size) {
  int c = 0;
  for (std::size_t edge = std::size_t(4) << 20; c + 1 < kSizeClasses && size >= edge; edge *= 4) ++c;
  return c;
}

// A copy's way through: a number of helpers for a staged copy, or the driver's own pageable path.
constexpr int kDriverPath = -1;
// The driver's path is a candidate for copies from the device only, and only where the staging
// has this many helpers or fewer: with none (a process allowed two processors), a staged 64 MB
// copy from the device moved 5.6-9.9 GB/s against the driver's 10.1-16.2 (session 17 runs 5 and
// 8); with three helpers or more the staging was faster at every size from 1 MB in every run
// since session 11. To the device the staging measured as fast or faster in the trials (64 MB:
// 6.4-10.6 against 7.2-9.8, run 8), and with the driver's trials among them the copies to the
// device were slower than without (16 MB: 4.0-6.2 GB/s against 9.8-10.1, run 7).
constexpr int kFewHelpers = 2;

class HelperTuner {
 public:
  // How the copy goes (a helper count or kDriverPath); *slot: the candidate whose rate the copy's
  // time is recorded for (-1: none). A copy that is not `measured` (into fresh memory, whose page
  // faults time it) stays staged.
  int choose(int workers, bool to_device, bool measured, int *slot) {
    std::lock_guard<std::mutex> g(mu_);
    if (candidates_ == 0) {
      for (int c : {workers, workers * 3 / 4, workers / 2})
        if (std::find(way_, way_ + candidates_, c) == way_ + candidates_) way_[candidates_++] = c;
      if (!to_device && workers <= kFewHelpers) way_[candidates_++] = kDriverPath;
    }
    if (measured && tried_ < kTrialRounds * candidates_) {   // each in turn, kTrialRounds times
      *slot = tried_++ % candidates_;
      return way_[*slot];
    }
    const int best = best_way(measured);
    *slot = measured ? best : -1;
    return way_[best];
  }

  // A trial keeps its way's best rate: a way's first copy pays for first use (the driver's own
  // pinned buffers, say), which only makes it slower. After the trials, the rate follows the copies.
  // `what` names the class for OMPGPU_INFO, which prints each way's rate once the trials end.
  void record(int slot, std::size_t bytes, double seconds, const char *what) {
    if (slot < 0 || seconds <= 0) return;
    std::lock_guard<std::mutex> g(mu_);
    const double r = static_cast<double>(bytes) / seconds;
    if (trials_recorded_ < kTrialRounds * candidates_) {
      ++trials_recorded_;
      rate_[slot] = std::max(rate_[slot], r);
      if (trials_recorded_ == kTrialRounds * candidates_ && info_on()) {
        std::string rates;
        for (int i = 0; i < candidates_; ++i)
          rates += strprintf("%s%s %.1f GB/s", i ? ", " : "",
                             way_[i] == kDriverPath ? "the driver's path" : strprintf("staged with %d helpers", way_[i]).c_str(),
                             rate_[i] / 1e9);
        const int best = best_way(true);
        info(Loc{}, "copies %s: %s; taking %s", what, rates.c_str(),
             way_[best] == kDriverPath ? "the driver's path" : strprintf("the staging with %d helpers", way_[best]).c_str());
      }
    } else {
      rate_[slot] = rate_[slot] == 0 ? r : 0.75 * rate_[slot] + 0.25 * r;
    }
  }

  void forget() {
    new (&mu_) std::mutex();
  }

 private:
  // The candidate with the best rate (the first of equals), the driver's path among them or not.
  // The caller holds mu_.
  int best_way(bool with_driver) const {
    int best = -1;
    for (int i = 0; i < candidates_; ++i)
      if ((with_driver || way_[i] != kDriverPath) && (best < 0 || rate_[i] > rate_[best])) best = i;
    return best;
  }

  static constexpr int kMaxCandidates = 4;   // three helper counts and the driver's path
  // One trial each was too few: in session 17's run 6 (taskset -c 0,1, the driver's path then a
  // candidate both ways) 16 MB copies to the device kept the driver's path at 8.4-9.7 GB/s where
  // the staging had moved 12.2-13.6 before.
  static constexpr int kTrialRounds = 2;
  std::mutex mu_;
  int candidates_ = 0, tried_ = 0, trials_recorded_ = 0;
  int way_[kMaxCandidates] = {};
  double rate_[kMaxCandidates] = {};
};

HelperTuner *tuners() {   // to the device, by size class; then from it
  static HelperTuner *t = new HelperTuner[2 * kSizeClasses];
  return t;
}

HelperTuner &tuner(bool to_device, std::size_t size) { return tuners()[(to_device ? 0 : kSizeClasses) + size_class(size)]; }

double seconds_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Records a copy that started at t0 (seconds_now) for the way `slot` of its size class's tuner.
void record_copy(bool to_device, std::size_t size, int slot, double t0) {
  static const char *const kNames[2][kSizeClasses] = {   // the classes, as OMPGPU_INFO names them
      {"to the device below 4 MB", "to the device of 4-16 MB", "to the device of 16-64 MB", "to the device of 64-256 MB",
       "to the device of 256 MB or more"},
      {"from the device below 4 MB", "from the device of 4-16 MB", "from the device of 16-64 MB",
       "from the device of 64-256 MB", "from the device of 256 MB or more"}};
  tuner(to_device, size).record(slot, size, seconds_now() - t0, kNames[to_device ? 0 : 1][size_class(size)]);
}

// What a staged copy records of its chunks for OMPGPU_PROFILE's trace (log null: nothing, and no
// clock is read).
struct ChunkLog {
  std::vector<StagedChunk> *log;
  double now() const { return log ? profile_now_us() : 0; }
  void start(const Cut &cut, std::size_t buffers) {
    if (!log) return;
    log->assign(cut.chunks(), StagedChunk{});
    for (std::size_t c = 0; c < cut.chunks(); ++c) {
      (*log)[c].bytes = cut.chunk_len(c);
      (*log)[c].buffer = static_cast<int>(c % buffers);
    }
  }
  void host_start(std::size_t c, double t) { if (log && c < log->size()) (*log)[c].host_start_us = t; }
  void host_end(std::size_t c, double t) { if (log && c < log->size()) (*log)[c].host_end_us = t; }
  void dma_start(std::size_t c, double t) { if (log && c < log->size()) (*log)[c].dma_start_us = t; }
  void dma_end(std::size_t c, double t) { if (log && c < log->size()) (*log)[c].dma_end_us = t; }
  // DMAs the copying thread did not see end before the stream's synchronisation: ended by then.
  void finish(double t) {
    if (!log) return;
    for (StagedChunk &k : *log)
      if (k.dma_end_us == 0) k.dma_end_us = t;
  }
};

// Before a staged copy to the device refills the buffers from their start: the DMAs that small
// copies left queued from them are complete.
cudaError_t drain_small_copies(Staging &st) {
  if (!st.small_queued) return cudaSuccess;
  for (int b = 0; b < st.buffers; ++b) {
    const cudaError_t err = cudaEventSynchronize(st.drained[b]);
    if (err != cudaSuccess) return err;
    st.last_stream[b] = nullptr;
  }
  st.small_buffer = 0;
  st.small_used = 0;
  st.small_queued = false;
  return cudaSuccess;
}

// A small copy to a device through the buffers, its DMA queued on s and not waited for: when it
// returns, the data is out of the program's memory, as the driver's pageable path leaves it. From
// kSmallToDeviceThroughBuffers bytes on: `target update to` of 64 KB moved 5.3-6.1 GB/s this way
// against 2.4-2.7 through the driver, of 256 KB 7.4-8.5 against 5.4-7.8; at 4-16 KB the driver's
// path was as fast or faster (0.69-0.92 against 0.65-0.70 GB/s at 4 KB;
// bench/results/s13-h200-2026-11-29-run7). The buffers are filled in turn, each once the DMAs
// from its last filling are complete; a buffer's event follows its last DMA, and a stream that
// queues one behind another stream's first waits for that one, so that the event covers both.
constexpr std::size_t kSmallToDeviceThroughBuffers = std::size_t(64) << 10;

cudaError_t small_to_device(Staging &st, cudaStream_t s, void *dst, const void *src, std::size_t size) {
  constexpr std::size_t kAlign = 64;
  if (st.small_used + size > st.chunk_bytes) {
    st.small_buffer = (st.small_buffer + 1) % st.buffers;
    st.small_used = 0;
    const cudaError_t err = cudaEventSynchronize(st.drained[st.small_buffer]);
    if (err != cudaSuccess) return err;
    st.last_stream[st.small_buffer] = nullptr;
  }
  const int b = st.small_buffer;
  char *slot = st.buffer[b] + st.small_used;
  std::memcpy(slot, src, size);
  st.small_used += (size + kAlign - 1) / kAlign * kAlign;
  st.small_queued = true;
  cudaError_t err = cudaSuccess;
  if (st.last_stream[b] && st.last_stream[b] != s) err = cudaStreamWaitEvent(s, st.drained[b], 0);
  if (err == cudaSuccess) err = cudaMemcpyAsync(dst, slot, size, cudaMemcpyHostToDevice, s);
  if (err == cudaSuccess) err = cudaEventRecord(st.drained[b], s);
  st.last_stream[b] = s;
  return err;
}

// A small copy from a device into pageable memory through the first buffer: the DMA into pinned
// memory and a memcpy. `target update from` moved 0.42-0.44 GB/s this way at 4 KB against 0.34-0.40
// through the driver's pageable path, 2.6-2.7 at 64 KB against 2.0-2.3, 5.0-5.5 at 256 KB against
// 3.5-4.0 (run 7).
cudaError_t small_from_device(Staging &st, cudaStream_t s, void *dst, const void *src, std::size_t size) {
  cudaError_t err = cudaMemcpyAsync(st.buffer[0], src, size, cudaMemcpyDeviceToHost, s);
  if (err == cudaSuccess) err = cudaStreamSynchronize(s);
  if (err == cudaSuccess) std::memcpy(dst, st.buffer[0], size);
  return err;
}

cudaError_t staged_to_device(Staging &st, cudaStream_t s, char *dst, const char *src, std::size_t size, int helpers,
                             int slot, ChunkLog trace) {
  if (const cudaError_t err = drain_small_copies(st)) return err;
  const Cut cut = cut_for(st, size);
  const std::size_t B = static_cast<std::size_t>(st.buffers);
  trace.start(cut, B);
  Job job;
  staging_job(&job, cut, st, const_cast<char *>(src), true);
  job.released = std::min(B, cut.chunks()) * cut.pieces_per_chunk;
  job.max_workers = helpers;
  const double t0 = seconds_now();
  const double trace_t0 = trace.now();
  for (std::size_t c = 0; c < std::min(B, cut.chunks()); ++c) trace.host_start(c, trace_t0);
  pool().submit(&job);
  cudaError_t err = cudaSuccess;
  std::size_t issued = 0, retired = 0;   // chunks whose DMA is queued; of those, complete
  while (issued < cut.chunks() && err == cudaSuccess) {
    if (job.group_done(issued)) {   // its host side is done: its DMA goes
      const std::size_t b = issued % B;
      const double t = trace.now();
      trace.host_end(issued, t);
      trace.dma_start(issued, t);
      err = cudaMemcpyAsync(dst + cut.start[issued], st.buffer[b], cut.chunk_len(issued), cudaMemcpyHostToDevice, s);
      if (err == cudaSuccess) err = cudaEventRecord(st.drained[b], s);
      ++issued;
      continue;
    }
    if (retired < issued) {   // a buffer whose DMA is complete takes the next chunk
      const cudaError_t q = cudaEventQuery(st.drained[retired % B]);
      if (q == cudaSuccess) {
        const double t = trace.now();
        trace.dma_end(retired, t);
        ++retired;
        trace.host_start(retired + B - 1, t);
        pool().release(&job, (retired + B) * cut.pieces_per_chunk);
        continue;
      }
      if (q != cudaErrorNotReady) {
        err = q;
        break;
      }
    }
    if (pool().help(&job)) continue;
    if (issued == std::min(cut.chunks(), retired + B)) {   // only a DMA's end frees a buffer
      err = cudaEventSynchronize(st.drained[retired % B]);
      continue;
    }
    std::this_thread::yield();   // helpers are on its last pieces; a DMA may end meanwhile
  }
  pool().withdraw(&job);
  const cudaError_t done = cudaStreamSynchronize(s);
  trace.finish(trace.now());
  if (err == cudaSuccess && done == cudaSuccess) record_copy(true, size, slot, t0);
  return err != cudaSuccess ? err : done;
}

// Faults the pages of a fresh destination in ahead of the copy, 2 MB at a time from its start,
// on at most kFaultThreads helpers: a fault of a page never touched costs its zeroing and, in a
// virtual machine, the host's own fault; more threads than four made it slower on an H200 machine
// (session 11 run 1, 1 GB with huge pages: 5.6, 21.6, 15.5 and 9.3 GB/s on 1, 4, 8 and 12
// threads). MADV_POPULATE_WRITE leaves pages that are already there as they are, so a piece
// the copy reached first is not harmed; a kernel without it (before Linux 5.14) ends the job.
constexpr int kFaultThreads = 4;
constexpr std::size_t kFaultUnit = std::size_t(2) << 20;

// Cuts job into the faults of [dst, dst + size) and hands it to the helpers, which take it before
// jobs submitted after it (a copy's).
void fault_in(Job *job, char *dst, std::size_t size, std::atomic<bool> *unsupported) {
  Job &j = *job;
  j.cut((size + kFaultUnit - 1) / kFaultUnit, (size + kFaultUnit - 1) / kFaultUnit);
  j.released = j.pieces;
  j.max_workers = kFaultThreads;
  j.run = [=](std::size_t k) {
    if (unsupported->load(std::memory_order_relaxed)) return;
    const std::size_t at = k * kFaultUnit;
    if (advise(dst + at, std::min(kFaultUnit, size - at), page_size(), MADV_POPULATE_WRITE) != 0 && errno == EINVAL)
      unsupported->store(true, std::memory_order_relaxed);
  };
  pool().submit(job);
}

// fresh: destination pages the process has not touched yet (a fresh malloc: a program's result
// arrays), which cost a page fault each inside the copy (OMPGPU_FRESH_PAGES, host_internal.hpp).
cudaError_t staged_from_device(Staging &st, cudaStream_t s, char *dst, const char *src, std::size_t size, bool fresh,
                               int helpers, int slot, ChunkLog trace) {
  const int fresh_mode = env().fresh_pages;
  if (fresh && (fresh_mode & kFreshHuge)) (void)advise(dst, size, kHugePage, MADV_HUGEPAGE);
  std::atomic<bool> no_populate{false};
  Job faults;
  const bool fault_ahead = fresh && (fresh_mode & kFreshPopulate);
  if (fault_ahead) fault_in(&faults, dst, size, &no_populate);   // before the copy's job: the helpers prefer it
  const Cut cut = cut_for(st, size);
  const std::size_t B = static_cast<std::size_t>(st.buffers);
  trace.start(cut, B);
  Job job;
  staging_job(&job, cut, st, dst, false);
  job.max_workers = helpers;
  const double t0 = seconds_now();
  cudaError_t err = cudaSuccess;
  std::size_t issued = 0, arrived = 0, finished = 0;   // chunks: DMA queued; DMA complete; copied out
  auto issue = [&](std::size_t c) {
    const std::size_t b = c % B;
    trace.dma_start(c, trace.now());
    cudaError_t e = cudaMemcpyAsync(st.buffer[b], src + cut.start[c], cut.chunk_len(c), cudaMemcpyDeviceToHost, s);
    return e == cudaSuccess ? cudaEventRecord(st.drained[b], s) : e;
  };
  // The first DMAs go before the helpers are woken: they have nothing to take until a DMA ends,
  // and waking them delays the DMAs (the first one started 43-66 us into a 16 MB copy in
  // session 17's run 2).
  for (; issued < std::min(B, cut.chunks()) && err == cudaSuccess; ++issued) err = issue(issued);
  pool().submit(&job);
  while (finished < cut.chunks() && err == cudaSuccess) {
    if (arrived < issued) {   // a chunk that arrived is copied out by the helpers
      const cudaError_t q = cudaEventQuery(st.drained[arrived % B]);
      if (q == cudaSuccess) {
        const double t = trace.now();
        trace.dma_end(arrived, t);
        trace.host_start(arrived, t);
        ++arrived;
        pool().release(&job, arrived * cut.pieces_per_chunk);
        continue;
      }
      if (q != cudaErrorNotReady) {
        err = q;
        break;
      }
    }
    if (finished < arrived && job.group_done(finished)) {   // its buffer takes the next chunk
      trace.host_end(finished, trace.now());
      ++finished;
      if (issued < cut.chunks()) err = issue(issued++);
      continue;
    }
    if (pool().help(&job)) continue;
    if (finished == arrived) {   // nothing arrived to copy out: wait for the oldest DMA
      err = cudaEventSynchronize(st.drained[arrived % B]);
      continue;
    }
    std::this_thread::yield();   // helpers are on its last pieces; a DMA may end meanwhile
  }
  pool().withdraw(&job);
  if (fault_ahead) pool().withdraw(&faults);
  const cudaError_t done = cudaStreamSynchronize(s);
  trace.finish(trace.now());
  if (err == cudaSuccess && done == cudaSuccess) record_copy(false, size, slot, t0);
  return err != cudaSuccess ? err : done;
}

// ------------------------------------------------------------------ deferred small copies
// A small copy from pageable memory to a device costs mostly the wait for its DMA (a 4 KB
// construct 9-11 us here against 4.4-5.3 for cudaMemcpy, which returns once the driver holds
// the data: session 11 runs 2-4). So a small copy from pageable memory into mapped device
// memory returns as cudaMemcpy does: cudaMemcpyAsync from pageable memory has copied the data
// out of the program's memory when it returns, and the DMA follows on the construct's stream,
// before any later work of that stream. Work of other streams waits for it: thread_stream
// makes a stream that another thread uses wait for the deferred copies of the others
// (order_after_deferred_copies). Once device addresses reach the program (use_device_ptr and
// use_device_addr, omp_target_alloc, omp_get_mapped_ptr, interop objects, the Python API),
// whose own CUDA work the runtime does not see, the pending copies are completed and no copy
// is deferred again (device_addresses_escape). OMPGPU_DEFERRED_COPIES=0 turns it off.
struct DeferredCopies {
  struct Pending {
    cudaStream_t stream;
    cudaEvent_t event;        // recorded after the stream's last deferred copy
    unsigned long long epoch;
  };
  std::mutex mu;
  std::atomic<unsigned long long> epoch{0};   // counts deferred copies
  std::vector<Pending> pending;               // one per stream that deferred a copy
};

std::atomic<bool> g_addresses_escaped{false};
std::mutex g_deferred_list_mu;

std::vector<DeferredCopies *> &deferred_list() {
  static auto *v = new std::vector<DeferredCopies *>();
  return *v;
}

DeferredCopies *deferred_of(int device, bool create) {
  std::lock_guard<std::mutex> g(g_deferred_list_mu);
  auto &v = deferred_list();
  const std::size_t i = static_cast<std::size_t>(device);
  if (v.size() <= i) {
    if (!create) return nullptr;
    v.resize(i + 1, nullptr);
  }
  if (!v[i] && create) v[i] = new DeferredCopies();
  return v[i];
}

// Queues a small copy from pageable memory into device memory without waiting for its DMA;
// false (nothing done) where that is not safe.
bool deferred_copy(int device, cudaStream_t s, void *dst, const void *src, std::size_t size, cudaError_t *err) {
  const Env &e = env();
  const std::size_t limit = e.staging_min_bytes > 0 ? e.staging_min_bytes : std::size_t(1) << 20;
  if (!e.deferred_copies || size >= limit || g_addresses_escaped.load(std::memory_order_acquire) ||
      !pageable(src) || memory_type(dst) != cudaMemoryTypeDevice)
    return false;
  DeferredCopies &d = *deferred_of(device, true);
  std::lock_guard<std::mutex> g(d.mu);
  auto it = std::find_if(d.pending.begin(), d.pending.end(), [&](const DeferredCopies::Pending &p) { return p.stream == s; });
  if (it == d.pending.end()) {
    cudaEvent_t ev = nullptr;
    if (cudaEventCreateWithFlags(&ev, cudaEventDisableTiming) != cudaSuccess) {
      (void)cudaGetLastError();
      return false;
    }
    d.pending.push_back({s, ev, 0});
    it = d.pending.end() - 1;
  }
  bool through_buffer = false;
  if (e.staging_min_bytes > 0 && size >= kSmallToDeviceThroughBuffers) {   // through a free pinned buffer
    Staging &st = staging_of(device, true);
    std::unique_lock<std::mutex> g(st.mu, std::try_to_lock);
    through_buffer = g.owns_lock() && allocated(st) && size <= st.chunk_bytes;
    if (through_buffer) *err = small_to_device(st, s, dst, src, size);
  }
  if (!through_buffer) *err = cudaMemcpyAsync(dst, src, size, cudaMemcpyHostToDevice, s);
  if (*err == cudaSuccess) *err = cudaEventRecord(it->event, s);
  if (*err != cudaSuccess) return true;
  it->epoch = d.epoch.fetch_add(1, std::memory_order_acq_rel) + 1;
  return true;
}

void forget_helpers_in_child() {
  pool().forget_threads();
  for (int i = 0; i < 2 * kSizeClasses; ++i) tuners()[i].forget();
  for (Staging *st : stagings()) {
    if (!st) continue;
    new (&st->mu) std::mutex();
    st->tried = true;   // the parent's pinned buffers and events are not this process's
    st->usable = false;
  }
  new (&g_staging_list_mu) std::mutex();
  new (&g_deferred_list_mu) std::mutex();
  deferred_list().clear();   // the parent's streams and events are not this process's
}

struct AtForkRegistration {
  AtForkRegistration() { pthread_atfork(nullptr, nullptr, forget_helpers_in_child); }
} g_atfork_registration;

cudaError_t copy_now(int device, cudaStream_t s, void *dst, const void *src, std::size_t size, cudaMemcpyKind kind,
                     std::vector<StagedChunk> *chunks = nullptr) {
  const std::size_t min = env().staging_min_bytes;
  const bool to_device = kind == cudaMemcpyHostToDevice;
  cudaError_t deferred_err;
  if (to_device && deferred_copy(device, s, dst, src, size, &deferred_err)) return deferred_err;
  // Through the pinned buffers: copies of at least `min` bytes either way, and smaller ones from
  // the device (small ones to it are deferred, through the buffers too where they can be).
  const bool staged = min > 0 && (size >= min || kind == cudaMemcpyDeviceToHost);
  if (staged && (to_device || kind == cudaMemcpyDeviceToHost) && pageable(to_device ? src : dst)) {
    Staging &st = staging_of(device, to_device);
    std::unique_lock<std::mutex> g(st.mu, std::try_to_lock);
    if (g.owns_lock() && size < min && allocated(st) && size <= st.chunk_bytes)
      return small_from_device(st, s, dst, src, size);
    if (g.owns_lock() && size >= min && ready(st)) {
      // Copies into fresh memory are timed by its faults, not by the way they go: not measured;
      // nor are copies into a destination whose faults a FreshDestinations is still making.
      const bool fresh = !to_device && env().fresh_pages != 0 && looks_fresh(dst, size);
      const bool faulting = fresh || (!to_device && being_readied(dst));
      int slot;
      const int way = tuner(to_device, size).choose(pool().workers(), to_device, !faulting, &slot);
      if (way == kDriverPath) {
        const double t0 = seconds_now();
        cudaError_t err = cudaMemcpyAsync(dst, src, size, kind, s);
        if (err == cudaSuccess) err = cudaStreamSynchronize(s);
        if (err == cudaSuccess) record_copy(to_device, size, slot, t0);
        return err;
      }
      return to_device ? staged_to_device(st, s, static_cast<char *>(dst), static_cast<const char *>(src), size, way,
                                          slot, {chunks})
                       : staged_from_device(st, s, static_cast<char *>(dst), static_cast<const char *>(src), size, fresh,
                                            way, slot, {chunks});
    }
  }
  cudaError_t err = cudaMemcpyAsync(dst, src, size, kind, s);
  return err == cudaSuccess ? cudaStreamSynchronize(s) : err;
}

}  // namespace

void order_after_deferred_copies(int device, cudaStream_t s) {
  if (device < 0) return;
  thread_local std::vector<unsigned long long> seen;   // per device: the epoch this thread ordered after
  const std::size_t i = static_cast<std::size_t>(device);
  if (seen.size() <= i) seen.resize(i + 1, 0);
  DeferredCopies *d = deferred_of(device, false);
  if (!d || d->epoch.load(std::memory_order_acquire) == seen[i]) return;
  std::lock_guard<std::mutex> g(d->mu);
  for (const DeferredCopies::Pending &p : d->pending)
    if (p.stream != s && p.epoch > seen[i] && cudaStreamWaitEvent(s, p.event, 0) != cudaSuccess) (void)cudaGetLastError();
  seen[i] = d->epoch.load(std::memory_order_acquire);
}

void device_addresses_escape() {
  if (g_addresses_escaped.exchange(true, std::memory_order_acq_rel)) return;
  std::vector<DeferredCopies *> all;
  {
    std::lock_guard<std::mutex> g(g_deferred_list_mu);
    all = deferred_list();
  }
  for (DeferredCopies *d : all) {
    if (!d) continue;
    std::lock_guard<std::mutex> g(d->mu);
    for (const DeferredCopies::Pending &p : d->pending)
      if (cudaEventSynchronize(p.event) != cudaSuccess) (void)cudaGetLastError();
  }
}

void prepare_transfers(int device) {
  if (env().staging_min_bytes == 0) return;
  for (bool to_device : {true, false}) {
    Staging &st = staging_of(device, to_device);
    std::lock_guard<std::mutex> g(st.mu);
    (void)ready(st);
  }
  (void)pool().workers();
}

// ------------------------------------------------------------------ destinations readied during a kernel
struct FreshDestinations::Faults {
  Job job;
  std::atomic<bool> unsupported{false};
  const char *begin = nullptr;
  std::size_t size = 0;
};

// The destinations being faulted in now (FreshDestinations), for copy_now: a copy back into one whose
// faults are not all made is timed by them, as a copy into fresh memory is, so the tuner does not
// take its rate for the touched memory's.
namespace {
std::mutex g_readying_mu;
std::vector<const FreshDestinations::Faults *> &readying() {
  static auto *v = new std::vector<const FreshDestinations::Faults *>();
  return *v;
}
}  // namespace

bool being_readied(const void *p) {
  const char *c = static_cast<const char *>(p);
  std::lock_guard<std::mutex> g(g_readying_mu);
  for (const FreshDestinations::Faults *f : readying())
    if (c >= f->begin && c < f->begin + f->size) return !f->job.group_done(0);   // one group: every piece
  return false;
}

// A destination the construct copies back into (map from, large enough to be staged) whose pages
// the process has not touched yet is advised and faulted in by the helpers while the kernel runs:
// its copy back then goes at the rate of touched memory. RSBench's 82 MB of results, freshly
// malloc'ed, came back in 5.8 ms (14 GB/s) with the faults inside the copy (session 20 run 7),
// behind a 62 ms kernel. MADV_POPULATE_WRITE leaves the contents as they are (zero pages where
// nothing was there), so a destination readied but never copied into is unchanged.
void FreshDestinations::start(int n, const ompgpu_map_entry *maps) {
  const int mode = env().fresh_pages;
  const std::size_t min = env().staging_min_bytes;
  if (!(mode & kFreshPopulate) || min == 0) return;
  // Called at every launch: the entries' own fields first; the system, CUDA and the helper pool
  // (a lock) are asked only about a large destination of a copy back. Under unified shared memory
  // maps neither allocate nor copy: nothing comes back.
  for (int i = 0; i < n; ++i) {
    const ompgpu_map_entry &m = maps[i];
    if (!(m.flags & OMPGPU_MAP_FROM) || (m.flags & (OMPGPU_MAP_LITERAL | OMPGPU_MAP_PRIVATE | OMPGPU_MAP_ALLOCATOR)))
      continue;
    const std::size_t size = m.size > 0 ? static_cast<std::size_t>(m.size) : 0;
    char *dst = static_cast<char *>(m.begin);
    if (size < min || !dst || unified_shared_memory() || !looks_fresh(dst, size) || !pageable(dst) ||
        pool().workers() == 0)
      continue;
    if (mode & kFreshHuge) (void)advise(dst, size, kHugePage, MADV_HUGEPAGE);
    faults_.push_back(std::make_unique<Faults>());
    Faults &f = *faults_.back();
    f.begin = dst;
    f.size = size;
    {
      std::lock_guard<std::mutex> g(g_readying_mu);
      readying().push_back(&f);
    }
    fault_in(&f.job, dst, size, &f.unsupported);
    bytes_ += size;
  }
}

FreshDestinations::FreshDestinations() = default;

FreshDestinations::~FreshDestinations() {
  for (auto &f : faults_) {
    pool().withdraw(&f->job);
    std::lock_guard<std::mutex> g(g_readying_mu);
    auto &v = readying();
    v.erase(std::remove(v.begin(), v.end(), f.get()), v.end());
  }
}

cudaError_t copy_host_device(const Loc &loc, int device, cudaStream_t s, void *dst, const void *src, std::size_t size,
                             cudaMemcpyKind kind) {
  if (!profiling() || (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToHost))
    return copy_now(device, s, dst, src, size, kind);
  std::vector<StagedChunk> chunks;
  const double t0 = profile_now_us();
  cudaError_t err = copy_now(device, s, dst, src, size, kind, &chunks);
  profile_transfer(loc, device, s, kind == cudaMemcpyHostToDevice, size, t0, profile_now_us());
  if (!chunks.empty()) profile_staged_chunks(loc, device, s, kind == cudaMemcpyHostToDevice, chunks);
  return err;
}

}  // namespace ompgpu_host
