// emu_threads.h - part of the ompgpu device emulator: include cuda_emu.h, which includes
// the parts in order (each uses what the ones before it define).
// Threads and blocks: settings, reports, the fibers that run CUDA threads and their context switch, the state of a running block.
#ifndef OMPGPU_EMU_THREADS_H
#define OMPGPU_EMU_THREADS_H

// ---------------------------------------------------------------------------------------
// The emulator proper
// ---------------------------------------------------------------------------------------
namespace ompgpu_emu {

constexpr unsigned kMaxThreads = 1024;
constexpr unsigned kMaxWarps = kMaxThreads / 32;
constexpr int kNumBarriers = 16;
// Blocks of a cooperative launch: each runs on an OS thread of its own (a grid barrier needs
// every block at once); the host runtime asks for few (runtime/host/persistent.cpp)
constexpr unsigned long long kMaxCooperativeBlocks = 64;
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
__attribute__((format(printf, 1, 2))) Str strf(const char *fmt, ...);
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
Str where();

[[noreturn]] __attribute__((format(printf, 1, 2))) void fatal(const char *fmt, ...);

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
  // cudaLaunchCooperativeKernel: every block runs at once, each on an OS thread of its own, so
  // that a grid barrier (runtime/device/grid.cuh) sees all of them arrive
  bool cooperative = false;
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
Str where();

}  // namespace ompgpu_emu

#endif  // OMPGPU_EMU_THREADS_H
