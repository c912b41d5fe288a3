// emu_device_api.h - part of the ompgpu device emulator: include cuda_emu.h, which includes
// the parts in order (each uses what the ones before it define).
// The device functions of CUDA: failures, __syncthreads, warp votes, shuffles, matches, reductions, __activemask.
#ifndef OMPGPU_EMU_DEVICE_API_H
#define OMPGPU_EMU_DEVICE_API_H

// ---------------------------------------------------------------------------------------
// Device functions
// ---------------------------------------------------------------------------------------
[[noreturn]] __attribute__((format(printf, 1, 2))) void ompgpu_emu_fail(const char *fmt, ...);

// PTX `exit`: ends the calling thread at once, from any call depth (its stack is dropped
// without running destructors). Barriers and warp collectives count it as exited.
[[noreturn]] inline void ompgpu_emu_thread_exit() {
  ompgpu_emu::in_kernel("ompgpu_emu_thread_exit");
  ompgpu_emu::fiber_exit();
}

inline void ompgpu_emu_bar_sync(int id, int count) { ompgpu_emu::bar_op(id, count, true, -1); }
inline void ompgpu_emu_bar_arrive(int id, int count) { ompgpu_emu::bar_op(id, count, false, -1); }

// bar.red.popc on barrier `id` with every thread of the block: how many came with pred nonzero
inline unsigned ompgpu_emu_bar_red_popc(int id, int pred) {
  ompgpu_emu::bar_op(id, 0, true, pred ? 1 : 0);
  return (unsigned)(uint32_t)ompgpu_emu::t_exec->cur->result;
}

inline void __syncthreads() { ompgpu_emu::bar_op(0, 0, true, -1); }
inline int __syncthreads_count(int pred) { return (int)ompgpu_emu_bar_red_popc(0, pred); }
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


#endif  // OMPGPU_EMU_DEVICE_API_H
