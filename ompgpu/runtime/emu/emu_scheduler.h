// emu_scheduler.h - part of the ompgpu device emulator: include cuda_emu.h, which includes
// the parts in order (each uses what the ones before it define).
// Threads and blocks: the cooperative scheduler of a block's fibers.
#ifndef OMPGPU_EMU_SCHEDULER_H
#define OMPGPU_EMU_SCHEDULER_H

namespace ompgpu_emu {

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
void resolve_activemask(Exec &e, Warp &w);

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

[[noreturn]] void livelock_report(Exec &e);

void yield_current(Exec &e, bool spin);

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


}  // namespace ompgpu_emu

#endif  // OMPGPU_EMU_SCHEDULER_H
