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
// whole space in one piece, from its own WsLoop, with no shared state at all.
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

// A team of the block's threads 0 .. team_size - 1 (several warps) tests a distribute loop's
// skip condition for as many iterations at once, one a thread (codegen/templates/loop.j2,
// analysis/skip_guard.py): the number of its first thread whose `take` holds, or team_size
// when none does; every thread gets it. The caller meets the team before each call (the loop
// does: the last iteration's stores), so every thread has read the slots of the last call.
namespace detail {
static OMPGPU_SHARED unsigned taker_slots[32];
}
OMPGPU_DEV unsigned block_team_first_taker(bool take, unsigned team_size) {
  const unsigned warps = (team_size + 31u) / 32u;
  const unsigned bits = __ballot_sync(low_lanes_mask(team_lanes_in_warp(warp_id(), team_size)), take);
  if (lane_id() == 0) detail::taker_slots[warp_id()] = bits;
  block_barrier();
  for (unsigned w = 0; w < warps; w++) {
    const unsigned b = detail::taker_slots[w];
    if (b) return w * 32u + (unsigned)__ffs((int)b) - 1u;
  }
  return team_size;
}

// dist_schedule(static) without chunk: one contiguous block per team. The forms with `team`
// and `league` serve packed teams (several teams per block: see packed_team_num), the others
// a team per block.
OMPGPU_DEV bool distribute_static_block(long long n, long long *lo, long long *hi, unsigned team, unsigned league) {
  return detail::block_range(n, team, league, lo, hi);
}
OMPGPU_DEV bool distribute_static_block(long long n, long long *lo, long long *hi) {
  return distribute_static_block(n, lo, hi, blockIdx.x, gridDim.x);
}
// dist_schedule(static, chunk): team b takes chunks b, b+G, ...
OMPGPU_DEV long long distribute_chunk_first(long long chunk, unsigned team) {
  return (long long)team * detail::chunk_or_one(chunk);
}
OMPGPU_DEV long long distribute_chunk_stride(long long chunk, unsigned league) {
  return (long long)league * detail::chunk_or_one(chunk);
}
OMPGPU_DEV long long distribute_chunk_first(long long chunk) { return distribute_chunk_first(chunk, blockIdx.x); }
OMPGPU_DEV long long distribute_chunk_stride(long long chunk) { return distribute_chunk_stride(chunk, gridDim.x); }

// ---------------------------------------------------------------------------------------
// Teams whose geometry the compiler knows (runtime elision): thread threadIdx.x of T, where
// T is blockDim.x (a team-level region of an SPMD kernel) or the worker count (a team-level
// region of a generic kernel without num_threads or if). Nothing is read from team state.
// ---------------------------------------------------------------------------------------
// The forms with `tid` take the thread's number in its team from the caller (packed teams).
OMPGPU_DEV bool known_static_block(long long n, unsigned T, long long *lo, long long *hi, unsigned tid) {
  return detail::block_range(n, tid, T, lo, hi);
}
OMPGPU_DEV bool known_static_block(long long n, unsigned T, long long *lo, long long *hi) {
  return known_static_block(n, T, lo, hi, threadIdx.x);
}
// distribute parallel for over the grid, thread threadIdx.x of a team of T: the iterations
// this thread runs are first, first + stride, ... below end. With at least one iteration per
// thread of the grid, a grid-stride loop (consecutive threads of the grid, consecutive
// iterations: each warp's accesses coalesce, all teams sweep the data together). With fewer,
// each team a block of n / teams iterations, one per thread, so that every team (and as many
// warps as possible) has work.
OMPGPU_DEV void grid_loop_bounds(long long n, unsigned T, long long *first, long long *stride, long long *end) {
  const long long grid = (long long)gridDim.x * (long long)T;
  if (n >= grid) {
    *first = (long long)blockIdx.x * T + threadIdx.x;
    *stride = grid;
    *end = n;
    return;
  }
  long long lo, hi;
  detail::block_range(n, blockIdx.x, gridDim.x, &lo, &hi);
  *first = lo + (long long)threadIdx.x;
  *stride = (long long)T;
  *end = hi;
}
// Bytes of L2 cache of the GPU the device code is compiled for (H100: 50 MiB, A100: 40 MiB);
// only tile_loop_bounds uses it, to size how many tiles are in flight.
#ifndef OMPGPU_L2_BYTES
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define OMPGPU_L2_BYTES (50LL << 20)
#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define OMPGPU_L2_BYTES (40LL << 20)
#else
#define OMPGPU_L2_BYTES (6LL << 20)
#endif
#endif
// A grid loop whose iterations are tiles that each touch tile_bytes of cache lines
// (analysis/footprint.py): about L2 / tile_bytes threads in flight, spread over every team,
// each a block of consecutive iterations of its team's block (a thread walking its tiles in
// order reuses the lines its last tile left; the lines of the tiles in flight fit the L2).
OMPGPU_DEV void tile_loop_bounds(long long n, unsigned T, long long tile_bytes, long long *first, long long *stride,
                                 long long *end) {
  long long active = OMPGPU_L2_BYTES / (tile_bytes > 0 ? tile_bytes : 1);
  if (active < 1) active = 1;
  long long per_team = (active + gridDim.x - 1) / gridDim.x;
  if (per_team > (long long)T) per_team = T;
  long long lo, hi;
  detail::block_range(n, blockIdx.x, gridDim.x, &lo, &hi);
  *stride = 1;
  if ((long long)threadIdx.x >= per_team) {
    *first = 0;
    *end = 0;
    return;
  }
  long long tlo, thi;
  detail::block_range(hi - lo, threadIdx.x, (unsigned)per_team, &tlo, &thi);
  *first = lo + tlo;
  *end = lo + thi;
}
OMPGPU_DEV long long known_static_chunk_first(long long chunk, unsigned tid) {
  return (long long)tid * detail::chunk_or_one(chunk);
}
OMPGPU_DEV long long known_static_chunk_first(long long chunk) { return known_static_chunk_first(chunk, threadIdx.x); }
OMPGPU_DEV long long known_static_chunk_stride(long long chunk, unsigned T) {
  return (long long)T * detail::chunk_or_one(chunk);
}

// ---------------------------------------------------------------------------------------
// dynamic / guided
// ---------------------------------------------------------------------------------------
// What a thread knows about its current dynamic/guided loop. Every thread of the team calls
// ws_dispatch_init with the same n, chunk and kind, so these live in the thread's registers;
// the shared slot holds only what the threads must agree on at run time (the next iteration
// and the count of threads that are done), and every access to the slot is an atomic. That
// keeps the protocol free of unsynchronised shared-memory traffic, which compute-sanitizer's
// racecheck would report (it does not know that equal values were stored).
struct WsLoop {
  long long n;       // trip count of [0, n)
  long long chunk;   // >= 1
  int kind;          // ScheduleKind
  unsigned slot;     // ring slot; WS_NO_SLOT for a team of one
  long long pending; // team of one: iterations not handed out yet
};
constexpr unsigned WS_NO_SLOT = ~0u;

namespace detail {
OMPGPU_DEV unsigned ws_tag_load(unsigned *tag) { return atomicOr(tag, 0u); }
}  // namespace detail

OMPGPU_DEV WsLoop ws_dispatch_init(int kind, long long n, long long chunk) {
  detail::ThreadState s = detail::thr();
  WsLoop w;
  w.n = n < 0 ? 0 : n;
  w.kind = kind;
  w.pending = w.n;
  w.slot = WS_NO_SLOT;
  w.chunk = chunk;
  if (!detail::in_team_region(s)) return w;  // a team of one gets the whole space
  if (w.chunk < 1) {
    w.chunk = 1;
    if (kind == WS_STATIC || kind == WS_AUTO) {
      long long T = s.size();
      w.chunk = (w.n + T - 1) / T;
      if (w.chunk < 1) w.chunk = 1;
    }
  }
  detail::TeamState &t = detail::team();
  unsigned char q = s.seq;
  detail::thr_ref().seq = (unsigned char)(q + 1);
  w.slot = q & (detail::WS_RING - 1);
  unsigned *tag = &t.ws_tag[w.slot];
  if ((unsigned char)detail::ws_tag_load(tag) != q) {  // the slot still serves loop q - WS_RING (nowait)
    unsigned ns = 32;
    while ((unsigned char)detail::ws_tag_load(tag) != q) {
      spin_pause(ns);
      if (ns < 512) ns <<= 1;
    }
  }
  __threadfence_block();
  return w;
}

// Next chunk [lo, hi) for the calling thread; false when the loop is exhausted.
OMPGPU_DEV bool ws_dispatch_next(WsLoop &w, long long *lo, long long *hi) {
  if (w.slot == WS_NO_SLOT) {
    *lo = 0;
    *hi = w.pending;
    w.pending = 0;
    return *hi > 0;
  }
  detail::TeamState &t = detail::team();
  detail::DispatchSlot &d = t.ring[w.slot];
  const long long n = w.n;
  const bool guided = w.kind == WS_GUIDED;
  long long sz = w.chunk;
  const unsigned active = OMPGPU_ACTIVEMASK();
  const unsigned group = __match_any_sync(active, w.slot);
  const unsigned leader = (unsigned)__ffs(group) - 1u;
  const unsigned cnt = (unsigned)__popc(group);
  const unsigned rank = (unsigned)__popc(group & lanemask_lt());
  unsigned long long base = 0;
  if (lane_id() == leader) {
    if (guided) {
      long long rem = n - (long long)atomicAdd(&d.next, 0ull);
      long long T2 = 2LL * detail::thr().size();
      long long g = (rem + T2 - 1) / T2;
      if (g > sz) sz = g;
    }
    base = atomicAdd(&d.next, (unsigned long long)sz * cnt);
  }
  base = __shfl_sync(group, base, leader);
  if (guided) sz = __shfl_sync(group, sz, leader);
  const unsigned long long mine = base + (unsigned long long)rank * (unsigned long long)sz;
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

// The calling thread is done with the loop (call once per ws_dispatch_init).
OMPGPU_DEV void ws_dispatch_fini(const WsLoop &w) {
  if (w.slot == WS_NO_SLOT) return;
  detail::TeamState &t = detail::team();
  detail::DispatchSlot &d = t.ring[w.slot];
  const unsigned T = detail::thr().size();
  const unsigned active = OMPGPU_ACTIVEMASK();
  const unsigned group = __match_any_sync(active, w.slot);
  const unsigned cnt = (unsigned)__popc(group);
  if (lane_id() == (unsigned)__ffs(group) - 1u) {
    unsigned old = atomicAdd(&d.finished, cnt);
    if (old + cnt == T) {  // last one out: recycle the slot for loop q + WS_RING
      atomicExch(&d.next, 0ull);
      atomicExch(&d.finished, 0u);
      __threadfence_block();
      unsigned *tag = &t.ws_tag[w.slot];
      atomicExch(tag, (unsigned)(unsigned char)(detail::ws_tag_load(tag) + detail::WS_RING));
    }
  }
}

}  // namespace ompgpu

#endif  // OMPGPU_DEVICE_WORKSHARE_CUH
