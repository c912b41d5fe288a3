// emu_blocks.h - part of the ompgpu device emulator: include cuda_emu.h, which includes
// the parts in order (each uses what the ones before it define).
// Threads and blocks: running a launch's blocks (one after another, or on OMPGPU_EMU_THREADS OS threads), the launch macros.
#ifndef OMPGPU_EMU_BLOCKS_H
#define OMPGPU_EMU_BLOCKS_H

namespace ompgpu_emu {

// ----- running blocks -------------------------------------------------------------------------
void prepare_exec(Exec &e);

// Functions run at the start of every block, on the OS thread that runs it, before its threads:
// shared memory starts undefined on a GPU, but the emulator's shared variables are thread_local
// (zero at first, then what the last block on that OS thread left), so the device runtime
// registers a function that makes its own shared state garbage (ompgpu_device.cuh), and code that reads
// it before setting it fails here as it would on a GPU. One list for the process (inline: one
// instance across translation units), registered from static initializers: a shared object
// loaded while blocks run (the Python API's modules) adds to it under the lock and publishes
// the count last, so a block reads only registered entries. Entries are never removed: an
// object unloaded with dlclose would leave its function behind (the emulator's users do not).
// Past kMax translation units, the later ones' state starts as before (zero on a thread's first block).
using BlockStartHook = void (*)();
struct BlockStartHooks {
  static constexpr int kMax = 64;
  BlockStartHook fn[kMax] = {};
  int n = 0;   // __atomic_load_n / __atomic_store_n, as the emulator's other shared words
  Mutex mu;
};
inline BlockStartHooks &block_start_hooks() {
  static BlockStartHooks h;
  return h;
}
inline bool register_block_start_hook(BlockStartHook f) {
  BlockStartHooks &h = block_start_hooks();
  Guard g(h.mu);
  const int n = h.n;
  for (int i = 0; i < n; i++)
    if (h.fn[i] == f) return true;
  if (n < BlockStartHooks::kMax) {
    h.fn[n] = f;
    __atomic_store_n(&h.n, n + 1, __ATOMIC_RELEASE);
  }
  return true;
}

// The number of blocks this OS thread has started (run_block counts them).
inline unsigned long long &block_serial() {
  static thread_local unsigned long long n = 0;
  return n;
}

// A shared variable that generated code declares inside a kernel (OMPGPU_SHARED at block scope,
// a thread_local static here) starts as garbage in every block too: the first emulated thread of
// a block to pass its declaration fills it (OMPGPU_SHARED_STARTS_UNDEFINED, after the
// declaration; nothing on a GPU), later ones and later passes leave it as it is, as on a GPU.
inline void garble_shared_once(void *p, size_t bytes) {
  struct Seen {
    void *p;
    unsigned long long block;
  };
  // This OS thread's copies, a few per kernel. Past kMax of them a variable is left as it is
  // (filling it at every pass would destroy what the block stored in it).
  constexpr int kMax = 256;
  static thread_local Seen seen[kMax];
  static thread_local int n = 0;
  const unsigned long long block = block_serial();
  for (int i = 0; i < n; i++) {
    if (seen[i].p != p) continue;
    if (seen[i].block != block) {
      seen[i].block = block;
      memset(p, 0xA5, bytes);
    }
    return;
  }
  if (n == kMax) return;
  seen[n++] = Seen{p, block};
  memset(p, 0xA5, bytes);
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

void run_block(Exec &e, unsigned long long b);

void run_blocks(Launch &L);

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
void *pool_worker(void *arg);
void pool_run(Launch &L, int workers);


}  // namespace ompgpu_emu

#define OMPGPU_LAUNCH_KERNEL(kernel, grid, block, shmem, stream, ...) \
  ::ompgpu_emu::launch_kernel(#kernel, kernel, (grid), (block), (shmem), (cudaStream_t)(stream), ##__VA_ARGS__)
// A cooperative launch (cudaLaunchCooperativeKernel): a cudaError_t
#define OMPGPU_LAUNCH_COOPERATIVE(kernel, grid, block, shmem, stream, ...) \
  ::ompgpu_emu::launch_kernel_as(true, #kernel, kernel, (grid), (block), (shmem), (cudaStream_t)(stream), ##__VA_ARGS__)
#define OMPGPU_DYNAMIC_SHARED() (::ompgpu_emu::dynamic_shared())


#endif  // OMPGPU_EMU_BLOCKS_H
