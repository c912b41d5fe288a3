// ompgpu device runtime: reductions.
//
// Each thread accumulates into a private copy initialised to red_identity<T>(op), then
// every thread of the team calls reduce(op, &target, partial): the team's lanes of each
// warp combine with shuffles (or one redux instruction for 32-bit integers on sm_80+),
// then lane 0 of each warp combines into *target with one atomic (a CAS loop for ops and
// types without a native atomic). A thread in a team of one combines atomically. Across
// teams the same call combines into the mapped device copy. Collective within each warp
// (all team lanes of the warp must call it), no barrier implied.
// Types: bool, char, signed/unsigned char, short, unsigned short, int, unsigned, long,
// unsigned long, long long, unsigned long long, float, double. Bitwise ops are integer-only.
#ifndef OMPGPU_DEVICE_REDUCTION_CUH
#define OMPGPU_DEVICE_REDUCTION_CUH

#include "sync.cuh"

namespace ompgpu {

// Identity (initial value of the private copy) of op for T.
template <class T>
OMPGPU_DEV T red_identity(RedOp op) {
  switch (op) {
    case RED_ADD:
    case RED_BOR:
    case RED_BXOR:
    case RED_LOR: return (T)0;
    case RED_MUL:
    case RED_LAND: return (T)1;
    case RED_BAND:
      if constexpr (std::is_integral<T>::value) return (T)~(T)0;
      else return (T)0;
    case RED_MIN:
      if constexpr (std::is_floating_point<T>::value) return (T)INFINITY;
      else if constexpr (std::is_signed<T>::value) return (T)((1ull << (8 * sizeof(T) - 1)) - 1ull);
      else return (T)~(T)0;
    case RED_MAX:
      if constexpr (std::is_floating_point<T>::value) return (T)-INFINITY;
      else if constexpr (std::is_signed<T>::value) return (T)(-(long long)((1ull << (8 * sizeof(T) - 1)) - 1ull) - 1);
      else return (T)0;
  }
  return (T)0;
}

namespace detail {

// Type the shuffles work in: sub-word integers are promoted.
template <class T>
struct red_work {
  using type = typename std::conditional<(std::is_integral<T>::value && sizeof(T) < 4),
                                         typename std::conditional<std::is_signed<T>::value, int, unsigned>::type,
                                         T>::type;
};

// Combine `v` over the first k lanes of the warp (k >= 2, contiguous from lane 0, mask =
// those lanes); lane 0 ends up with the result.
template <class S>
OMPGPU_DEV S warp_reduce(RedOp op, S v, unsigned k) {
  const unsigned mask = low_lanes_mask(k);
  const unsigned lane = lane_id();
#if defined(OMPGPU_EMU) || (defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800)
  if constexpr (std::is_same<S, int>::value || std::is_same<S, unsigned>::value) {
    switch (op) {
      case RED_ADD: return (S)__reduce_add_sync(mask, v);
      case RED_MIN: return (S)__reduce_min_sync(mask, v);
      case RED_MAX: return (S)__reduce_max_sync(mask, v);
      case RED_BAND: return (S)__reduce_and_sync(mask, (unsigned)v);
      case RED_BOR: return (S)__reduce_or_sync(mask, (unsigned)v);
      case RED_BXOR: return (S)__reduce_xor_sync(mask, (unsigned)v);
      case RED_LAND: return (S)__reduce_and_sync(mask, (unsigned)(v != 0));
      case RED_LOR: return (S)__reduce_or_sync(mask, (unsigned)(v != 0));
      default: break;
    }
  }
#endif
  if (k == 32u) {
#pragma unroll
    for (unsigned off = 16; off; off >>= 1) v = op_apply<S>((AtomicOp)op, v, __shfl_down_sync(mask, v, off));
  } else {
#pragma unroll
    for (unsigned off = 16; off; off >>= 1) {
      S o = __shfl_down_sync(mask, v, off);
      if (lane + off < k) v = op_apply<S>((AtomicOp)op, v, o);
    }
  }
  return v;
}

}  // namespace detail

// A team whose size the compiler knows (threads 0..team_size-1 of the block): no runtime
// state is read.
template <class T>
OMPGPU_DEV void reduce_known(RedOp op, T *target, typename detail::type_identity<T>::type partial, unsigned team_size) {
  const unsigned k = team_lanes_in_warp(warp_id(), team_size);
  if (k <= 1u) {
    atomic_update<T>(op, target, partial);
    return;
  }
  using S = typename detail::red_work<T>::type;
  S v = detail::warp_reduce<S>(op, (S)partial, k);
  if (lane_id() == 0) atomic_update<T>(op, target, (T)v);
}

// A packed team (its warp, every lane a member): one shuffle reduction, one atomic.
template <class T>
OMPGPU_DEV void reduce_packed(RedOp op, T *target, typename detail::type_identity<T>::type partial) {
  using S = typename detail::red_work<T>::type;
  S v = detail::warp_reduce<S>(op, (S)partial, 32u);
  if (lane_id() == 0) atomic_update<T>(op, target, (T)v);
}
// A packed team of `lanes` (8 or 16) lanes of a warp: shuffles within its group of lanes.
template <class T>
OMPGPU_DEV void reduce_packed(RedOp op, T *target, typename detail::type_identity<T>::type partial, unsigned lanes) {
  using S = typename detail::red_work<T>::type;
  const unsigned mask = packed_team_mask(lanes);
  S v = (S)partial;
  for (unsigned off = lanes >> 1; off; off >>= 1)
    v = detail::op_apply<S>((AtomicOp)op, v, __shfl_down_sync(mask, v, off, (int)lanes));
  if (packed_thread(lanes) == 0) atomic_update<T>(op, target, (T)v);
}

// All-reduce: the team's combined partials handed to every thread, each of which combines them
// into its own *target. Used where the reduction's original is a serial local of an SPMD kernel
// that every thread holds a copy of (plan/mode.py, KernelPlan.allreduced): each copy then takes
// the same value, as the serial code that every thread runs needs, with no shared copy to set up
// between barriers and no atomics. Every thread of the team calls it at the same point.
// The value each thread gets is the one lane 0 computed, broadcast, never a value each lane
// combined in its own order: with a NaN, min and max are not commutative, and the threads' copies
// must stay equal.
namespace detail {
// A warp's partials, one per warp of the block (8 bytes: every reduction type fits), in
// ALLREDUCE_SLOT_SETS sets: consecutive all-reduces of one region (several reduction items) use
// the sets in turn, with a barrier before each reuse of a set (allreduce_block).
constexpr unsigned ALLREDUCE_SLOT_SETS = 2;
static OMPGPU_SHARED unsigned long long allreduce_slots[ALLREDUCE_SLOT_SETS][32];

template <class S>
OMPGPU_DEV S warp_allreduce(RedOp op, S v, unsigned k) {
  if (k <= 1u) return v;
  const S total = warp_reduce<S>(op, v, k);
  return __shfl_sync(low_lanes_mask(k), total, 0);
}
}  // namespace detail

// A team that is the whole block, of team_size threads; `item` is the call's place among its
// region's all-reduced items (0, 1, ...: a constant the compiler passes). One block barrier: the
// warps' partials meet in shared slots, the items taking the slot sets in turn. A set is written
// again only at a later all-reduce, and a barrier keeps every thread's reads of it before that:
// the region's closing barrier, which the compiler always emits after one, or, for an item that
// reuses an earlier item's set in the same region, one more barrier here.
template <class T>
OMPGPU_DEV void allreduce_block(RedOp op, T *target, typename detail::type_identity<T>::type partial,
                                unsigned team_size, unsigned item) {
  using S = typename detail::red_work<T>::type;
  const unsigned warps = (team_size + 31u) / 32u;
  const unsigned k = team_lanes_in_warp(warp_id(), team_size);
  if (warps == 1u) {
    *target = detail::op_apply<T>((AtomicOp)op, *target, (T)detail::warp_allreduce<S>(op, (S)partial, k));
    return;
  }
  const S mine = k <= 1u ? (S)partial : detail::warp_reduce<S>(op, (S)partial, k);   // lane 0's is the warp's
  if (item >= detail::ALLREDUCE_SLOT_SETS) block_barrier();   // every thread has read this set's last sums
  unsigned long long *const slots = detail::allreduce_slots[item % detail::ALLREDUCE_SLOT_SETS];
  if (lane_id() == 0) memcpy(&slots[warp_id()], &mine, sizeof mine);
  block_barrier();
  S total;
#if defined(OMPGPU_EMU) || (defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800)
  constexpr bool redux_type = std::is_same<S, int>::value || std::is_same<S, unsigned>::value;
  if (redux_type && op != RED_MUL) {
    // one slot a lane, one redux instruction (every lane gets its result) instead of a sum of
    // them all; warp_reduce takes that path for every operator but *
    S slot = red_identity<S>(op);
    if (lane_id() < warps) memcpy(&slot, &slots[lane_id()], sizeof slot);
    total = detail::warp_reduce<S>(op, slot, 32u);
  } else
#endif
  {
    memcpy(&total, &slots[0], sizeof total);
    for (unsigned w = 1; w < warps; w++) {
      S other;
      memcpy(&other, &slots[w], sizeof other);
      total = detail::op_apply<S>((AtomicOp)op, total, other);
    }
  }
  *target = detail::op_apply<T>((AtomicOp)op, *target, (T)total);
}

// A packed team: the `lanes` (8, 16 or 32) lanes of its warp; shuffles only.
template <class T>
OMPGPU_DEV void allreduce_packed(RedOp op, T *target, typename detail::type_identity<T>::type partial,
                                 unsigned lanes = 32u) {
  using S = typename detail::red_work<T>::type;
  S v = (S)partial;
  if (lanes == 32u) {
    v = detail::warp_allreduce<S>(op, v, 32u);
  } else {
    const unsigned mask = packed_team_mask(lanes);
    for (unsigned off = lanes >> 1; off; off >>= 1)
      v = detail::op_apply<S>((AtomicOp)op, v, __shfl_down_sync(mask, v, off, (int)lanes));
    v = __shfl_sync(mask, v, 0, (int)lanes);
  }
  *target = detail::op_apply<T>((AtomicOp)op, *target, (T)v);
}

template <class T>
OMPGPU_DEV void reduce(RedOp op, T *target, typename detail::type_identity<T>::type partial) {
  detail::ThreadState s = detail::thr();
  if (!detail::in_team_region(s)) {  // team of one
    atomic_update<T>(op, target, partial);
    return;
  }
  reduce_known<T>(op, target, partial, s.size());
}

// Scan (OpenMP 5.0 inscan reductions): the team turns buf[0..n), one value per iteration, into
// its inclusive prefix combined with `initial` (buf[i] = initial op buf[0] op ... op buf[i]).
// buf has room for nthr more values after the n (the threads' block totals). Every thread of
// the team calls it (thread tid of nthr); `barrier` is the team's barrier, met three times.
template <class T, class Barrier>
OMPGPU_DEV void team_inclusive_scan(RedOp op, T *buf, long long n, T initial, unsigned tid, unsigned nthr,
                                    Barrier barrier) {
  T *totals = buf + n;
  const long long per = (n + (long long)nthr - 1) / (long long)nthr;
  const long long lo = (long long)tid * per < n ? (long long)tid * per : n;
  const long long hi = lo + per < n ? lo + per : n;
  T acc = red_identity<T>(op);
  for (long long i = lo; i < hi; i++) {
    acc = detail::op_apply<T>((AtomicOp)op, acc, buf[i]);
    buf[i] = acc;
  }
  totals[tid] = acc;
  barrier();
  if (tid == 0) {  // each thread's block starts after the blocks before it
    T run = initial;
    for (unsigned t = 0; t < nthr; t++) {
      const T block = totals[t];
      totals[t] = run;
      run = detail::op_apply<T>((AtomicOp)op, run, block);
    }
  }
  barrier();
  const T before = totals[tid];
  for (long long i = lo; i < hi; i++) buf[i] = detail::op_apply<T>((AtomicOp)op, before, buf[i]);
  barrier();
}

}  // namespace ompgpu

#endif  // OMPGPU_DEVICE_REDUCTION_CUH
