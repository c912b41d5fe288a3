// cuda_emu.h - the ompgpu device emulator.
//
// Lets the CUDA C++ that ompgpu generates (and the host runtime written against the CUDA
// runtime API) compile with the host C++ compiler and run on the CPU:
//
//   g++ -std=c++17 -O1 -x c++ -DOMPGPU_EMU -include ompgpu/runtime/emu/cuda_emu.h prog.device.cu
//
// Header-only: every function and variable is `inline`, so the header may be included by any
// number of translation units (device objects and host-runtime sources) of one program.
//
// Model
// - A launch runs synchronously. Blocks run one after another (or a few at a time on up to
//   OMPGPU_EMU_THREADS OS threads). Inside a block every CUDA thread is a user-space fiber
//   with its own stack (OMPGPU_EMU_STACK bytes, default 64 KiB, guard page below it);
//   fibers are scheduled cooperatively: a fiber runs until it waits at a barrier, a warp
//   collective or __activemask(), exits, or yields (atomics, __nanosleep, __threadfence,
//   clock64 are yield points, see atomic_hook()).
// - Warps are 32 consecutive threads (linear thread id x + y*X + z*X*Y).
// - Named barriers count like the hardware's barrier{.cta}: a thread waits until every
//   non-exited thread of its warp has arrived at that barrier, then the warp counts 32
//   toward the barrier's count; count 0 means every warp of the block (warps whose threads
//   all exited count as arrived). bar.arrive also waits for its own warp, not for the
//   barrier.
// - Warp collectives (__syncwarp, shuffles, votes, match, reduce) complete when every
//   non-exited lane named in the mask waits at a collective with the same mask.
// - __activemask() waits until no other lane of the warp can still get there (each other
//   non-exited lane waits somewhere or is spinning), then returns the lanes that wait at
//   the same __activemask() call site (a macro: textual site + return address).
// - Deadlocks and misuse are reported on stderr with the prefix "ompgpu-emu:" and end the
//   process with exit status 3.
//
// Environment: OMPGPU_EMU_THREADS (OS threads running blocks, default 1), OMPGPU_EMU_STACK
// (fiber stack bytes, default 65536, 256 KiB under -fsanitize=address), OMPGPU_EMU_SMS
// (reported SM count, default 132),
// OMPGPU_EMU_DEVICES (device count, default 1; 0 emulates a machine without a GPU),
// OMPGPU_EMU_PAGEABLE (cudaDevAttrPageableMemoryAccess, default 1: kernels run on the host and
// reach any host memory; 0 emulates a GPU without HMM/ATS, such as a PCIe H100 on most kernels),
// OMPGPU_EMU_MEM (device memory bytes, default 80 GiB), OMPGPU_EMU_TIMEOUT (seconds a launch
// may take before it is reported as hung, default 0 = no limit), OMPGPU_EMU_SPIN_LIMIT
// (consecutive spin-yields without progress in a block before a livelock is reported,
// default 20000000; 0 = never; only with one OS thread).
#ifndef OMPGPU_CUDA_EMU_H
#define OMPGPU_CUDA_EMU_H

#ifndef __cplusplus
#error "cuda_emu.h is C++ (compile with g++ -x c++)"
#endif

// The heavy standard headers (<mutex>, <thread>, <string>, <functional>) are avoided to keep
// compiles fast.
#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <limits>
#include <map>
#include <memory>
#include <new>
#include <tuple>
#include <type_traits>
#include <utility>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#define OMPGPU_EMU_ASAN 1
#else
#define OMPGPU_EMU_ASAN 0
#endif

#if defined(__x86_64__) && !defined(OMPGPU_EMU_UCONTEXT)
#define OMPGPU_EMU_ASM_SWITCH 1
#else
#define OMPGPU_EMU_ASM_SWITCH 0
#endif
#include <dlfcn.h>     // dladdr: the module of a faulting instruction
#include <ucontext.h>  // the faulting instruction's address

// ---------------------------------------------------------------------------------------
// CUDA keywords
// ---------------------------------------------------------------------------------------
// None here: CUDA's keywords are macros only in cuda_source.h, for hand-written CUDA sources.
// The device runtime and generated code spell them OMPGPU_DEVICE, ... (runtime/device/
// keywords.cuh). This header defines no macro with a reserved name: a standard library
// header included after it (libstdc++ 13 writes __attribute__((__noinline__))) must not
// see one.
#ifndef CUDART_VERSION
#define CUDART_VERSION 13000
#endif
#define OMPGPU_EMU_VERSION 1
// Host API functions stay out of line, like the real library's (keeps -Wmaybe-uninitialized quiet).
#define OMPGPU_EMU_API inline __attribute__((noinline))

// ---------------------------------------------------------------------------------------
// Vector types and built-in variables
// ---------------------------------------------------------------------------------------
struct uint3 { unsigned int x, y, z; };
struct dim3 {
  unsigned int x, y, z;
  constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};
#define OMPGPU_EMU_VEC2(T, N) \
  struct N##2 { T x, y; }; \
  inline N##2 make_##N##2(T x, T y) { return N##2{x, y}; }
#define OMPGPU_EMU_VEC4(T, N) \
  struct N##4 { T x, y, z, w; }; \
  inline N##4 make_##N##4(T x, T y, T z, T w) { return N##4{x, y, z, w}; }
OMPGPU_EMU_VEC2(int, int)
OMPGPU_EMU_VEC2(unsigned int, uint)
OMPGPU_EMU_VEC2(float, float)
OMPGPU_EMU_VEC2(double, double)
OMPGPU_EMU_VEC2(long long, longlong)
OMPGPU_EMU_VEC4(int, int)
OMPGPU_EMU_VEC4(unsigned int, uint)
OMPGPU_EMU_VEC4(float, float)
#undef OMPGPU_EMU_VEC2
#undef OMPGPU_EMU_VEC4
struct int3 { int x, y, z; };
inline int3 make_int3(int x, int y, int z) { return int3{x, y, z}; }
inline uint3 make_uint3(unsigned x, unsigned y, unsigned z) { return uint3{x, y, z}; }

// One OS thread runs one CUDA thread (fiber) at a time; the scheduler stores the running
// fiber's ids here, so these are plain variables, not macros.
inline __thread uint3 threadIdx;
inline __thread uint3 blockIdx;
inline __thread dim3 blockDim;
inline __thread dim3 gridDim;
inline constexpr int warpSize = 32;

// ---------------------------------------------------------------------------------------
// CUDA runtime types
// ---------------------------------------------------------------------------------------
enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorCudartUnloading = 4,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidPitchValue = 12,
  cudaErrorInvalidSymbol = 13,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorInsufficientDriver = 35,
  cudaErrorInvalidDeviceFunction = 98,
  cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101,
  cudaErrorNoKernelImageForDevice = 209,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorNotReady = 600,
  cudaErrorIllegalAddress = 700,
  cudaErrorLaunchOutOfResources = 701,
  cudaErrorLaunchTimeout = 702,
  cudaErrorAssert = 710,
  cudaErrorLaunchFailure = 719,
  cudaErrorNotSupported = 801,
  cudaErrorUnknown = 999
};
typedef enum cudaError cudaError_t;

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};

enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrMaxBlockDimX = 2,
  cudaDevAttrMaxBlockDimY = 3,
  cudaDevAttrMaxBlockDimZ = 4,
  cudaDevAttrMaxGridDimX = 5,
  cudaDevAttrMaxGridDimY = 6,
  cudaDevAttrMaxGridDimZ = 7,
  cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrTotalConstantMemory = 9,
  cudaDevAttrWarpSize = 10,
  cudaDevAttrMaxRegistersPerBlock = 12,
  cudaDevAttrClockRate = 13,
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrIntegrated = 18,
  cudaDevAttrConcurrentKernels = 31,
  cudaDevAttrMemoryClockRate = 36,
  cudaDevAttrGlobalMemoryBusWidth = 37,
  cudaDevAttrL2CacheSize = 38,
  cudaDevAttrMaxThreadsPerMultiProcessor = 39,
  cudaDevAttrUnifiedAddressing = 41,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
  cudaDevAttrMaxRegistersPerMultiprocessor = 82,
  cudaDevAttrManagedMemory = 83,
  cudaDevAttrPageableMemoryAccess = 88,
  cudaDevAttrCooperativeLaunch = 95,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
  cudaDevAttrMaxBlocksPerMultiprocessor = 106
};

enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9
};

enum cudaLimit { cudaLimitStackSize = 0, cudaLimitPrintfFifoSize = 1, cudaLimitMallocHeapSize = 2 };

enum cudaMemoryType {
  cudaMemoryTypeUnregistered = 0,
  cudaMemoryTypeHost = 1,
  cudaMemoryTypeDevice = 2,
  cudaMemoryTypeManaged = 3
};

struct cudaPointerAttributes {
  enum cudaMemoryType type;
  int device;
  void *devicePointer;
  void *hostPointer;
};

// The fields of CUDA 13's cudaDeviceProp that a host runtime plausibly reads. CUDA 13
// removed clockRate (and the other deprecated clock fields) from this struct; read it
// with cudaDeviceGetAttribute(cudaDevAttrClockRate) instead, which works on both.
struct cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  size_t totalConstMem;
  int major;
  int minor;
  int multiProcessorCount;
  int integrated;
  int canMapHostMemory;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int pciDomainID;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryBusWidth;
  int l2CacheSize;
  int maxThreadsPerMultiProcessor;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  int concurrentManagedAccess;
  int pageableMemoryAccess;
  int cooperativeLaunch;
  size_t sharedMemPerBlockOptin;
  int maxBlocksPerMultiProcessor;
  size_t reservedSharedMemPerBlock;
  int reserved[56];
};

struct cudaFuncAttributes {
  size_t sharedSizeBytes;
  size_t constSizeBytes;
  size_t localSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
  int ptxVersion;
  int binaryVersion;
  int cacheModeCA;
  int maxDynamicSharedSizeBytes;
  int preferredShmemCarveout;
};

struct CUstream_st {
  unsigned magic;
  unsigned flags;
};
struct CUevent_st {
  unsigned magic;
  unsigned flags;
  bool recorded;
  unsigned long long ns;
};
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaHostAllocDefault 0x00
#define cudaHostRegisterDefault 0x00

// ---------------------------------------------------------------------------------------
// The emulator proper
// ---------------------------------------------------------------------------------------
namespace ompgpu_emu {

constexpr unsigned kMaxThreads = 1024;
constexpr unsigned kMaxWarps = kMaxThreads / 32;
constexpr int kNumBarriers = 16;
constexpr size_t kMaxDynShared = 227 * 1024;      // sharedMemPerBlockOptin of sm_90
constexpr size_t kDefaultDynShared = 48 * 1024;   // without cudaFuncSetAttribute
constexpr uint64_t kPoison = 0x7ff8dead7fc0deadull;  // shuffle from a lane that is not there
constexpr unsigned kStreamMagic = 0x5354524du, kEventMagic = 0x45564e54u;
inline bool valid_stream(cudaStream_t s) {
  return s == nullptr || s == cudaStreamLegacy || s == cudaStreamPerThread || s->magic == kStreamMagic;
}

// ----- small tools (no <mutex>/<string>: they cost compile time in every translation unit) --
struct Str {
  char s[400];
  const char *c_str() const { return s; }
};
__attribute__((format(printf, 1, 2))) inline Str strf(const char *fmt, ...) {
  Str r;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r.s, sizeof r.s, fmt, ap);
  va_end(ap);
  return r;
}
struct Mutex {
  pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
  void lock() { pthread_mutex_lock(&m); }
  void unlock() { pthread_mutex_unlock(&m); }
};
struct Guard {
  Mutex &m;
  explicit Guard(Mutex &mu) : m(mu) { m.lock(); }
  ~Guard() { m.unlock(); }
  Guard(const Guard &) = delete;
  Guard &operator=(const Guard &) = delete;
};
inline uint64_t now_ns() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}
inline void start_detached(void *(*fn)(void *), void *arg) {
  pthread_t t;
  pthread_attr_t at;
  pthread_attr_init(&at);
  pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
  int rc = pthread_create(&t, &at, fn, arg);
  pthread_attr_destroy(&at);
  if (rc != 0) {
    fprintf(stderr, "ompgpu-emu: cannot start a thread\n");
    _exit(3);
  }
}

// ----- process-wide settings ------------------------------------------------------------
inline long env_long(const char *name, long dflt) {
  const char *s = getenv(name);
  if (!s || !*s) return dflt;
  char *end = nullptr;
  long v = strtol(s, &end, 0);
  return (end && *end == 0) ? v : dflt;
}

struct Config {
  int threads;
  size_t stack;
  int sms;
  int devices;
  int pageable;
  unsigned long long mem;
  long timeout_s;
  unsigned long long spin_limit;
};
inline const Config &config() {
  static const Config c = [] {
    Config k;
    k.threads = (int)std::max(1L, std::min(env_long("OMPGPU_EMU_THREADS", 1), 256L));
    long st = env_long("OMPGPU_EMU_STACK", OMPGPU_EMU_ASAN ? 256 * 1024 : 64 * 1024);
    if (st < 16 * 1024) st = 16 * 1024;
    long pg = sysconf(_SC_PAGESIZE);
    k.stack = (size_t)((st + pg - 1) / pg * pg);
    k.sms = (int)std::max(1L, env_long("OMPGPU_EMU_SMS", 132));
    k.devices = (int)std::max(0L, std::min(env_long("OMPGPU_EMU_DEVICES", 1), 64L));
    k.pageable = env_long("OMPGPU_EMU_PAGEABLE", 1) != 0;
    const char *m = getenv("OMPGPU_EMU_MEM");
    k.mem = (m && *m) ? strtoull(m, nullptr, 0) : (80ull << 30);
    k.timeout_s = env_long("OMPGPU_EMU_TIMEOUT", 0);
    long sl = env_long("OMPGPU_EMU_SPIN_LIMIT", 20000000L);
    k.spin_limit = sl <= 0 ? ~0ull : (unsigned long long)sl;
    return k;
  }();
  return c;
}

// ----- reports ----------------------------------------------------------------------------
inline int &reporting() {
  static int r = 0;
  return r;
}
inline bool claim_report() { return __atomic_exchange_n(&reporting(), 1, __ATOMIC_SEQ_CST) == 0; }
// Only the first report is printed: a second reporter (another OS thread) parks here.
inline void begin_report() {
  if (!claim_report()) {
    for (;;) pause();
  }
  fflush(stdout);
}
[[noreturn]] inline void end_report() {
  fflush(stderr);
  _exit(3);
}

struct Fiber;
struct Exec;
inline Str where();

[[noreturn]] __attribute__((format(printf, 1, 2))) inline void fatal(const char *fmt, ...) {
  begin_report();
  char buf[2048];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  fprintf(stderr, "ompgpu-emu: %s\n", buf);
  end_report();
}

// ----- context switch ------------------------------------------------------------------------
#if OMPGPU_EMU_ASM_SWITCH
// Saves the callee-saved registers, MXCSR and the x87 control word on the current stack,
// stores the stack pointer in *save, switches to the stack `to` and restores from it.
// No system call (glibc's swapcontext does a sigprocmask).
__attribute__((naked, noinline)) inline void ctx_switch(void ** /*save*/, void * /*to*/) {
  __asm__ volatile(
      "pushq %rbp\n\t"
      "pushq %rbx\n\t"
      "pushq %r12\n\t"
      "pushq %r13\n\t"
      "pushq %r14\n\t"
      "pushq %r15\n\t"
      "subq $16, %rsp\n\t"
      "stmxcsr 8(%rsp)\n\t"
      "fnstcw 12(%rsp)\n\t"
      "movq %rsp, (%rdi)\n\t"
      "movq %rsi, %rsp\n\t"
      "ldmxcsr 8(%rsp)\n\t"
      "fldcw 12(%rsp)\n\t"
      "addq $16, %rsp\n\t"
      "popq %r15\n\t"
      "popq %r14\n\t"
      "popq %r13\n\t"
      "popq %r12\n\t"
      "popq %rbx\n\t"
      "popq %rbp\n\t"
      "ret\n\t");
}
#endif

// ----- per-block state ---------------------------------------------------------------------
enum Wait : uint8_t { W_NONE = 0, W_BAR_WARP, W_BAR, W_COLL, W_AMASK, W_EXITED };
enum Coll : uint8_t {
  C_SYNCWARP, C_SHFL, C_SHFL_UP, C_SHFL_DOWN, C_SHFL_XOR, C_BALLOT, C_ANY, C_ALL, C_UNI,
  C_MATCH_ANY, C_MATCH_ALL, C_RED_ADD, C_RED_MIN, C_RED_MAX, C_RED_AND, C_RED_OR, C_RED_XOR
};
inline const char *coll_name(int k) {
  static const char *const n[] = {"__syncwarp", "__shfl_sync", "__shfl_up_sync", "__shfl_down_sync",
                                  "__shfl_xor_sync", "__ballot_sync", "__any_sync", "__all_sync",
                                  "__uni_sync", "__match_any_sync", "__match_all_sync",
                                  "__reduce_add_sync", "__reduce_min_sync", "__reduce_max_sync",
                                  "__reduce_and_sync", "__reduce_or_sync", "__reduce_xor_sync"};
  return (k >= 0 && k < (int)(sizeof n / sizeof n[0])) ? n[k] : "?";
}

struct Fiber {
  void *sp;                 // saved stack pointer (asm switch)
  uint3 tid;
  unsigned lin, warp, lane;
  uint8_t wait;
  uint8_t coll_kind;
  bool bar_sync;            // W_BAR_WARP: bar.sync (true) or bar.arrive (false)
  bool fresh;               // runnable and not spinning: may still reach an __activemask()
  unsigned spins;           // yields since it last waited
  int bar_id, bar_count;
  int next;                 // barrier waiter list
  uint32_t coll_mask;
  int coll_arg, coll_width;
  uint64_t coll_val;
  uint64_t result;
  void *site;               // __activemask() call site
#if !OMPGPU_EMU_ASM_SWITCH
  ucontext_t uc;
#endif
};

struct Warp {
  uint32_t gone;            // exited or nonexistent lanes
  uint32_t pend;            // lanes arrived at barrier pend_bar, warp not yet counted
  int pend_bar, pend_count;
  uint32_t coll;            // lanes waiting at a warp collective
  uint32_t am;              // lanes waiting at __activemask()
  int nfresh;
  unsigned first;           // linear id of lane 0
};

struct Barrier {
  unsigned gen;
  unsigned arrived;         // threads counted (32 per warp)
  int count;                // -1: idle; 0: all warps; otherwise the count
  uint32_t warps_in;        // warps counted in this generation
  int head, tail;           // bar.sync waiters
  unsigned red_n, red_true; // __syncthreads_count/and/or
};

struct Launch {
  const char *name;
  void (*invoke)(void *);
  void *ctx;
  dim3 grid, block;
  size_t shmem;
  cudaStream_t stream = nullptr;
  const void *invoke_key = nullptr;   // the kernel's address (cudaFuncSetAttribute key)
  unsigned nthreads = 0;
  unsigned long long nblocks = 0;
  unsigned long long next_block = 0;   // __atomic
};

struct Exec {
  Launch *L = nullptr;
  Fiber *fibers = nullptr;   // kMaxThreads of them
  char *region = nullptr;    // fiber stacks with guard pages
  size_t region_size = 0, guard = 0, stack = 0, slot = 0;
  unsigned nstacks = 0;
  Warp warps[kMaxWarps];
  Barrier bars[kNumBarriers];
  int *queue = nullptr;      // ready ring, kMaxThreads entries
  unsigned qhead = 0, qlen = 0;
  void *main_sp = nullptr;
  void *main_lo = nullptr;   // the OS thread's own stack (for AddressSanitizer)
  size_t main_size = 0;
#if !OMPGPU_EMU_ASM_SWITCH
  ucontext_t main_uc;
#endif
  Fiber *cur = nullptr;      // running fiber, null outside a block
  unsigned nthreads = 0, nwarps = 0, nlive = 0;
  uint32_t warps_all = 0, warps_dead = 0;
  uint3 block{0, 0, 0};
  uint64_t ops = 0;
  uint64_t spin_yields = 0;
  char *dyn = nullptr;
  size_t dyn_cap = 0;
  void *altstack = nullptr;
};

inline __thread Exec *t_exec = nullptr;

inline Str fmt_block(uint3 b) { return strf("(%u,%u,%u)", b.x, b.y, b.z); }
inline Str where() {
  Exec *e = t_exec;
  if (!e || !e->cur) return strf("%s", "");
  return strf(" in block %s thread %u of kernel %s", fmt_block(e->block).c_str(), e->cur->lin,
              e->L && e->L->name ? e->L->name : "?");
}

// ----- fault handler: fiber stack overflow, bad accesses inside kernels --------------------
// The user's source line of the faulting instruction, as compute-sanitizer names it: the
// generated device code carries `#line` markers for the user's statements and the emulator
// compiles it with line tables (-g1), so addr2line maps the program counter back. Frames of
// the runtime's own headers (inlined into the kernel) are skipped: the user's statement is
// the nearest enclosing one. Empty when addr2line or the line tables are missing.
inline Str source_of_fault(void *uctx) {
#if defined(__x86_64__)
  const uintptr_t pc = (uintptr_t)((ucontext_t *)uctx)->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
  const uintptr_t pc = (uintptr_t)((ucontext_t *)uctx)->uc_mcontext.pc;
#else
  const uintptr_t pc = 0;
#endif
  Dl_info info;
  if (pc == 0 || dladdr((void *)pc, &info) == 0 || info.dli_fname == nullptr) return strf("%s", "");
  char cmd[1200];
  snprintf(cmd, sizeof cmd, "addr2line -i -e '%s' 0x%lx 2>/dev/null", info.dli_fname,
           (unsigned long)(pc - (uintptr_t)info.dli_fbase));
  FILE *p = popen(cmd, "r");
  if (!p) return strf("%s", "");
  char line[600], best[600] = "";
  while (fgets(line, sizeof line, p)) {
    line[strcspn(line, "\n")] = 0;
    if (line[0] == '?' || strstr(line, ".cuh:") || strstr(line, "cuda_emu.h:") || strstr(line, "/include/")) continue;
    snprintf(best, sizeof best, "%s", line);
    break;
  }
  pclose(p);
  if (!best[0]) return strf("%s", "");
  char *disc = strstr(best, " (discriminator");
  if (disc) *disc = 0;
  return strf("\n  at %s (the statement running when the fault happened)", best);
}

inline struct sigaction &old_segv() { static struct sigaction a; return a; }
inline struct sigaction &old_fpe() { static struct sigaction a; return a; }

inline void fault_handler(int sig, siginfo_t *si, void *uctx) {
  Exec *e = t_exec;
  if (e && e->cur) {
    char *a = (char *)si->si_addr;
    char buf[600];
    int n;
    if (sig == SIGSEGV && e->region && a >= e->region && a < e->region + e->region_size &&
        (size_t)(a - e->region) % e->slot < e->guard) {
      size_t idx = (size_t)(a - e->region) / e->slot;
      n = snprintf(buf, sizeof buf,
                   "ompgpu-emu: stack overflow in block %s thread %zu of kernel %s (fiber stacks are %zu "
                   "bytes; set OMPGPU_EMU_STACK to more)\n",
                   fmt_block(e->block).c_str(), idx, e->L ? e->L->name : "?", e->stack);
    } else if (sig == SIGSEGV) {
      n = snprintf(buf, sizeof buf, "ompgpu-emu: illegal memory access at address %p%s%s\n", (void *)a,
                   where().c_str(), source_of_fault(uctx).c_str());
    } else {
      n = snprintf(buf, sizeof buf, "ompgpu-emu: arithmetic exception (%s)%s%s\n",
                   si->si_code == FPE_INTDIV ? "integer division by zero" : "SIGFPE", where().c_str(),
                   source_of_fault(uctx).c_str());
    }
    if (!claim_report()) {
      for (;;) pause();
    }
    fflush(stdout);
    if (n > 0 && write(2, buf, (size_t)std::min(n, (int)sizeof buf - 1)) < 0) {
    }
    _exit(3);
  }
  // Not ours: hand over to whoever was there before.
  struct sigaction &old = sig == SIGSEGV ? old_segv() : old_fpe();
  if ((old.sa_flags & SA_SIGINFO) && old.sa_sigaction) {
    old.sa_sigaction(sig, si, uctx);
  } else if (old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN) {
    old.sa_handler(sig);
  } else {
    sigaction(sig, &old, nullptr);  // re-executing the faulting instruction ends the process
  }
}

inline void install_fault_handler() {
  static bool once = [] {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = fault_handler;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &old_segv());
    sigaction(SIGFPE, &sa, &old_fpe());
    return true;
  }();
  (void)once;
}

// ----- scheduler ------------------------------------------------------------------------------
inline void fiber_entry();

inline void push_ready(Exec &e, Fiber &f) {
  e.queue[(e.qhead + e.qlen) % kMaxThreads] = (int)f.lin;
  e.qlen++;
}

inline char *fiber_stack_lo(Exec &e, const Fiber &f) { return e.region + f.lin * e.slot + e.guard; }

// Tell AddressSanitizer (when compiled with -fsanitize=address) which stack runs next.
struct AsanSwitch {
#if OMPGPU_EMU_ASAN
  void *fake = nullptr;
  AsanSwitch(bool dying, const void *bottom, size_t size) {
    __sanitizer_start_switch_fiber(dying ? nullptr : &fake, bottom, size);
  }
  ~AsanSwitch() { __sanitizer_finish_switch_fiber(fake, nullptr, nullptr); }
#else
  AsanSwitch(bool, const void *, size_t) {}
#endif
};

// The running fiber gives up the CPU (it must already be queued again, or be waiting or
// exited). Returns when some other fiber resumes it.
inline void switch_away(Exec &e) {
  Fiber *self = e.cur;
  if (e.qlen) {
    Fiber *n = &e.fibers[e.queue[e.qhead]];
    e.qhead = (e.qhead + 1) % kMaxThreads;
    e.qlen--;
    if (n == self) return;
    e.cur = n;
    threadIdx = n->tid;
    AsanSwitch as(self->wait == W_EXITED, fiber_stack_lo(e, *n), e.stack);
#if OMPGPU_EMU_ASM_SWITCH
    ctx_switch(&self->sp, n->sp);
#else
    swapcontext(&self->uc, &n->uc);
#endif
  } else {
    AsanSwitch as(self->wait == W_EXITED, e.main_lo, e.main_size);
#if OMPGPU_EMU_ASM_SWITCH
    ctx_switch(&self->sp, e.main_sp);
#else
    swapcontext(&self->uc, &e.main_uc);
#endif
  }
  // Other fibers ran: nothing the compiler kept in registers about memory (shared or
  // global variables, threadIdx) is still valid.
  __asm__ __volatile__("" ::: "memory");
}

inline void wake(Exec &e, Fiber &f) {
  f.wait = W_NONE;
  f.spins = 0;
  if (!f.fresh) {
    f.fresh = true;
    e.warps[f.warp].nfresh++;
  }
  if (&f != e.cur) push_ready(e, f);
}

// Every lane of warp w that could still reach __activemask() is waiting or spinning:
// release the lanes waiting there, grouped by call site.
inline void resolve_activemask(Exec &e, Warp &w) {
  uint32_t am = w.am;
  w.am = 0;
  while (am) {
    int l = __builtin_ctz(am);
    void *site = e.fibers[w.first + l].site;
    uint32_t group = 0;
    for (uint32_t m = am; m; m &= m - 1) {
      int k = __builtin_ctz(m);
      if (e.fibers[w.first + k].site == site) group |= 1u << k;
    }
    am &= ~group;
    for (uint32_t m = group; m; m &= m - 1) {
      Fiber &g = e.fibers[w.first + __builtin_ctz(m)];
      g.result = group;
      wake(e, g);
    }
  }
}

inline void unfresh(Exec &e, Fiber &f) {
  if (f.fresh) {
    f.fresh = false;
    Warp &w = e.warps[f.warp];
    w.nfresh--;
  }
}

// The running fiber set f.wait; wait until someone wakes it.
inline void block_current(Exec &e) {
  Fiber &f = *e.cur;
  if (f.wait == W_NONE) return;
  unfresh(e, f);
  Warp &w = e.warps[f.warp];
  if (w.nfresh == 0 && w.am) resolve_activemask(e, w);
  if (f.wait != W_NONE) switch_away(e);
}

[[noreturn]] inline void livelock_report(Exec &e);

inline void yield_current(Exec &e, bool spin) {
  Fiber &f = *e.cur;
  if (spin && ++e.spin_yields > config().spin_limit && config().threads == 1) livelock_report(e);
  if (++f.spins >= 2 && f.fresh) {
    unfresh(e, f);
    Warp &w = e.warps[f.warp];
    if (w.nfresh == 0 && w.am) resolve_activemask(e, w);
  }
  push_ready(e, f);
  switch_away(e);
}

inline Exec &in_kernel(const char *what) {
  Exec *e = t_exec;
  if (!e || !e->cur) fatal("%s called outside a kernel", what);
  return *e;
}

// Whether p lies on a fiber stack of the running block: the emulator's local memory.
inline bool is_local_address(const void *p) {
  Exec *e = t_exec;
  const char *a = (const char *)p;
  return e && e->cur && e->region && a >= e->region && a < e->region + e->region_size;
}

// Hardware atomics on local memory trap on the GPU ("unspecified launch failure"); the
// emulator reports them instead of quietly succeeding.
inline void check_atomic_address(const void *p) {
  if (is_local_address(p))
    fatal("atomic operation on local memory (a thread's stack variable) at %p: this traps on the GPU", p);
}

// Atomics and friends call this after the operation. `changed` is false when the operation
// left memory as it was (a failed CAS, an exchange with the same value, an add of 0...):
// such an operation is most likely a poll in a spin loop, so it always yields. The others
// yield every 32nd time.
inline void atomic_hook(bool changed) {
  Exec *e = t_exec;
  if (!e || !e->cur) return;
  if (changed) {
    e->spin_yields = 0;
    if ((++e->ops & 31) == 0) yield_current(*e, false);
  } else {
    yield_current(*e, true);
  }
}
inline void poll_hook() {
  Exec *e = t_exec;
  if (!e || !e->cur) return;
  if ((++e->ops & 31) == 0) yield_current(*e, false);
}

// ----- barriers -------------------------------------------------------------------------------
inline void check_barrier(Exec &e, int id) {
  Barrier &b = e.bars[id];
  if (b.count < 0) return;
  bool done = b.count == 0 ? ((b.warps_in | e.warps_dead) == e.warps_all) : (b.arrived >= (unsigned)b.count);
  if (!done) return;
  uint64_t red = ((uint64_t)b.red_n << 32) | b.red_true;
  int i = b.head;
  b.head = b.tail = -1;
  b.arrived = 0;
  b.count = -1;
  b.warps_in = 0;
  b.red_n = b.red_true = 0;
  b.gen++;
  while (i >= 0) {
    Fiber &g = e.fibers[i];
    int nx = g.next;
    g.result = red;
    wake(e, g);
    i = nx;
  }
}

inline Str warps_with_count(Exec &e, int id) {
  Str r;
  size_t n = 0;
  r.s[0] = 0;
  for (unsigned w = 0; w < e.nwarps && n + 8 < sizeof r.s; w++)
    if (e.bars[id].warps_in & (1u << w)) n += (size_t)snprintf(r.s + n, sizeof r.s - n, n ? ",%u" : "%u", w);
  return r;
}

// All non-exited lanes of warp wi arrived at its pending barrier: the warp counts 32.
inline void warp_arrive(Exec &e, unsigned wi) {
  Warp &w = e.warps[wi];
  int id = w.pend_bar, count = w.pend_count;
  uint32_t lanes = w.pend;
  w.pend = 0;
  Barrier &b = e.bars[id];
  if (b.count < 0) {
    b.count = count;
  } else if (b.count != count) {
    fatal("barrier %d used with different thread counts in one generation: count %d by warp(s) %s, count %d "
          "by warp %u (block %s of kernel %s)",
          id, b.count, warps_with_count(e, id).c_str(), count, wi, fmt_block(e.block).c_str(), e.L->name);
  }
  if (b.warps_in & (1u << wi))
    fatal("warp %u arrived twice at barrier %d before the barrier completed (bar.arrive followed by another "
          "arrival in the same generation; block %s of kernel %s)",
          wi, id, fmt_block(e.block).c_str(), e.L->name);
  b.warps_in |= 1u << wi;
  b.arrived += 32;
  for (uint32_t m = lanes; m; m &= m - 1) {
    Fiber &g = e.fibers[w.first + __builtin_ctz(m)];
    if (g.bar_sync) {
      g.wait = W_BAR;
      g.next = -1;
      if (b.tail >= 0)
        e.fibers[b.tail].next = (int)g.lin;
      else
        b.head = (int)g.lin;
      b.tail = (int)g.lin;
    } else {
      wake(e, g);
    }
  }
  check_barrier(e, id);
}

inline void bar_op(int id, int count, bool sync, int pred) {
  Exec &e = in_kernel(sync ? "bar.sync" : "bar.arrive");
  Fiber &f = *e.cur;
  Warp &w = e.warps[f.warp];
  if (id < 0 || id >= kNumBarriers)
    fatal("barrier id %d out of range 0..15%s", id, where().c_str());
  if (count < 0 || count % 32 != 0)
    fatal("barrier %d: thread count %d is not a multiple of the warp size 32%s", id, count, where().c_str());
  if ((unsigned)count > e.nwarps * 32)
    fatal("barrier %d: thread count %d exceeds the block's %u warps (%u threads)%s", id, count, e.nwarps,
          e.nthreads, where().c_str());
  if (!sync && count == 0)
    fatal("bar.arrive on barrier %d needs a thread count%s", id, where().c_str());
  e.spin_yields = 0;
  if (w.pend) {
    if (w.pend_bar != id) {
      uint32_t m = w.pend;
      int lo = __builtin_ctz(m), hi = 31 - __builtin_clz(m);
      fatal("warp %u split across barriers: thread %u arrives at barrier %d while threads %u-%u of its warp "
            "wait at barrier %d (block %s of kernel %s)",
            f.warp, f.lin, id, w.first + lo, w.first + hi, w.pend_bar, fmt_block(e.block).c_str(), e.L->name);
    }
    if (w.pend_count != count)
      fatal("barrier %d used with different thread counts in one generation: thread %u uses count %d, other "
            "threads of warp %u use %d (block %s of kernel %s)",
            id, f.lin, count, f.warp, w.pend_count, fmt_block(e.block).c_str(), e.L->name);
  } else {
    w.pend_bar = id;
    w.pend_count = count;
  }
  w.pend |= 1u << f.lane;
  f.wait = W_BAR_WARP;
  f.bar_sync = sync;
  f.bar_id = id;
  f.bar_count = count;
  if (pred >= 0) {
    e.bars[id].red_n++;
    e.bars[id].red_true += pred ? 1 : 0;
  }
  if ((w.pend | w.gone) == 0xffffffffu) warp_arrive(e, f.warp);
  block_current(e);
}

// ----- warp collectives -----------------------------------------------------------------------
inline int seg_src(int kind, int lane, int arg, int width) {
  int seg = lane & ~(width - 1);
  switch (kind) {
    case C_SHFL: return seg + (arg & (width - 1));
    case C_SHFL_UP: return (lane - seg) < arg ? -1 : lane - arg;
    case C_SHFL_DOWN: return (lane - seg) + arg >= width ? -1 : lane + arg;
    case C_SHFL_XOR: {
      int s = lane ^ arg;
      return (s >= seg + width || s > 31) ? -1 : s;
    }
  }
  return -1;
}

inline bool try_collective(Exec &e, unsigned wi, uint32_t mask) {
  Warp &w = e.warps[wi];
  uint32_t need = mask & ~w.gone;
  if (!need || (need & ~w.coll)) return false;
  Fiber *lf[32];
  for (uint32_t m = need; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    lf[l] = &e.fibers[w.first + l];
    if (lf[l]->coll_mask != mask) return false;
  }
  int k = lf[__builtin_ctz(need)]->coll_kind;
  for (uint32_t m = need; m; m &= m - 1) {
    int l = __builtin_ctz(m);
    if (lf[l]->coll_kind != k)
      fatal("lanes of warp %u meet at different warp collectives with mask 0x%08x: thread %u at %s, thread %u "
            "at %s (block %s of kernel %s)",
            wi, mask, lf[__builtin_ctz(need)]->lin, coll_name(k), lf[l]->lin, coll_name(lf[l]->coll_kind),
            fmt_block(e.block).c_str(), e.L->name);
  }
  uint64_t acc = 0;
  switch (k) {
    case C_BALLOT: case C_ANY: case C_ALL:
      for (uint32_t m = need; m; m &= m - 1)
        if (lf[__builtin_ctz(m)]->coll_val) acc |= 1u << __builtin_ctz(m);
      for (uint32_t m = need; m; m &= m - 1)
        lf[__builtin_ctz(m)]->result = k == C_BALLOT ? acc : k == C_ANY ? (acc != 0) : (acc == need);
      break;
    case C_SHFL: case C_SHFL_UP: case C_SHFL_DOWN: case C_SHFL_XOR:
      for (uint32_t m = need; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        int s = seg_src(k, l, lf[l]->coll_arg, lf[l]->coll_width);
        lf[l]->result = s < 0 ? lf[l]->coll_val : (need >> s) & 1 ? lf[s]->coll_val : kPoison;
      }
      break;
    case C_MATCH_ANY: case C_MATCH_ALL: {
      bool all = true;
      uint64_t v0 = lf[__builtin_ctz(need)]->coll_val;
      for (uint32_t m = need; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        uint32_t eq = 0;
        for (uint32_t n = need; n; n &= n - 1)
          if (lf[__builtin_ctz(n)]->coll_val == lf[l]->coll_val) eq |= 1u << __builtin_ctz(n);
        lf[l]->result = eq;
        if (lf[l]->coll_val != v0) all = false;
      }
      if (k == C_MATCH_ALL)
        for (uint32_t m = need; m; m &= m - 1) lf[__builtin_ctz(m)]->result = all ? (need | (1ull << 32)) : 0;
      break;
    }
    case C_RED_ADD: case C_RED_MIN: case C_RED_MAX: case C_RED_AND: case C_RED_OR: case C_RED_XOR: {
      bool sgn = lf[__builtin_ctz(need)]->coll_arg != 0;
      uint32_t r = (uint32_t)lf[__builtin_ctz(need)]->coll_val;
      for (uint32_t m = need & (need - 1); m; m &= m - 1) {
        uint32_t v = (uint32_t)lf[__builtin_ctz(m)]->coll_val;
        switch (k) {
          case C_RED_ADD: r += v; break;
          case C_RED_MIN: r = sgn ? (uint32_t)std::min((int32_t)r, (int32_t)v) : std::min(r, v); break;
          case C_RED_MAX: r = sgn ? (uint32_t)std::max((int32_t)r, (int32_t)v) : std::max(r, v); break;
          case C_RED_AND: r &= v; break;
          case C_RED_OR: r |= v; break;
          default: r ^= v; break;
        }
      }
      for (uint32_t m = need; m; m &= m - 1) lf[__builtin_ctz(m)]->result = r;
      break;
    }
    default:
      for (uint32_t m = need; m; m &= m - 1) lf[__builtin_ctz(m)]->result = 0;
  }
  w.coll &= ~need;
  for (uint32_t m = need; m; m &= m - 1) wake(e, *lf[__builtin_ctz(m)]);
  return true;
}

inline uint64_t collective(int kind, uint32_t mask, uint64_t val, int arg = 0, int width = 32) {
  Exec &e = in_kernel(coll_name(kind));
  Fiber &f = *e.cur;
  if (!(mask & (1u << f.lane)))
    fatal("%s: mask 0x%08x does not include the calling lane %u%s", coll_name(kind), mask, f.lane,
          where().c_str());
  if (width < 1 || width > 32 || (width & (width - 1)))
    fatal("%s: width %d is not a power of 2 in 1..32%s", coll_name(kind), width, where().c_str());
  e.spin_yields = 0;
  Warp &w = e.warps[f.warp];
  f.coll_kind = (uint8_t)kind;
  f.coll_mask = mask;
  f.coll_val = val;
  f.coll_arg = arg;
  f.coll_width = width;
  f.wait = W_COLL;
  w.coll |= 1u << f.lane;
  try_collective(e, f.warp, mask);
  block_current(e);
  return f.result;
}

// ----- exit -----------------------------------------------------------------------------------
[[noreturn]] inline void fiber_exit() {
  Exec &e = *t_exec;
  Fiber &f = *e.cur;
  Warp &w = e.warps[f.warp];
  unfresh(e, f);
  f.wait = W_EXITED;
  w.gone |= 1u << f.lane;
  e.nlive--;
  e.spin_yields = 0;
  if (w.gone == 0xffffffffu) {
    e.warps_dead |= 1u << f.warp;
    for (int id = 0; id < kNumBarriers; id++)
      if (e.bars[id].count == 0) check_barrier(e, id);
  }
  if (w.pend && (w.pend | w.gone) == 0xffffffffu) warp_arrive(e, f.warp);
  for (uint32_t m = w.coll; m;) {
    uint32_t mask = e.fibers[w.first + __builtin_ctz(m)].coll_mask;
    if (!try_collective(e, f.warp, mask)) m &= m - 1;
    m &= w.coll;
  }
  if (w.nfresh == 0 && w.am) resolve_activemask(e, w);
  switch_away(e);
  __builtin_unreachable();
}

inline void fiber_entry() {
#if OMPGPU_EMU_ASAN
  __sanitizer_finish_switch_fiber(nullptr, nullptr, nullptr);
#endif
  Exec *e = t_exec;
  e->L->invoke(e->L->ctx);
  fiber_exit();
}

// ----- reports of a stuck block ---------------------------------------------------------------
inline Str wait_text(Fiber &f) {
  switch (f.wait) {
    case W_BAR_WARP:
    case W_BAR: {
      const char *tail = f.wait == W_BAR_WARP ? " for the other lanes of their warp" : "";
      const char *op = f.bar_sync ? "" : " (bar.arrive)";
      if (f.bar_count == 0 && f.bar_id == 0) return strf("wait at __syncthreads (barrier 0)%s", tail);
      if (f.bar_count == 0) return strf("wait at barrier %d%s (all threads)%s", f.bar_id, op, tail);
      return strf("wait at barrier %d%s (count %d)%s", f.bar_id, op, f.bar_count, tail);
    }
    case W_COLL: return strf("wait at %s (mask 0x%08x)", coll_name(f.coll_kind), f.coll_mask);
    case W_AMASK: return strf("wait at __activemask()");
    case W_EXITED: return strf("exited");
    default: return strf("spin (runnable)");
  }
}

inline Str range_text(unsigned lo, unsigned hi) {
  unsigned wl = lo / 32, wh = hi / 32;
  if (lo == hi) return strf("thread %u (warp %u)", lo, wl);
  if (wl == wh) return strf("threads %u-%u (warp %u)", lo, hi, wl);
  return strf("threads %u-%u (warps %u-%u)", lo, hi, wl, wh);
}

// One line per run of consecutive threads that wait at the same place.
inline void print_groups(Exec &e, bool with_exited) {
  unsigned i = 0;
  while (i < e.nthreads) {
    Str t = wait_text(e.fibers[i]);
    unsigned j = i;
    while (j + 1 < e.nthreads && strcmp(wait_text(e.fibers[j + 1]).s, t.s) == 0) j++;
    if (with_exited || e.fibers[i].wait != W_EXITED) fprintf(stderr, "  %s %s\n", range_text(i, j).c_str(), t.c_str());
    i = j + 1;
  }
}

inline Str deadlock_headline(Exec &e) {
  for (int id = 0; id < kNumBarriers; id++) {
    bool waited = false;
    for (unsigned i = 0; i < e.nthreads; i++)
      if ((e.fibers[i].wait == W_BAR || e.fibers[i].wait == W_BAR_WARP) && e.fibers[i].bar_id == id) waited = true;
    if (!waited) continue;
    Barrier &b = e.bars[id];
    if (b.count == 0) {
      unsigned live = (unsigned)__builtin_popcount(e.warps_all & ~e.warps_dead);
      return strf("barrier %d expects all %u threads (%u warps not exited), %u arrived", id, live * 32, live,
                  b.arrived);
    }
    if (b.count > 0) return strf("barrier %d expects %d threads, %u arrived", id, b.count, b.arrived);
    for (unsigned wi = 0; wi < e.nwarps; wi++) {
      Warp &w = e.warps[wi];
      if (w.pend && w.pend_bar == id) {
        uint32_t missing = ~(w.pend | w.gone);
        return strf("barrier %d: warp %u cannot arrive, %d of its lanes are elsewhere (first: thread %u)", id, wi,
                    __builtin_popcount(missing), w.first + __builtin_ctz(missing));
      }
    }
  }
  for (unsigned i = 0; i < e.nthreads; i++) {
    Fiber &f = e.fibers[i];
    if (f.wait != W_COLL) continue;
    Warp &w = e.warps[f.warp];
    uint32_t missing = f.coll_mask & ~w.gone & ~w.coll;
    if (missing)
      return strf("%s in warp %u (mask 0x%08x) waits for lanes 0x%08x", coll_name(f.coll_kind), f.warp, f.coll_mask,
                  missing);
    return strf("%s in warp %u (mask 0x%08x): lanes of the mask wait at collectives with other masks",
                coll_name(f.coll_kind), f.warp, f.coll_mask);
  }
  return strf("no thread can continue");
}

[[noreturn]] inline void deadlock_report(Exec &e) {
  begin_report();
  fprintf(stderr, "ompgpu-emu: deadlock in block %s of kernel %s: %s\n", fmt_block(e.block).c_str(), e.L->name,
          deadlock_headline(e).c_str());
  print_groups(e, true);
  end_report();
}

[[noreturn]] inline void livelock_report(Exec &e) {
  begin_report();
  fprintf(stderr,
          "ompgpu-emu: livelock in block %s of kernel %s: %llu polls (atomics that change nothing, "
          "__nanosleep) in a row without progress: the spinning threads wait for something no thread of the "
          "block will do (blocks run one after another: waiting for a later block never ends)\n",
          fmt_block(e.block).c_str(), e.L->name, (unsigned long long)e.spin_yields);
  print_groups(e, false);
  end_report();
}

// ----- running blocks -------------------------------------------------------------------------
inline void prepare_exec(Exec &e) {
  if (e.fibers) return;
  e.fibers = new Fiber[kMaxThreads]();
  e.queue = new int[kMaxThreads];
  size_t pg = (size_t)sysconf(_SC_PAGESIZE);
  e.stack = config().stack;
  e.guard = std::max(pg, (size_t)16384);
  e.slot = e.stack + e.guard;
  // Signals on the OS thread go to their own stack, so a fiber stack overflow is reported.
  size_t alt = std::max((size_t)65536, (size_t)SIGSTKSZ);
  e.altstack = malloc(alt);
  stack_t ss;
  memset(&ss, 0, sizeof ss);
  ss.ss_sp = e.altstack;
  ss.ss_size = alt;
  sigaltstack(&ss, nullptr);
  pthread_attr_t at;
  if (pthread_getattr_np(pthread_self(), &at) == 0) {
    pthread_attr_getstack(&at, &e.main_lo, &e.main_size);
    pthread_attr_destroy(&at);
  }
#if !OMPGPU_EMU_ASAN
  install_fault_handler();  // AddressSanitizer reports faults (and stack overflows) itself
#endif
}

// Address space for kMaxThreads fiber stacks is reserved once per OS thread (pages are
// only backed when touched); guard pages are set up as more threads are needed.
inline void ensure_stacks(Exec &e, unsigned n) {
  if (!e.region) {
    size_t size = e.slot * kMaxThreads;
    void *p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) fatal("cannot map %zu bytes for fiber stacks (%u x %zu bytes)", size, kMaxThreads, e.slot);
    e.region = (char *)p;
    e.region_size = size;
  }
  for (; e.nstacks < n; e.nstacks++) mprotect(e.region + e.nstacks * e.slot, e.guard, PROT_NONE);
}

inline void init_fiber_stack(Exec &e, Fiber &f) {
  char *lo = fiber_stack_lo(e, f);
#if OMPGPU_EMU_ASM_SWITCH
  uintptr_t top = ((uintptr_t)(lo + e.stack)) & ~(uintptr_t)15;
  uint64_t *sp = (uint64_t *)(top - 80);
  uint32_t *ctl = (uint32_t *)sp;
  ctl[0] = 0;
  ctl[1] = 0;
  ctl[2] = 0x1f80;   // MXCSR: all exceptions masked, round to nearest
  ctl[3] = 0x037f;   // x87 control word
  for (int i = 2; i < 8; i++) sp[i] = 0;  // r15 r14 r13 r12 rbx rbp
  sp[8] = (uint64_t)(uintptr_t)&fiber_entry;
  sp[9] = 0;
  f.sp = sp;
#else
  getcontext(&f.uc);
  f.uc.uc_stack.ss_sp = lo;
  f.uc.uc_stack.ss_size = e.stack;
  f.uc.uc_link = nullptr;
  makecontext(&f.uc, (void (*)())fiber_entry, 0);
#endif
}

inline void run_block(Exec &e, unsigned long long b) {
  Launch &L = *e.L;
  e.block.x = (unsigned)(b % L.grid.x);
  e.block.y = (unsigned)((b / L.grid.x) % L.grid.y);
  e.block.z = (unsigned)(b / ((unsigned long long)L.grid.x * L.grid.y));
  blockIdx = e.block;
  unsigned n = L.nthreads;
  for (unsigned wi = 0; wi < e.nwarps; wi++) {
    Warp &w = e.warps[wi];
    unsigned lanes = std::min(32u, n - wi * 32);
    w.gone = lanes == 32 ? 0 : ~((1u << lanes) - 1);
    w.pend = w.coll = w.am = 0;
    w.pend_bar = -1;
    w.pend_count = 0;
    w.nfresh = (int)lanes;
    w.first = wi * 32;
  }
  for (int id = 0; id < kNumBarriers; id++) {
    Barrier &br = e.bars[id];
    br.arrived = 0;
    br.count = -1;
    br.warps_in = 0;
    br.head = br.tail = -1;
    br.red_n = br.red_true = 0;
  }
  e.warps_dead = 0;
  e.qhead = 0;
  e.qlen = 0;
  unsigned bx = L.block.x, bxy = L.block.x * L.block.y;
  for (unsigned i = 0; i < n; i++) {
    Fiber &f = e.fibers[i];
    f.lin = i;
    f.tid = uint3{i % bx, (i / bx) % L.block.y, i / bxy};
    f.warp = i / 32;
    f.lane = i % 32;
    f.wait = W_NONE;
    f.fresh = true;
    f.spins = 0;
    f.bar_id = -1;
    f.bar_count = 0;
    f.next = -1;
    init_fiber_stack(e, f);
    push_ready(e, f);
  }
  e.nlive = n;
  e.spin_yields = 0;
  Fiber *first = &e.fibers[e.queue[e.qhead]];
  e.qhead = (e.qhead + 1) % kMaxThreads;
  e.qlen--;
  e.cur = first;
  threadIdx = first->tid;
  {
    AsanSwitch as(false, fiber_stack_lo(e, *first), e.stack);
#if OMPGPU_EMU_ASM_SWITCH
    ctx_switch(&e.main_sp, first->sp);
#else
    swapcontext(&e.main_uc, &first->uc);
#endif
  }
  if (e.nlive) deadlock_report(e);
  e.cur = nullptr;
  threadIdx = uint3{0, 0, 0};
}

inline void run_blocks(Launch &L) {
  if (!t_exec) t_exec = new Exec();
  Exec &e = *t_exec;
  prepare_exec(e);
  ensure_stacks(e, L.nthreads);
  // Dynamic shared memory: one buffer per OS thread, reused by its blocks (uninitialized,
  // as on a GPU). Exactly the launch's size under AddressSanitizer, which then catches
  // accesses past its end.
  if (e.dyn_cap < L.shmem || !e.dyn || (OMPGPU_EMU_ASAN && e.dyn_cap != L.shmem)) {
    free(e.dyn);
    e.dyn_cap = OMPGPU_EMU_ASAN ? L.shmem : std::max(L.shmem, (size_t)256);
    void *p = nullptr;
    if (posix_memalign(&p, 256, std::max(e.dyn_cap, (size_t)1)) != 0 || !p)
      fatal("out of host memory for dynamic shared memory");
    e.dyn = (char *)p;
  }
  e.L = &L;
  e.nthreads = L.nthreads;
  e.nwarps = (L.nthreads + 31) / 32;
  e.warps_all = e.nwarps == 32 ? 0xffffffffu : ((1u << e.nwarps) - 1);
  blockDim = L.block;
  gridDim = L.grid;
  for (;;) {
    unsigned long long b = __atomic_fetch_add(&L.next_block, 1ull, __ATOMIC_RELAXED);
    if (b >= L.nblocks) break;
    run_block(e, b);
  }
  e.L = nullptr;
}

// ----- OS-thread pool for OMPGPU_EMU_THREADS > 1 ----------------------------------------------
struct Pool {
  Mutex mu;
  pthread_cond_t cv = PTHREAD_COND_INITIALIZER, done = PTHREAD_COND_INITIALIZER;
  Launch *job = nullptr;
  unsigned long long gen = 0;
  int want = 0;     // workers that take part in the current job
  int busy = 0;
  int started = 0;
};
inline Pool &pool() {
  static Pool *p = new Pool();  // never destroyed: workers outlive static destructors
  return *p;
}
inline void *pool_worker(void *arg) {
  Pool &p = pool();
  int index = (int)(intptr_t)arg;
  unsigned long long seen = 0;
  for (;;) {
    p.mu.lock();
    while (!(p.gen != seen && index < p.want)) pthread_cond_wait(&p.cv, &p.mu.m);
    seen = p.gen;
    Launch *j = p.job;
    p.mu.unlock();
    run_blocks(*j);
    p.mu.lock();
    if (--p.busy == 0) pthread_cond_broadcast(&p.done);
    p.mu.unlock();
  }
  return nullptr;
}
inline void pool_run(Launch &L, int workers) {
  Pool &p = pool();
  p.mu.lock();
  while (p.started < workers) start_detached(pool_worker, (void *)(intptr_t)p.started++);
  p.job = &L;
  p.want = workers;
  p.busy = workers;
  p.gen++;
  pthread_cond_broadcast(&p.cv);
  p.mu.unlock();
  run_blocks(L);
  p.mu.lock();
  while (p.busy) pthread_cond_wait(&p.done, &p.mu.m);
  p.job = nullptr;
  p.mu.unlock();
}

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

inline void *watchdog(void *) {
  for (;;) {
    struct timespec ts = {0, 100 * 1000 * 1000};
    nanosleep(&ts, nullptr);
    unsigned long long st = __atomic_load_n(&state().launch_start_ns, __ATOMIC_RELAXED);
    if (st && now_ns() - st > (unsigned long long)config().timeout_s * 1000000000ull)
      fatal("kernel %s did not finish within OMPGPU_EMU_TIMEOUT=%ld s (threads spinning on plain memory "
            "without yield points, or waiting for another block?)",
            state().launch_name ? state().launch_name : "?", config().timeout_s);
  }
  return nullptr;
}
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
  int workers = (int)std::min<unsigned long long>((unsigned long long)c.threads, L.nblocks) - 1;
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
inline void launch_kernel(const char *name, void (*fn)(P...), dim3 grid, dim3 block, size_t shmem, cudaStream_t stream,
                          A &&...args) {
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
  launch(L);
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

#define OMPGPU_LAUNCH_KERNEL(kernel, grid, block, shmem, stream, ...) \
  ::ompgpu_emu::launch_kernel(#kernel, kernel, (grid), (block), (shmem), (cudaStream_t)(stream), ##__VA_ARGS__)
#define OMPGPU_DYNAMIC_SHARED() (::ompgpu_emu::dynamic_shared())

// ---------------------------------------------------------------------------------------
// Device functions
// ---------------------------------------------------------------------------------------
[[noreturn]] __attribute__((format(printf, 1, 2))) inline void ompgpu_emu_fail(const char *fmt, ...) {
  ompgpu_emu::begin_report();
  char buf[2048];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  size_t n = strlen(buf);
  while (n && buf[n - 1] == '\n') buf[--n] = 0;
  fprintf(stderr, "ompgpu-emu: %s\n", buf);
  ompgpu_emu::Str w = ompgpu_emu::where();
  if (w.s[0]) fprintf(stderr, "ompgpu-emu:  (%s)\n", w.s + 1);
  ompgpu_emu::end_report();
}

// PTX `exit`: ends the calling thread at once, from any call depth (its stack is dropped
// without running destructors). Barriers and warp collectives count it as exited.
[[noreturn]] inline void ompgpu_emu_thread_exit() {
  ompgpu_emu::in_kernel("ompgpu_emu_thread_exit");
  ompgpu_emu::fiber_exit();
}

inline void ompgpu_emu_bar_sync(int id, int count) { ompgpu_emu::bar_op(id, count, true, -1); }
inline void ompgpu_emu_bar_arrive(int id, int count) { ompgpu_emu::bar_op(id, count, false, -1); }

inline void __syncthreads() { ompgpu_emu::bar_op(0, 0, true, -1); }
inline int __syncthreads_count(int pred) {
  ompgpu_emu::bar_op(0, 0, true, pred ? 1 : 0);
  return (int)(uint32_t)ompgpu_emu::t_exec->cur->result;
}
inline int __syncthreads_and(int pred) {
  ompgpu_emu::bar_op(0, 0, true, pred ? 1 : 0);
  uint64_t r = ompgpu_emu::t_exec->cur->result;
  return (uint32_t)r == (uint32_t)(r >> 32);
}
inline int __syncthreads_or(int pred) {
  ompgpu_emu::bar_op(0, 0, true, pred ? 1 : 0);
  return (uint32_t)ompgpu_emu::t_exec->cur->result != 0;
}

[[noreturn]] inline void __trap() {
  ompgpu_emu::Exec *e = ompgpu_emu::t_exec;
  if (e && e->cur)
    ompgpu_emu::fatal("trap in block %s thread %u of kernel %s", ompgpu_emu::fmt_block(e->block).c_str(), e->cur->lin,
                      e->L->name);
  ompgpu_emu::fatal("trap outside a kernel");
}
[[noreturn]] inline void __brkpt() { __trap(); }

inline void __syncwarp(unsigned mask = 0xffffffffu) { ompgpu_emu::collective(ompgpu_emu::C_SYNCWARP, mask, 0); }
inline unsigned __ballot_sync(unsigned mask, int pred) {
  return (unsigned)ompgpu_emu::collective(ompgpu_emu::C_BALLOT, mask, pred != 0);
}
inline int __any_sync(unsigned mask, int pred) { return (int)ompgpu_emu::collective(ompgpu_emu::C_ANY, mask, pred != 0); }
inline int __all_sync(unsigned mask, int pred) { return (int)ompgpu_emu::collective(ompgpu_emu::C_ALL, mask, pred != 0); }
inline int __uni_sync(unsigned mask, int pred) {
  unsigned b = __ballot_sync(mask, pred);
  return b == 0 || b == (mask & ~ompgpu_emu::t_exec->warps[ompgpu_emu::t_exec->cur->warp].gone);
}

// __activemask(): waits until every other lane of the warp waits somewhere (or spins),
// then returns the lanes waiting at this same call site. A call site is the textual
// occurrence (__COUNTER__, so the optimizer cannot merge the calls of two branches) plus
// the return address (tells inlined copies apart).
__attribute__((noinline)) inline unsigned ompgpu_emu_activemask(int site) {
  ompgpu_emu::Exec &e = ompgpu_emu::in_kernel("__activemask");
  ompgpu_emu::Fiber &f = *e.cur;
  f.site = (void *)((uintptr_t)__builtin_return_address(0) ^ ((uintptr_t)(unsigned)site << 48));
  f.wait = ompgpu_emu::W_AMASK;
  e.warps[f.warp].am |= 1u << f.lane;
  ompgpu_emu::block_current(e);
  return (unsigned)f.result;
}

#define OMPGPU_EMU_SHFL(T)                                                                                     \
  inline T __shfl_sync(unsigned mask, T var, int srcLane, int width = warpSize) {                              \
    return ompgpu_emu::from_bits<T>(                                                                           \
        ompgpu_emu::collective(ompgpu_emu::C_SHFL, mask, ompgpu_emu::to_bits(var), srcLane, width));           \
  }                                                                                                            \
  inline T __shfl_up_sync(unsigned mask, T var, unsigned int delta, int width = warpSize) {                    \
    return ompgpu_emu::from_bits<T>(ompgpu_emu::collective(ompgpu_emu::C_SHFL_UP, mask,                        \
                                                           ompgpu_emu::to_bits(var), (int)std::min(delta, 64u), width)); \
  }                                                                                                            \
  inline T __shfl_down_sync(unsigned mask, T var, unsigned int delta, int width = warpSize) {                  \
    return ompgpu_emu::from_bits<T>(ompgpu_emu::collective(ompgpu_emu::C_SHFL_DOWN, mask,                      \
                                                           ompgpu_emu::to_bits(var), (int)std::min(delta, 64u), width)); \
  }                                                                                                            \
  inline T __shfl_xor_sync(unsigned mask, T var, int laneMask, int width = warpSize) {                         \
    return ompgpu_emu::from_bits<T>(                                                                           \
        ompgpu_emu::collective(ompgpu_emu::C_SHFL_XOR, mask, ompgpu_emu::to_bits(var), laneMask, width));      \
  }
OMPGPU_EMU_SHFL(int)
OMPGPU_EMU_SHFL(unsigned int)
OMPGPU_EMU_SHFL(long)
OMPGPU_EMU_SHFL(unsigned long)
OMPGPU_EMU_SHFL(long long)
OMPGPU_EMU_SHFL(unsigned long long)
OMPGPU_EMU_SHFL(float)
OMPGPU_EMU_SHFL(double)
#undef OMPGPU_EMU_SHFL

#define OMPGPU_EMU_MATCH(T)                                                                                   \
  inline unsigned __match_any_sync(unsigned mask, T value) {                                                  \
    return (unsigned)ompgpu_emu::collective(ompgpu_emu::C_MATCH_ANY, mask, ompgpu_emu::to_bits(value));       \
  }                                                                                                           \
  inline unsigned __match_all_sync(unsigned mask, T value, int *pred) {                                       \
    uint64_t r = ompgpu_emu::collective(ompgpu_emu::C_MATCH_ALL, mask, ompgpu_emu::to_bits(value));           \
    *pred = (int)(r >> 32);                                                                                   \
    return (unsigned)r;                                                                                       \
  }
OMPGPU_EMU_MATCH(int)
OMPGPU_EMU_MATCH(unsigned int)
OMPGPU_EMU_MATCH(long)
OMPGPU_EMU_MATCH(unsigned long)
OMPGPU_EMU_MATCH(long long)
OMPGPU_EMU_MATCH(unsigned long long)
OMPGPU_EMU_MATCH(float)
OMPGPU_EMU_MATCH(double)
#undef OMPGPU_EMU_MATCH

inline unsigned __reduce_add_sync(unsigned mask, unsigned v) { return (unsigned)ompgpu_emu::collective(ompgpu_emu::C_RED_ADD, mask, v, 0); }
inline int __reduce_add_sync(unsigned mask, int v) { return (int)(unsigned)ompgpu_emu::collective(ompgpu_emu::C_RED_ADD, mask, (uint32_t)v, 1); }
inline unsigned __reduce_min_sync(unsigned mask, unsigned v) { return (unsigned)ompgpu_emu::collective(ompgpu_emu::C_RED_MIN, mask, v, 0); }
inline int __reduce_min_sync(unsigned mask, int v) { return (int)(unsigned)ompgpu_emu::collective(ompgpu_emu::C_RED_MIN, mask, (uint32_t)v, 1); }
inline unsigned __reduce_max_sync(unsigned mask, unsigned v) { return (unsigned)ompgpu_emu::collective(ompgpu_emu::C_RED_MAX, mask, v, 0); }
inline int __reduce_max_sync(unsigned mask, int v) { return (int)(unsigned)ompgpu_emu::collective(ompgpu_emu::C_RED_MAX, mask, (uint32_t)v, 1); }
inline unsigned __reduce_and_sync(unsigned mask, unsigned v) { return (unsigned)ompgpu_emu::collective(ompgpu_emu::C_RED_AND, mask, v, 0); }
inline unsigned __reduce_or_sync(unsigned mask, unsigned v) { return (unsigned)ompgpu_emu::collective(ompgpu_emu::C_RED_OR, mask, v, 0); }
inline unsigned __reduce_xor_sync(unsigned mask, unsigned v) { return (unsigned)ompgpu_emu::collective(ompgpu_emu::C_RED_XOR, mask, v, 0); }

// ----- address-space predicates -----------------------------------------------------------
inline unsigned int __isLocal(const void *p) { return ompgpu_emu::is_local_address(p) ? 1u : 0u; }
inline unsigned int __isGlobal(const void *p) { return ompgpu_emu::is_local_address(p) ? 0u : 1u; }

// ----- atomics ------------------------------------------------------------------------------
// Real atomic instructions (blocks may run on several OS threads), plus a scheduling hook.
#define OMPGPU_EMU_ATOMIC_RMW(NAME, T, BUILTIN)                              \
  inline T NAME(T *address, T val) {                                         \
    ompgpu_emu::check_atomic_address(address);                               \
    T old = BUILTIN(address, val, __ATOMIC_SEQ_CST);                         \
    ompgpu_emu::atomic_hook(ompgpu_emu::rmw_changed_##NAME(old, val));       \
    return old;                                                              \
  }
namespace ompgpu_emu {
template <class T> inline bool rmw_changed_atomicAdd(T, T v) { return v != 0; }
template <class T> inline bool rmw_changed_atomicSub(T, T v) { return v != 0; }
template <class T> inline bool rmw_changed_atomicAnd(T o, T v) { return (o & v) != o; }
template <class T> inline bool rmw_changed_atomicOr(T o, T v) { return (o | v) != o; }
template <class T> inline bool rmw_changed_atomicXor(T, T v) { return v != 0; }
template <class T> inline bool rmw_changed_atomicExch(T o, T v) { return o != v; }
}  // namespace ompgpu_emu
OMPGPU_EMU_ATOMIC_RMW(atomicAdd, int, __atomic_fetch_add)
OMPGPU_EMU_ATOMIC_RMW(atomicAdd, unsigned int, __atomic_fetch_add)
OMPGPU_EMU_ATOMIC_RMW(atomicAdd, unsigned long long int, __atomic_fetch_add)
OMPGPU_EMU_ATOMIC_RMW(atomicSub, int, __atomic_fetch_sub)
OMPGPU_EMU_ATOMIC_RMW(atomicSub, unsigned int, __atomic_fetch_sub)
OMPGPU_EMU_ATOMIC_RMW(atomicExch, int, __atomic_exchange_n)
OMPGPU_EMU_ATOMIC_RMW(atomicExch, unsigned int, __atomic_exchange_n)
OMPGPU_EMU_ATOMIC_RMW(atomicExch, unsigned long long int, __atomic_exchange_n)
OMPGPU_EMU_ATOMIC_RMW(atomicAnd, int, __atomic_fetch_and)
OMPGPU_EMU_ATOMIC_RMW(atomicAnd, unsigned int, __atomic_fetch_and)
OMPGPU_EMU_ATOMIC_RMW(atomicAnd, long long, __atomic_fetch_and)
OMPGPU_EMU_ATOMIC_RMW(atomicAnd, unsigned long long, __atomic_fetch_and)
OMPGPU_EMU_ATOMIC_RMW(atomicOr, int, __atomic_fetch_or)
OMPGPU_EMU_ATOMIC_RMW(atomicOr, unsigned int, __atomic_fetch_or)
OMPGPU_EMU_ATOMIC_RMW(atomicOr, long long, __atomic_fetch_or)
OMPGPU_EMU_ATOMIC_RMW(atomicOr, unsigned long long, __atomic_fetch_or)
OMPGPU_EMU_ATOMIC_RMW(atomicXor, int, __atomic_fetch_xor)
OMPGPU_EMU_ATOMIC_RMW(atomicXor, unsigned int, __atomic_fetch_xor)
OMPGPU_EMU_ATOMIC_RMW(atomicXor, long long, __atomic_fetch_xor)
OMPGPU_EMU_ATOMIC_RMW(atomicXor, unsigned long long, __atomic_fetch_xor)
#undef OMPGPU_EMU_ATOMIC_RMW

namespace ompgpu_emu {
// Read-modify-write through compare-and-swap: new = f(old).
template <class T, class F>
inline T cas_loop(T *address, F f) {
  check_atomic_address(address);
  T old;
  __atomic_load(address, &old, __ATOMIC_RELAXED);
  T nw;
  do {
    nw = f(old);
  } while (!__atomic_compare_exchange(address, &old, &nw, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
  atomic_hook(memcmp(&old, &nw, sizeof(T)) != 0);
  return old;
}
}  // namespace ompgpu_emu

#define OMPGPU_EMU_ATOMIC_MINMAX(T)                                                                  \
  inline T atomicMin(T *address, T val) {                                                            \
    return ompgpu_emu::cas_loop(address, [val](T o) { return val < o ? val : o; });                  \
  }                                                                                                  \
  inline T atomicMax(T *address, T val) {                                                            \
    return ompgpu_emu::cas_loop(address, [val](T o) { return val > o ? val : o; });                  \
  }
OMPGPU_EMU_ATOMIC_MINMAX(int)
OMPGPU_EMU_ATOMIC_MINMAX(unsigned int)
OMPGPU_EMU_ATOMIC_MINMAX(long long)
OMPGPU_EMU_ATOMIC_MINMAX(unsigned long long)
#undef OMPGPU_EMU_ATOMIC_MINMAX

inline float atomicAdd(float *address, float val) {
  return ompgpu_emu::cas_loop(address, [val](float o) { return o + val; });
}
inline double atomicAdd(double *address, double val) {
  return ompgpu_emu::cas_loop(address, [val](double o) { return o + val; });
}
inline float atomicExch(float *address, float val) {
  float old;
  __atomic_exchange(address, &val, &old, __ATOMIC_SEQ_CST);
  ompgpu_emu::atomic_hook(memcmp(&old, &val, sizeof old) != 0);
  return old;
}
inline unsigned int atomicInc(unsigned int *address, unsigned int val) {
  return ompgpu_emu::cas_loop(address, [val](unsigned o) { return o >= val ? 0u : o + 1; });
}
inline unsigned int atomicDec(unsigned int *address, unsigned int val) {
  return ompgpu_emu::cas_loop(address, [val](unsigned o) { return (o == 0 || o > val) ? val : o - 1; });
}
#define OMPGPU_EMU_ATOMIC_CAS(T)                                                                         \
  inline T atomicCAS(T *address, T compare, T val) {                                                     \
    ompgpu_emu::check_atomic_address(address);                                                           \
    T old = compare;                                                                                     \
    __atomic_compare_exchange_n(address, &old, val, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);          \
    ompgpu_emu::atomic_hook(old == compare && compare != val);                                           \
    return old;                                                                                          \
  }
OMPGPU_EMU_ATOMIC_CAS(int)
OMPGPU_EMU_ATOMIC_CAS(unsigned int)
OMPGPU_EMU_ATOMIC_CAS(unsigned long long int)
OMPGPU_EMU_ATOMIC_CAS(unsigned short int)
#undef OMPGPU_EMU_ATOMIC_CAS

// _block and _system scopes behave like the device-scope ones here.
#define OMPGPU_EMU_ATOMIC_SCOPES(NAME)                                                     \
  template <class... A>                                                                    \
  inline auto NAME##_block(A... a) -> decltype(NAME(a...)) { return NAME(a...); }          \
  template <class... A>                                                                    \
  inline auto NAME##_system(A... a) -> decltype(NAME(a...)) { return NAME(a...); }
OMPGPU_EMU_ATOMIC_SCOPES(atomicAdd)
OMPGPU_EMU_ATOMIC_SCOPES(atomicSub)
OMPGPU_EMU_ATOMIC_SCOPES(atomicExch)
OMPGPU_EMU_ATOMIC_SCOPES(atomicMin)
OMPGPU_EMU_ATOMIC_SCOPES(atomicMax)
OMPGPU_EMU_ATOMIC_SCOPES(atomicAnd)
OMPGPU_EMU_ATOMIC_SCOPES(atomicOr)
OMPGPU_EMU_ATOMIC_SCOPES(atomicXor)
OMPGPU_EMU_ATOMIC_SCOPES(atomicCAS)
OMPGPU_EMU_ATOMIC_SCOPES(atomicInc)
OMPGPU_EMU_ATOMIC_SCOPES(atomicDec)
#undef OMPGPU_EMU_ATOMIC_SCOPES

// ----- fences, time -------------------------------------------------------------------------
inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); ompgpu_emu::poll_hook(); }
inline void __threadfence_block() { __atomic_thread_fence(__ATOMIC_SEQ_CST); ompgpu_emu::poll_hook(); }
inline void __threadfence_system() { __atomic_thread_fence(__ATOMIC_SEQ_CST); ompgpu_emu::poll_hook(); }
// Cycles of an emulated 1 GHz clock (cudaDevAttrClockRate says 1000000 kHz).
inline long long int clock64() { ompgpu_emu::poll_hook(); return (long long)ompgpu_emu::now_ns(); }
inline unsigned long long __globaltimer() { return ompgpu_emu::now_ns(); }
inline void __nanosleep(unsigned int ns) {
  (void)ns;
  ompgpu_emu::Exec *e = ompgpu_emu::t_exec;
  if (e && e->cur) ompgpu_emu::yield_current(*e, true);
}
// clock() is the C library's (processor time), it does not yield.

// ----- bits and conversions ---------------------------------------------------------------------
inline int __popc(unsigned int x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned)x); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((unsigned long long)x); }
inline unsigned int __brev(unsigned int x) {
  unsigned r = 0;
  for (int i = 0; i < 32; i++) r |= ((x >> i) & 1u) << (31 - i);
  return r;
}
inline unsigned long long __brevll(unsigned long long x) {
  return ((unsigned long long)__brev((unsigned)x) << 32) | __brev((unsigned)(x >> 32));
}
inline int __mul24(int x, int y) { return (int)(((long long)(x << 8 >> 8)) * (y << 8 >> 8)); }
inline unsigned __umul24(unsigned x, unsigned y) { return (x & 0xffffffu) * (y & 0xffffffu); }
inline int __mulhi(int x, int y) { return (int)(((long long)x * y) >> 32); }
inline unsigned __umulhi(unsigned x, unsigned y) { return (unsigned)(((unsigned long long)x * y) >> 32); }
inline long long __mul64hi(long long x, long long y) { return (long long)(((__int128)x * y) >> 64); }
inline unsigned long long __umul64hi(unsigned long long x, unsigned long long y) {
  return (unsigned long long)(((unsigned __int128)x * y) >> 64);
}
inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s) {
  unsigned long long v = ((unsigned long long)y << 32) | x;
  unsigned r = 0;
  for (int i = 0; i < 4; i++) r |= (unsigned)((v >> (8 * ((s >> (4 * i)) & 7))) & 0xff) << (8 * i);
  return r;
}
inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned sh) {
  sh &= 31;
  return sh ? (hi << sh) | (lo >> (32 - sh)) : hi;
}
inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned sh) {
  sh &= 31;
  return sh ? (lo >> sh) | (hi << (32 - sh)) : lo;
}
inline long long __double_as_longlong(double x) { return ompgpu_emu::from_bits<long long>(ompgpu_emu::to_bits(x)); }
inline double __longlong_as_double(long long x) { return ompgpu_emu::from_bits<double>(ompgpu_emu::to_bits(x)); }
inline int __float_as_int(float x) { return ompgpu_emu::from_bits<int>(ompgpu_emu::to_bits(x)); }
inline float __int_as_float(int x) { return ompgpu_emu::from_bits<float>(ompgpu_emu::to_bits(x)); }
inline unsigned __float_as_uint(float x) { return ompgpu_emu::from_bits<unsigned>(ompgpu_emu::to_bits(x)); }
inline float __uint_as_float(unsigned x) { return ompgpu_emu::from_bits<float>(ompgpu_emu::to_bits(x)); }
inline int __double2hiint(double x) { return (int)(__double_as_longlong(x) >> 32); }
inline int __double2loint(double x) { return (int)__double_as_longlong(x); }
inline double __hiloint2double(int hi, int lo) {
  return __longlong_as_double((long long)(((unsigned long long)(unsigned)hi << 32) | (unsigned)lo));
}
inline int __float2int_rn(float x) { return (int)nearbyintf(x); }
inline int __float2int_rz(float x) { return (int)x; }
inline int __double2int_rn(double x) { return (int)nearbyint(x); }
inline int __double2int_rz(double x) { return (int)x; }
inline float __int2float_rn(int x) { return (float)x; }
inline double __int2double_rn(int x) { return (double)x; }
inline float __double2float_rn(double x) { return (float)x; }
inline long long __double2ll_rz(double x) { return (long long)x; }
inline double __ll2double_rn(long long x) { return (double)x; }
template <class T>
inline T __ldg(const T *p) { return *p; }
template <class T>
inline T __ldcg(const T *p) { return *p; }
template <class T>
inline T __ldca(const T *p) { return *p; }

// ----- math ---------------------------------------------------------------------------------------
inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
inline double rsqrt(double x) { return 1.0 / sqrt(x); }
inline float __saturatef(float x) { return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x; }
inline float __fdividef(float x, float y) { return x / y; }
inline float fdividef(float x, float y) { return x / y; }
inline float __expf(float x) { return expf(x); }
inline float __exp10f(float x) { return powf(10.0f, x); }
inline float __logf(float x) { return logf(x); }
inline float __log2f(float x) { return log2f(x); }
inline float __log10f(float x) { return log10f(x); }
inline float __sinf(float x) { return sinf(x); }
inline float __cosf(float x) { return cosf(x); }
inline float __tanf(float x) { return tanf(x); }
inline float __powf(float x, float y) { return powf(x, y); }
inline float __fmaf_rn(float x, float y, float z) { return fmaf(x, y, z); }
inline double __fma_rn(double x, double y, double z) { return fma(x, y, z); }
inline float __fadd_rn(float x, float y) { return x + y; }
inline float __fmul_rn(float x, float y) { return x * y; }
inline float __fdiv_rn(float x, float y) { return x / y; }
inline double __dadd_rn(double x, double y) { return x + y; }
inline double __dmul_rn(double x, double y) { return x * y; }
inline double __ddiv_rn(double x, double y) { return x / y; }
inline float __fsqrt_rn(float x) { return sqrtf(x); }
inline double __dsqrt_rn(double x) { return sqrt(x); }
inline float __frcp_rn(float x) { return 1.0f / x; }
inline double __drcp_rn(double x) { return 1.0 / x; }

// CUDA's global min/max overloads.
#define OMPGPU_EMU_MINMAX(R, A, B) \
  inline R min(A a, B b) { return (R)a < (R)b ? (R)a : (R)b; } \
  inline R max(A a, B b) { return (R)a > (R)b ? (R)a : (R)b; }
OMPGPU_EMU_MINMAX(int, int, int)
OMPGPU_EMU_MINMAX(unsigned int, unsigned int, unsigned int)
OMPGPU_EMU_MINMAX(unsigned int, int, unsigned int)
OMPGPU_EMU_MINMAX(unsigned int, unsigned int, int)
OMPGPU_EMU_MINMAX(long, long, long)
OMPGPU_EMU_MINMAX(unsigned long, unsigned long, unsigned long)
OMPGPU_EMU_MINMAX(long long, long long, long long)
OMPGPU_EMU_MINMAX(unsigned long long, unsigned long long, unsigned long long)
OMPGPU_EMU_MINMAX(unsigned long long, long long, unsigned long long)
OMPGPU_EMU_MINMAX(unsigned long long, unsigned long long, long long)
OMPGPU_EMU_MINMAX(float, float, float)
OMPGPU_EMU_MINMAX(double, double, double)
OMPGPU_EMU_MINMAX(double, float, double)
OMPGPU_EMU_MINMAX(double, double, float)
#undef OMPGPU_EMU_MINMAX
inline unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }
inline unsigned umax(unsigned a, unsigned b) { return a > b ? a : b; }
inline long long llmin(long long a, long long b) { return a < b ? a : b; }
inline long long llmax(long long a, long long b) { return a > b ? a : b; }
inline unsigned long long ullmin(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
inline unsigned long long ullmax(unsigned long long a, unsigned long long b) { return a > b ? a : b; }

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

#endif  // OMPGPU_CUDA_EMU_H
