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


}  // namespace ompgpu_emu

#endif  // OMPGPU_EMU_BARRIERS_H
