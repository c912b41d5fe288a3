// ompgpu host runtime: declarations shared by the .cpp files (not part of the C API).
//
// Built two ways from the same sources: against the real CUDA runtime, or with
// -DOMPGPU_EMU -include ompgpu/runtime/emu/cuda_emu.h (the emulator supplies the
// CUDA runtime subset listed in docs/CONTRACTS.md). Only functions from that list
// are used here.
#ifndef OMPGPU_HOST_INTERNAL_HPP
#define OMPGPU_HOST_INTERNAL_HPP

#ifndef OMPGPU_EMU
#include <cuda_runtime.h>
#endif

#include "ompgpu_host.h"

#include <atomic>
#include <cstdint>
#include <cstddef>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#if defined(__GNUC__)
#define OMPGPU_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define OMPGPU_PRINTF(f, a)
#endif

namespace ompgpu_host {

// ---------------------------------------------------------------- env.cpp
enum class Offload { Default, Mandatory, Disabled };

struct Env {
  Offload offload = Offload::Default;
  long long default_device = 0;     // OMP_DEFAULT_DEVICE (initial value of the ICV)
  bool default_device_set = false;  // OMP_DEFAULT_DEVICE was given (else the node-local rank picks)
  // Node-local MPI rank from the launcher's environment (-1: none); without OMP_DEFAULT_DEVICE
  // the default device is local_rank modulo the device count, one GPU per rank.
  long long local_rank = -1;
  const char *local_rank_var = nullptr;   // the variable it came from
  long long world_rank = -1;        // for OMPGPU_INFO's line only
  long long num_teams = 0;          // OMP_NUM_TEAMS (0 = unset)
  long long teams_thread_limit = 0; // OMP_TEAMS_THREAD_LIMIT (0 = unset)
  bool info = false;                // OMPGPU_INFO
  // OMPGPU_DEVICE_CACHE_BYTES: most bytes of freed present-table memory kept per device for
  // reuse (0: every unmap frees). Default 256 MiB; 0 under the emulator, whose cudaFree
  // makes later accesses to the memory fail (copies) or reported (AddressSanitizer).
  std::size_t device_cache_bytes = 0;
  // OMPGPU_STARTUP=lazy: CUDA is initialised at the first target construct, not at program
  // start (startup.cpp).
  bool lazy_startup = false;
  // OMPGPU_STARTUP=background: the program's main runs while its devices start, instead of
  // after (startup.cpp).
  bool background_startup = false;
  // OMPGPU_STAGING_MIN_BYTES: copies of at least this many bytes between pageable host memory
  // and a device go through pinned staging buffers (transfer.cpp); 0: never.
  std::size_t staging_min_bytes = std::size_t(1) << 20;
  // OMPGPU_DEVICE_HEAP_BYTES: the device heap's size (malloc, the omp_alloc family and the
  // variable-length arrays of device code take their memory there); 0: CUDA's default (8 MiB).
  std::size_t device_heap_bytes = 0;
  // OMPGPU_GRID_WAVES: a kernel that is one loop dealt out over the grid gets at most this many
  // times the teams the GPU holds at once (then each thread takes several iterations, a grid-
  // stride loop); 0: one iteration per thread, however many teams that makes. Default 4: a
  // grid of tens of waves of one-iteration threads spends a fifth of a streaming loop's time
  // starting teams (saxpy at 2^24 on an H200: 77.7 us, 64.3 with 2 waves; bench/results
  // s8-h200-2026-11-28-run6).
  long long grid_waves = 4;
  // OMPGPU_LOOP_TEAMS: the teams of a persistent loop's kernel (at most what the GPU holds at
  // once), in place of persistent.cpp's rule; 0: the rule. OMPGPU_PERSISTENT_LOOPS=0 runs such loops as written (a kernel per
  // region and iteration), to compare.
  long long loop_teams = 0;
  bool persistent_loops = true;
  // OMPGPU_STAGING_BUFFERS, OMPGPU_STAGING_CHUNK_BYTES: the pinned staging buffers of a device
  // and direction (chunks of a staged copy in flight, 2 to 16) and each one's size (the largest
  // chunk).
  int staging_buffers = 4;
  std::size_t staging_chunk_bytes = std::size_t(8) << 20;
  // OMPGPU_FRESH_PAGES: what a staged copy from the device does for destination pages the process
  // has not touched yet (the first whole page is not backed: mincore; transfer.cpp): bit 0 asks
  // for huge pages (madvise MADV_HUGEPAGE), bit 1 has up to four helpers fault the pages in ahead
  // of the copy (MADV_POPULATE_WRITE). Names: none, huge, populate, both.
  int fresh_pages = 3;
  // OMPGPU_DEFERRED_COPIES=0: every copy to a device waits for its DMA (transfer.cpp's
  // deferred small copies off).
  bool deferred_copies = true;
  // OMPGPU_COPY_THREADS: helper threads that copy between pageable memory and the staging
  // buffers beside the calling thread (default: the processors the process may use less one,
  // at most 15; none with two processors or fewer).
  int copy_threads = -1;
  // OMPGPU_PROFILE: "" off; "1" (or any true word) the table at exit; else a file name for
  // the Chrome trace (profile.cpp), the table too.
  std::string profile;
};

const Env &env();                    // parsed once, on first use
// Reads OMP_NUM_TEAMS, OMP_TEAMS_THREAD_LIMIT and OMPGPU_INFO again (an embedding caller
// whose environment changes between calls; not while constructs run on other threads).
void reread_launch_environment();
long long default_device_icv();
void set_default_device_icv(long long d);

// ---------------------------------------------------------------- report.cpp
// A source location for messages. file may be NULL; line/col <= 0 are left out.
struct Loc {
  const char *file = nullptr;
  int line = 0, col = 0;
  const char *construct = nullptr;   // "target", "target data", ... (may be NULL)
};
Loc make_loc(const ompgpu_srcloc *l, const char *default_construct);
Loc make_loc(const ompgpu_kernel_desc *k);

std::string strprintf(const char *fmt, ...) OMPGPU_PRINTF(1, 2);
// "ompgpu: file:line:col: error: <msg>" and exit(1)
[[noreturn]] void fatal(const Loc &loc, const char *fmt, ...) OMPGPU_PRINTF(2, 3);
// same, followed by "ompgpu: file:line:col: note: <note>" lines (notes may be empty)
[[noreturn]] void fatal_with_notes(const Loc &loc, const std::string &msg,
                                   const std::vector<std::string> &notes);
// prints text (complete lines) to stderr and exit(1)
[[noreturn]] void fatal_text(const std::string &text);
// A fatal error is ending the process (exit handlers then leave the runtime's state alone:
// the failing thread may hold rt().mu).
bool exiting_on_error();
// "file:line:col: " or "file:line: " ("" when the file is unknown)
std::string loc_prefix(const Loc &loc, bool with_col);
// "<what> failed: <cudaGetErrorName>: <cudaGetErrorString>" (+ notes) and exit(1)
[[noreturn]] void cuda_fatal(const Loc &loc, cudaError_t err, const std::string &what,
                             std::vector<std::string> notes = {});
inline void check(const Loc &loc, cudaError_t err, const std::string &what) {
  if (err != cudaSuccess) cuda_fatal(loc, err, what);
}
void warning(const char *fmt, ...) OMPGPU_PRINTF(1, 2);   // "ompgpu: warning: ..."
// OMPGPU_INFO=1 log: "ompgpu: file:line: <msg>"
void info(const Loc &loc, const char *fmt, ...) OMPGPU_PRINTF(2, 3);
inline bool info_on() { return env().info; }
std::string cuda_error_text(cudaError_t err);  // "<name>: <string>"
bool is_kernel_fault(cudaError_t err);

// ---------------------------------------------------------------- embedding.cpp
// What fatal errors throw inside ompgpu_py_call (the text fatal_text would print).
class RuntimeError : public std::exception {
 public:
  explicit RuntimeError(std::string text);
  const char *what() const noexcept override;
 private:
  std::string text_;
};
// This thread is inside ompgpu_py_call: fatal errors throw RuntimeError.
bool errors_are_thrown();
// Inside a Python API call that gave its caller's stream (ompgpu_py_call): *s = that stream when
// d is the call's device. Every construct of the call runs on it (thread_stream).
bool call_stream(int d, cudaStream_t *s);
// Inside such a call whose function may return before its kernels end (python_api/signature.py
// says which): a kernel on device d that uses only present memory and copies nothing back is
// not waited for; the call records that it left_running(d, stream) instead, and the thread's
// next call that may not return early waits for that stream first.
bool call_may_return_early(int d);
void left_running(int d, cudaStream_t s);
// The caller's array extents (ompgpu_py_call), checked before a construct maps
// anything: a mapped entry that starts inside one and runs past its end, and a pointer a
// target region uses without a map (ATTACH_ONLY) that points into one that is neither
// present nor mapped by the construct, are errors naming the array. Expects rt().mu held.
struct Device;
void check_host_extents(Device &dev, const Loc &loc, int n, const ompgpu_map_entry *maps);

// ---------------------------------------------------------------- data.cpp
struct Mapping {
  std::uintptr_t hbegin = 0;   // host address of the first mapped byte
  std::size_t size = 0;
  std::uintptr_t dbegin = 0;   // device address corresponding to hbegin
  long long refcount = 0;
  bool associated = false;     // omp_target_associate_ptr: infinite refcount, not owned
  bool link = false;           // `declare target link` variable: storage is the device symbol
                               // (never allocated or freed); present only while refcount > 0
  std::uintptr_t dalloc = 0;   // the device block (owned mappings), from DeviceMemoryCache
  std::size_t dalloc_class = 0;   // its size class in the cache (0: not cacheable, cudaFree it)
  std::string name;            // the item that created it ("a[0:100]")
  // Attached pointers inside this mapping (map of s.p[lo:n] with s mapped here): host
  // address of the pointer -> the device address written into its device copy. Copies
  // to the device re-attach them; copies from the device keep the host's values.
  std::map<std::uintptr_t, std::uintptr_t> attached;
  std::uintptr_t hend() const { return hbegin + size; }
  std::uintptr_t translate(std::uintptr_t h) const { return dbegin + (h - hbegin); }
};

enum class Lookup { NotPresent, Contained, Overlap };

// A `declare target link` variable is present only while something maps it.
inline bool absent_link(const Mapping *m) { return m->link && m->refcount == 0; }

class PresentTable {
 public:
  // Finds the mapping that contains [b, b+size). size == 0: b inside a mapping or one
  // past its end. Overlap: *m is the mapping [b, b+size) partially overlaps.
  Lookup find(std::uintptr_t b, std::size_t size, Mapping **m);
  Mapping *insert(const Mapping &m);
  void erase(Mapping *m);
  std::size_t count() const { return table_.size(); }
 private:
  std::map<std::uintptr_t, Mapping> table_;
};

// ---------------------------------------------------------------- globals.cpp
struct Device;
// Enters every `declare target` global registered so far into the device's present table
// (always present: an associated mapping onto the device symbol).
void register_globals_on(Device &dev);

// ---------------------------------------------------------------- device_cache.cpp
// Device memory for the present table. Every map of a target region used to cost a
// cudaMalloc and a cudaFree (which waits for the whole device): tens of microseconds per
// region. Freed blocks are kept instead in size-class free lists and handed out again to
// the next map of the same class. Classes are the sizes 256 B..64 MiB with two bits of
// mantissa (256, 320, 384, 448, 512, 640, ...: at most 25% rounding), and above 64 MiB the
// size rounded up to 2 MiB (an array mapped again and again comes back at its size); blocks
// over the cap, and every block when the cap is 0, bypass the cache (exact size, cudaFree at
// unmap).
//
// A block must not be handed out while device work may still use it. Every copy the
// runtime makes is complete when the call that made it returns (the mapping copies even
// before rt().mu is released); only a target region's kernel runs asynchronously (from its
// launch to its stream synchronisation), and it may reach memory it holds no reference on
// (firstprivate pointers, device pointers stored in the data). So each block remembers the last kernel ticket issued when it was
// freed, and is reused only once every kernel with that ticket or an older one finished.
class DeviceMemoryCache {
 public:
  // All members expect rt().mu held; allocate and release_all expect the device selected.
  // A block of at least `size` bytes: a reusable cached block of size's class, else
  // cudaMalloc. On cudaErrorMemoryAllocation the cache is emptied and the allocation
  // retried once (then once more at the exact size, not cached). *cls = the block's class
  // for release (0: not cacheable). Returns the error of the last attempt.
  cudaError_t allocate(std::size_t size, void **p, std::size_t *cls);
  // Takes back a block from allocate: cached (evicting the blocks released longest ago
  // when the cap would be exceeded), or appended to *to_free when it is not cacheable.
  // Blocks to cudaFree (without the lock) go to *to_free.
  void release(void *p, std::size_t cls, std::vector<void *> *to_free);
  // cudaFree of every cached block (errors are ignored: this runs when memory is short or
  // the program ends).
  void release_all();
  // A target region's kernel on this device: launched (returns its ticket) and finished.
  std::uint64_t kernel_started();
  void kernel_finished(std::uint64_t ticket);
  // A kernel the runtime did not wait for (call_may_return_early): it finishes when `done`, an
  // event recorded after it, has completed; allocate looks.
  void kernel_left_running(std::uint64_t ticket, cudaEvent_t done);
  std::size_t cached_bytes() const { return cached_bytes_; }
  std::size_t cached_blocks() const { return cached_blocks_; }
  // The class of a block for `size` bytes under a cap; 0 when such a block bypasses it.
  static std::size_t size_class(std::size_t size, std::size_t cap);

 private:
  struct Block {
    void *p;
    std::uint64_t last_ticket;   // kernels up to this ticket may still use it
    std::uint64_t stamp;         // release order (eviction: smallest first)
  };
  bool reusable(const Block &b) const { return running_.empty() || *running_.begin() > b.last_ticket; }
  std::map<std::size_t, std::deque<Block>> free_;   // class -> blocks, in release order
  std::map<std::uint64_t, std::size_t> lru_;        // stamp -> class, of every cached block
  std::size_t cached_bytes_ = 0;
  std::size_t cached_blocks_ = 0;
  std::uint64_t releases_ = 0;        // blocks released so far (stamps)
  std::uint64_t tickets_ = 0;         // kernels launched so far
  std::set<std::uint64_t> running_;   // tickets of the kernels not finished yet
  std::vector<std::pair<std::uint64_t, cudaEvent_t>> left_running_;   // kernel_left_running, not seen ended
  std::vector<cudaEvent_t> spare_events_;                              // of those that ended, for reuse
  void finish_ended_kernels();
 public:
  // An event for kernel_left_running (NULL when none can be made: then wait for the kernel).
  cudaEvent_t event_for_left_running();
};

// ---------------------------------------------------------------- device.cpp
// What the occupancy calculator says of a kernel at one team size: teams one SM holds at once
// (0: unknown) and the local memory a thread uses.
struct Residency {
  int teams = 0;
  int local_bytes = 0;
};

struct Device {
  int id = 0;
  std::string name;
  int sms = 1;
  int max_threads_per_block = 1024;
  int max_threads_per_sm = 2048;
  std::size_t total_mem = 0;
  bool pageable_memory_access = false;   // kernels can read and write any host memory (HMM, ATS)
  PresentTable table;
  DeviceMemoryCache cache;       // the table's device memory (guarded by rt().mu)
  // per kernel and team size (guarded by rt().mu)
  std::map<std::pair<const void *, long long>, Residency> residency;
  // The process's first use of the device (activate_device): its context and its `declare
  // target` globals. Devices the program never names cost nothing: a context takes hundreds
  // of MB on each GPU, times the MPI ranks of a node.
  std::once_flag activation;
  std::atomic<bool> active{false};
};

struct Runtime {
  std::mutex mu;                 // guards every present table and the device list after init
  bool available = false;        // at least one GPU, and CUDA initialised
  std::string unavailable_reason;
  int num_devices = 0;           // GPUs (0 when unavailable)
  std::vector<Device *> devices;
  // `requires unified_shared_memory` met with CUDA managed memory and registered host memory
  // (usm.cpp): some device cannot access pageable host memory.
  bool usm_managed = false;
};

Runtime &rt();                   // lazily initialised (thread-safe), never destroyed
// `requires unified_shared_memory` (ompgpu_require_unified_shared_memory): host memory is the
// devices' too. Devices with pageable memory access reach it all; others, with managed memory
// and concurrent managed access, reach what usm.cpp makes reachable; a variable no map made
// present is used where it is (maps of such variables neither allocate nor copy).
bool unified_shared_memory();
// Unified shared memory through managed memory (usm.cpp): whether it is in force, the
// registration of the calling thread's stack and the program's static data before a launch,
// and the note a kernel's fault gets then.
bool usm_managed();
void usm_reach_stack_and_statics();
const char *usm_fault_note();
bool runtime_started();          // rt() has been initialised (does not initialise it)
// In a child process forked after the runtime initialised CUDA: rt() becomes a runtime
// without devices whose unavailable_reason is `reason` (the CUDA state of the parent is not
// usable in a child).
void forget_inherited_devices(const std::string &reason);
// Number of usable devices: 0 when OMP_TARGET_OFFLOAD=DISABLED or no GPU.
int usable_devices();
// Exits with the MANDATORY error when OMP_TARGET_OFFLOAD=MANDATORY and no GPU.
void require_mandatory(const Loc &loc);
// Resolves a device clause value (or OMPGPU_DEVICE_DEFAULT): a device index >= 0, or -1
// for the host (host fallback). Errors out on an out-of-range number.
int resolve_device(const Loc &loc, long long device);
// cudaSetDevice(d), checked (this thread's current device), and the device activated.
void select_device(const Loc &loc, int d);
// The first use of device d: creates its context and enters the `declare target` globals into
// its present table, once (other callers wait for it). Never with rt().mu held; leaves d selected.
void activate_device(int d);

// ---------------------------------------------------------------- startup.cpp
// OMPGPU_STARTUP=lazy, or a process forked after the runtime touched CUDA: see startup.cpp.
// The reason the devices are unusable in a child forked after CUDA was initialised ("" if not).
const std::string &forked_child_reason();
// The runtime is about to initialise CUDA in this process (a child forked later cannot use it).
void note_cuda_touched();

// ---------------------------------------------------------------- transfer.cpp
// Copies size bytes between host and device memory (kind: host to device or device to host,
// else a plain copy) on stream s of device `device` (selected), complete when it returns.
// Large copies to or from pageable memory go through pinned staging buffers.
// The staging buffers of device `device` (selected) and the copy helpers, made ahead of the first
// copy (by the background start-up).
void prepare_transfers(int device);
// Small copies from pageable memory to a device may return before their DMA is done (as
// cudaMemcpy's do): stream s of device `device` waits for those that other streams queued.
// thread_stream calls it for every stream it hands out.
void order_after_deferred_copies(int device, cudaStream_t s);
// Device addresses reach the program, whose own CUDA work the runtime does not order: the
// deferred copies are completed, and no copy is deferred any more.
void device_addresses_escape();
// The fresh destinations of a construct's copies back (map from: pages a fresh malloc has not
// backed yet), faulted in by the copy helpers from start() while the construct's kernels run (a
// target region's from its launch, a target data region's from its start), so that the copies
// back find touched memory. The faults left when it goes are not made (a copy
// into a destination faults its own pages).
class FreshDestinations {
 public:
  FreshDestinations();
  FreshDestinations(const FreshDestinations &) = delete;
  FreshDestinations &operator=(const FreshDestinations &) = delete;
  ~FreshDestinations();
  void start(int n, const ompgpu_map_entry *maps);
  std::size_t bytes() const { return bytes_; }   // of the destinations being readied
  struct Faults;   // one destination's (transfer.cpp)

 private:
  std::vector<std::unique_ptr<Faults>> faults_;
  std::size_t bytes_ = 0;
};
// Recorded for OMPGPU_PROFILE under loc.
cudaError_t copy_host_device(const Loc &loc, int device, cudaStream_t s, void *dst, const void *src, std::size_t size,
                             cudaMemcpyKind kind);

// ---------------------------------------------------------------- profile.cpp
// OMPGPU_PROFILE (see profile.cpp). Times in microseconds since the runtime loaded.
bool profiling();
double profile_now_us();
void profile_kernel(const Loc &loc, const ompgpu_kernel_desc *k, int device, const void *stream, double start_us,
                    double kernel_ms, unsigned teams, unsigned threads);
void profile_transfer(const Loc &loc, int device, const void *stream, bool to_device, std::size_t bytes,
                      double start_us, double end_us);
// A target construct from its start to its end (the trace's host track).
void profile_construct(const Loc &loc, double start_us, double end_us);
// An allocation of `bytes` (0: device memory freed) that took `ms` in CUDA.
void profile_alloc(const Loc &loc, int device, std::size_t bytes, double ms);
void profile_wait(const Loc &loc, const char *what, double start_us, double end_us);
// One chunk of a copy staged through the pinned buffers (transfer.cpp): when its host side
// (its pieces copied into or out of its buffer) and its DMA ran, as the copying thread saw them.
struct StagedChunk {
  double host_start_us, host_end_us, dma_start_us, dma_end_us;
  std::size_t bytes;
  int buffer;
};
// A staged copy's chunks: the DMAs on the copy's stream track, the host sides on a track per
// staging buffer, so that the trace shows whether the two overlap.
void profile_staged_chunks(const Loc &loc, int device, const void *stream, bool to_device,
                           const std::vector<StagedChunk> &chunks);

// ---------------------------------------------------------------- target.cpp
// Loads kernel k's device code on dev (selected) and records its residency at the team size it
// launches with by default (rt().mu is taken here): what the first launch would do.
void prepare_kernel(Device &dev, const ompgpu_kernel_desc *k);
// This host thread's stream on device d (created on first use, non-blocking, never
// destroyed). Every transfer and launch of a construct goes to the stream of the thread
// that runs it, so constructs of different host threads (e.g. `target nowait` tasks)
// overlap on the device; the construct synchronises its stream before returning.
cudaStream_t thread_stream(const Loc &loc, int d);
// The launch of `teams` teams of `threads` threads on device d's `stream`: no dynamic shared
// memory, no scratch, no combined atomics (target.cpp sets those where a kernel has them).
ompgpu_launch_config launch_config(long long teams, long long threads, int d, cudaStream_t stream);
// Zeroed device memory of at least `bytes` for a kernel of this thread on device d, which
// leaves it zeroed (inner loops spread across the grid); NULL where none can be had.
void *launch_scratch(int d, std::size_t bytes, unsigned *epoch);

// ---------------------------------------------------------------- data.cpp (mapping)
// All of these expect rt().mu held and the device selected; copies go through this
// thread's stream and are complete when they return.
// Maps the entries (construct entry): allocation, copy-to, refcount +1, then attaches
// pointers (OMPGPU_MAP_ATTACH entries).
void map_enter(Device &dev, const Loc &loc, int n, const ompgpu_map_entry *maps);
// Unmaps (construct exit): refcount -1 (delete: 0), copy-from, removal from the table.
// The device memory goes back to the device's cache; what must be freed is appended to
// *to_free: the caller frees it with free_device_memory after releasing rt().mu (cudaFree
// waits for the whole device, which must not stall other host threads' constructs).
void map_exit(Device &dev, const Loc &loc, int n, const ompgpu_map_entry *maps, std::vector<void *> *to_free);
void free_device_memory(const Loc &loc, int d, const std::vector<void *> &to_free);
// The translated value of an entry for a kernel argument: device address of begin
// minus (begin - base), or 0 if begin is not present.
std::uintptr_t translate_entry(Device &dev, const Loc &loc, const ompgpu_map_entry &e);
// The mapping that holds a kernel argument's host storage (the entry's begin), nullptr where none
// does (a device pointer, a pointer into nothing mapped, NULL).
const Mapping *argument_mapping(Device &dev, const ompgpu_map_entry &e);

}  // namespace ompgpu_host

#endif
