// emu_blocks.h - part of the ompgpu device emulator: include cuda_emu.h, which includes
// the parts in order (each uses what the ones before it define).
// Threads and blocks: running a launch's blocks (one after another, or on OMPGPU_EMU_THREADS OS threads), the launch macros.
#ifndef OMPGPU_EMU_BLOCKS_H
#define OMPGPU_EMU_BLOCKS_H

namespace ompgpu_emu {

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


}  // namespace ompgpu_emu

#define OMPGPU_LAUNCH_KERNEL(kernel, grid, block, shmem, stream, ...) \
  ::ompgpu_emu::launch_kernel(#kernel, kernel, (grid), (block), (shmem), (cudaStream_t)(stream), ##__VA_ARGS__)
#define OMPGPU_DYNAMIC_SHARED() (::ompgpu_emu::dynamic_shared())


#endif  // OMPGPU_EMU_BLOCKS_H
