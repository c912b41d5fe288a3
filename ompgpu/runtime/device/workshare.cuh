// ompgpu device runtime: worksharing over a normalized iteration space [0, n).
//
// static (block / chunked) and distribute need no shared state. dynamic and guided use a
// ring of WS_RING dispatch descriptors in team state. Every thread of the team keeps a
// per-thread loop sequence number q (reset at each fork); loop q uses slot q % WS_RING once
// the slot's tag says it is free for q. Iterations are handed out with one atomicAdd per
// group of lanes of a warp that are in the same loop (warp-aggregated: __match_any_sync on
// q, leader adds cnt * chunk, __shfl_sync broadcasts the base). The thread that brings the
// slot's `finished` count to the team size resets the slot and advances its tag by
// WS_RING, so consecutive loops and `nowait` loops (up to WS_RING in flight) are safe.
// Requirement: every thread of the team calls ws_dispatch_init / next.. / ws_dispatch_fini
// for every dynamic/guided loop, in the same order (OpenMP requires the former; the
// generator emits fini after the loop, before the optional barrier).
// A thread in a team of one (generic master, serialized region, SPMD serial code) gets the
// whole space in one piece.
#ifndef OMPGPU_DEVICE_WORKSHARE_CUH
#define OMPGPU_DEVICE_WORKSHARE_CUH

#include "parallelism.cuh"

namespace ompgpu {

// Schedule kinds for ws_dispatch_init (values of omp_sched_t). WS_STATIC and WS_AUTO are
// accepted (schedule(runtime)) and handed out like WS_DYNAMIC with chunk = ceil(n/T) when
// no chunk is given.
enum ScheduleKind : int { WS_STATIC = 1, WS_DYNAMIC = 2, WS_GUIDED = 3, WS_AUTO = 4 };

namespace detail {

// Balanced block partition of [0, n) among T: the first n % T parts get one more.
OMPGPU_DEV bool block_range(long long n, unsigned t, unsigned T, long long *lo, long long *hi) {
  if (n <= 0) {
    *lo = 0;
    *hi = 0;
    return false;
  }
  if (n <= 0xffffffffLL) {
    unsigned un = (unsigned)n;
    unsigned q = un / T, r = un - q * T;
    unsigned l = t * q + (t < r ? t : r);
    *lo = (long long)l;
    *hi = (long long)l + q + (t < r ? 1 : 0);
  } else {
    unsigned long long un = (unsigned long long)n;
    unsigned long long q = un / T, r = un - q * T;
    unsigned long long l = (unsigned long long)t * q + (t < r ? t : r);
    *lo = (long long)l;
    *hi = (long long)(l + q + (t < r ? 1 : 0));
  }
  return *lo < *hi;
}

OMPGPU_DEV long long chunk_or_one(long long c) { return c < 1 ? 1 : c; }

// ---- team of one ------------------------------------------------------------------------
// State: the pending trip count (>= 0) or -1 once handed out.
OMPGPU_DEV long long *one_slot(ThreadState s, bool acquire) {
  if (s.ser >= OMPGPU_MAX_SERIAL_DEPTH) fail_misuse("worksharing loop nested in too many serialized regions");
  if (!s.par() && team_state.mode == MODE_GENERIC) return &team_state.master_one_n[s.ser];
  PrivCtx *c = acquire ? priv_acquire() : priv_current();
  return &c->one_n[s.ser];
}

}  // namespace detail

// ---------------------------------------------------------------------------------------
// schedule(static) without chunk: one contiguous block per thread. [lo, hi); false if empty.
OMPGPU_DEV bool ws_static_block(long long n, long long *lo, long long *hi) {
  detail::TeamPos p = detail::team_pos();
  return detail::block_range(n, p.tid, p.n, lo, hi);
}

// schedule(static, chunk): thread t takes chunks t, t+T, t+2T, ...
//   for (long long c = ws_static_chunk_first(chunk); c < n; c += ws_static_chunk_stride(chunk))
//     for (long long i = c; i < min(c + chunk, n); i++) ...
OMPGPU_DEV long long ws_static_chunk_first(long long chunk) {
  return (long long)detail::team_pos().tid * detail::chunk_or_one(chunk);
}
OMPGPU_DEV long long ws_static_chunk_stride(long long chunk) {
  return (long long)detail::team_pos().n * detail::chunk_or_one(chunk);
}

// dist_schedule(static) without chunk: one contiguous block per team.
OMPGPU_DEV bool distribute_static_block(long long n, long long *lo, long long *hi) {
  return detail::block_range(n, blockIdx.x, gridDim.x, lo, hi);
}
// dist_schedule(static, chunk): team b takes chunks b, b+G, ...
OMPGPU_DEV long long distribute_chunk_first(long long chunk) {
  return (long long)blockIdx.x * detail::chunk_or_one(chunk);
}
OMPGPU_DEV long long distribute_chunk_stride(long long chunk) {
  return (long long)gridDim.x * detail::chunk_or_one(chunk);
}

// ---------------------------------------------------------------------------------------
// dynamic / guided
// ---------------------------------------------------------------------------------------
OMPGPU_DEV void ws_dispatch_init(int kind, long long n, long long chunk) {
  detail::ThreadState s = detail::thr();
  if (detail::in_team_region(s)) {
    detail::TeamState &t = detail::team();
    unsigned char q = s.seq;
    detail::thr_ref().seq = (unsigned char)(q + 1);
    unsigned i = q & (detail::WS_RING - 1);
    volatile unsigned char *tag = &t.ws_tag.b[i];
    if (*tag != q) {  // the slot still serves loop q - WS_RING (nowait): wait for it
      unsigned ns = 32;
      while (*tag != q) {
        spin_pause(ns);
        if (ns < 512) ns <<= 1;
      }
    }
    __threadfence_block();
    detail::DispatchSlot &d = t.ring[i];
    if (n < 0) n = 0;
    if (chunk < 1) {
      chunk = 1;
      if (kind == WS_STATIC || kind == WS_AUTO) {
        long long T = s.size();
        chunk = (n + T - 1) / T;
        if (chunk < 1) chunk = 1;
      }
    }
    d.n = n;  // every thread stores the same values
    d.chunk = chunk;
    d.kind = kind;
    return;
  }
  long long *p = detail::one_slot(s, true);
  *p = n < 0 ? 0 : n;
}

// Next chunk [lo, hi) for the calling thread; false when the loop is exhausted.
OMPGPU_DEV bool ws_dispatch_next(long long *lo, long long *hi) {
  detail::ThreadState s = detail::thr();
  if (detail::in_team_region(s)) {
    detail::TeamState &t = detail::team();
    unsigned char q = (unsigned char)(s.seq - 1);
    detail::DispatchSlot &d = t.ring[q & (detail::WS_RING - 1)];
    const long long n = d.n;
    const long long c = d.chunk;
    const bool guided = d.kind == WS_GUIDED;
    long long sz = c;
    unsigned long long mine;
    const unsigned active = __activemask();
    const unsigned group = __match_any_sync(active, (unsigned)q);
    const unsigned leader = (unsigned)__ffs(group) - 1u;
    const unsigned cnt = (unsigned)__popc(group);
    const unsigned rank = (unsigned)__popc(group & lanemask_lt());
    unsigned long long base = 0;
    if (lane_id() == leader) {
      if (guided) {
        long long rem = n - (long long)*(volatile unsigned long long *)&d.next;
        long long T2 = 2LL * s.size();
        long long g = (rem + T2 - 1) / T2;
        if (g > sz) sz = g;
      }
      base = atomicAdd(&d.next, (unsigned long long)sz * cnt);
    }
    base = __shfl_sync(group, base, leader);
    if (guided) sz = __shfl_sync(group, sz, leader);
    mine = base + (unsigned long long)rank * (unsigned long long)sz;
    if (mine >= (unsigned long long)n) {
      *lo = n;
      *hi = n;
      return false;
    }
    *lo = (long long)mine;
    long long h = (long long)mine + sz;
    *hi = h < n ? h : n;
    return true;
  }
  long long *p = detail::one_slot(s, false);
  long long v = *p;
  *p = -1;
  *lo = 0;
  *hi = v > 0 ? v : 0;
  return v > 0;
}

// The calling thread is done with the loop (call once per ws_dispatch_init).
OMPGPU_DEV void ws_dispatch_fini() {
  detail::ThreadState s = detail::thr();
  if (detail::in_team_region(s)) {
    detail::TeamState &t = detail::team();
    unsigned char q = (unsigned char)(s.seq - 1);
    unsigned i = q & (detail::WS_RING - 1);
    detail::DispatchSlot &d = t.ring[i];
    const unsigned T = s.size();
    const unsigned active = __activemask();
    const unsigned group = __match_any_sync(active, (unsigned)q);
    const unsigned cnt = (unsigned)__popc(group);
    const bool lead = lane_id() == (unsigned)__ffs(group) - 1u;
    if (lead) {
      unsigned old = atomicAdd(&d.finished, cnt);
      if (old + cnt == T) {  // last one out: recycle the slot for loop q + WS_RING
        d.next = 0;
        d.finished = 0;
        __threadfence_block();
        *(volatile unsigned char *)&t.ws_tag.b[i] = (unsigned char)(q + detail::WS_RING);
      }
    }
    return;
  }
  if (s.par() || detail::team_state.mode != MODE_GENERIC) detail::priv_release();
}

}  // namespace ompgpu

#endif  // OMPGPU_DEVICE_WORKSHARE_CUH
