// emu_barriers.h - part of the ompgpu device emulator: include cuda_emu.h, which includes
// the parts in order (each uses what the ones before it define).
// Barriers: named barriers, warp collectives, thread exit, and the reports of a block that cannot go on (deadlocks, misuse).
#ifndef OMPGPU_EMU_BARRIERS_H
#define OMPGPU_EMU_BARRIERS_H

namespace ompgpu_emu {

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
void warp_arrive(Exec &e, unsigned wi);

void bar_op(int id, int count, bool sync, int pred);

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

bool try_collective(Exec &e, unsigned wi, uint32_t mask);

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
[[noreturn]] void fiber_exit();

inline void fiber_entry() {
#if OMPGPU_EMU_ASAN
  __sanitizer_finish_switch_fiber(nullptr, nullptr, nullptr);
#endif
  Exec *e = t_exec;
  e->L->invoke(e->L->ctx);
  fiber_exit();
}

// ----- reports of a stuck block ---------------------------------------------------------------
Str wait_text(Fiber &f);

inline Str range_text(unsigned lo, unsigned hi) {
  unsigned wl = lo / 32, wh = hi / 32;
  if (lo == hi) return strf("thread %u (warp %u)", lo, wl);
  if (wl == wh) return strf("threads %u-%u (warp %u)", lo, hi, wl);
  return strf("threads %u-%u (warps %u-%u)", lo, hi, wl, wh);
}

// One line per run of consecutive threads that wait at the same place.
void print_groups(Exec &e, bool with_exited);

Str deadlock_headline(Exec &e);

[[noreturn]] void deadlock_report(Exec &e);

[[noreturn]] void livelock_report(Exec &e);


}  // namespace ompgpu_emu

#endif  // OMPGPU_EMU_BARRIERS_H
