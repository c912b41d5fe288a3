// Glue between the code ompgpu generates and the device runtime API.
// Generated code calls only these `ompgpu_*` helpers (plus the runtime's documented entry
// points), so the generator and the runtime can change independently.
#pragma once
#include <type_traits>
#include <limits.h>
#include <float.h>
#include "ompgpu_device.cuh"

// Comparison of a canonical loop's condition, for the trip count.
enum { OMPGPU_CMP_LT, OMPGPU_CMP_LE, OMPGPU_CMP_GT, OMPGPU_CMP_GE, OMPGPU_CMP_NE };

// Number of iterations of `for (v = lb; v CMP ub; v += st)`.
static OMPGPU_DEVICE OMPGPU_FORCEINLINE long long ompgpu_trip_count(long long lb, long long ub, long long st, int cmp) {
  if (st == 0) return 0;
  if (cmp == OMPGPU_CMP_LE) ub += 1;
  if (cmp == OMPGPU_CMP_GE) ub -= 1;
  if (cmp == OMPGPU_CMP_NE) { if (st > 0 ? ub <= lb : ub >= lb) return 0; }
  if (st > 0) return ub > lb ? (ub - lb + st - 1) / st : 0;
  return lb > ub ? (lb - ub - st - 1) / (-st) : 0;
}

// One step of recovering a collapsed nest's indices from the flat iteration number q, from
// the innermost loop out: returns the index of the loop with n iterations (q % n) and leaves
// q / n for the loops outside it. `narrow` (decided once per loop: the whole iteration space
// fits in 32 bits) takes 32-bit arithmetic, several times cheaper on the GPU than 64-bit.
static OMPGPU_DEVICE OMPGPU_FORCEINLINE long long ompgpu_nest_split(long long *q, long long n, bool narrow) {
  if (narrow) {
    const unsigned uq = (unsigned)*q, un = (unsigned)n, d = uq / un;
    *q = (long long)d;
    return (long long)(uq - d * un);
  }
  const long long d = *q / n, r = *q - d * n;
  *q = d;
  return r;
}

// A master variable that parallel regions share: lives on the team's soft stack for the
// lifetime of its C scope (C++ destruction order keeps pushes and pops LIFO).
// InGlobalMemory: the frame is taken from the team's global slice even when the shared
// slice has room (variables that parallel regions update under `critical`).
template <class T, bool InGlobalMemory = false> struct ompgpu_stack_var {
  T *ptr;
  OMPGPU_DEVICE OMPGPU_FORCEINLINE ompgpu_stack_var()
      : ptr((T *)(InGlobalMemory ? ompgpu::stack_push_global((unsigned)sizeof(T)) : ompgpu::stack_push((unsigned)sizeof(T)))) {}
  OMPGPU_DEVICE OMPGPU_FORCEINLINE ~ompgpu_stack_var() { ompgpu::stack_pop((unsigned)sizeof(T)); }
  ompgpu_stack_var(const ompgpu_stack_var &) = delete;
  ompgpu_stack_var &operator=(const ompgpu_stack_var &) = delete;
};

// The same, aligned to Align bytes (an allocate clause's align modifier, OpenMP 5.1): Align - 1
// bytes more on the stack, the start rounded up.
template <class T, unsigned long long Align> struct ompgpu_aligned_stack_var {
  T *ptr;
  OMPGPU_DEVICE OMPGPU_FORCEINLINE ompgpu_aligned_stack_var()
      : ptr((T *)(((unsigned long long)ompgpu::stack_push((unsigned)(sizeof(T) + Align - 1)) + Align - 1) & ~(Align - 1))) {}
  OMPGPU_DEVICE OMPGPU_FORCEINLINE ~ompgpu_aligned_stack_var() { ompgpu::stack_pop((unsigned)(sizeof(T) + Align - 1)); }
  ompgpu_aligned_stack_var(const ompgpu_aligned_stack_var &) = delete;
  ompgpu_aligned_stack_var &operator=(const ompgpu_aligned_stack_var &) = delete;
};

// x++ and x-- of a team-shared scalar that a loop holds in a register (codegen/shared_scalars.py):
// the register and the variable get the new value, the expression has the old one.
template <class T>
static OMPGPU_DEVICE OMPGPU_FORCEINLINE T ompgpu_store_through_postinc(T &variable, T &reg) {
  const T old = reg;
  variable = ++reg;
  return old;
}
template <class T>
static OMPGPU_DEVICE OMPGPU_FORCEINLINE T ompgpu_store_through_postdec(T &variable, T &reg) {
  const T old = reg;
  variable = --reg;
  return old;
}

static OMPGPU_DEVICE OMPGPU_FORCEINLINE bool ompgpu_can_fork() { return ompgpu::can_fork(); }

static OMPGPU_DEVICE OMPGPU_FORCEINLINE void ompgpu_fork(int id, const void *pack, unsigned size, int num_threads) {
  ompgpu::fork(id, pack, size, num_threads);
}

// A parallel region that cannot fork (nested, or SPMD): a team of one runs it in place.
template <class Pack>
static OMPGPU_DEVICE OMPGPU_FORCEINLINE void ompgpu_run_serialized(void (*fn)(const void *), const Pack *pack) {
  ompgpu::serialized_begin();
  fn(pack);
  ompgpu::serialized_end();
}

// Private copy of an array-section reduction whose length is known only at run time: a local
// array of this many elements, else the device heap (small, and shared by every thread).
#ifndef OMPGPU_LOCAL_REDUCTION_ELEMENTS
#define OMPGPU_LOCAL_REDUCTION_ELEMENTS 64
#endif
static OMPGPU_DEVICE OMPGPU_FORCEINLINE void *ompgpu_reduction_buffer(unsigned long long bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (p == nullptr) ompgpu::detail::fail_misuse("out of device heap for the private copy of an array-section reduction");
  return p;
}

// A firstprivate array passed by value (a kernel argument, a field of a region's argument
// pack): C arrays cannot be, a struct holding one can.
template <class T> struct ompgpu_by_value {
  static_assert(sizeof(T) <= 4096, "a firstprivate array of more than 4096 bytes is not supported yet");
  T v;
};
template <class T> static OMPGPU_DEVICE OMPGPU_FORCEINLINE ompgpu_by_value<T> ompgpu_by_value_of(const T &a) {
  ompgpu_by_value<T> r;
  memcpy(&r.v, &a, sizeof a);
  return r;
}

// Identity value of a reduction operator for type T.
template <class T> static OMPGPU_DEVICE OMPGPU_FORCEINLINE T ompgpu_red_identity(ompgpu::RedOp op) {
  switch (op) {
    case ompgpu::RED_MUL: case ompgpu::RED_LAND: return (T)1;
    case ompgpu::RED_BAND: return (T)~(unsigned long long)0;
    case ompgpu::RED_MIN: return std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity() : std::numeric_limits<T>::max();
    case ompgpu::RED_MAX: return std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::lowest();
    default: return (T)0;
  }
}
template <> OMPGPU_DEVICE OMPGPU_FORCEINLINE float ompgpu_red_identity<float>(ompgpu::RedOp op) {
  switch (op) {
    case ompgpu::RED_MUL: case ompgpu::RED_LAND: return 1.0f;
    case ompgpu::RED_MIN: return INFINITY;
    case ompgpu::RED_MAX: return -INFINITY;
    default: return 0.0f;
  }
}
template <> OMPGPU_DEVICE OMPGPU_FORCEINLINE double ompgpu_red_identity<double>(ompgpu::RedOp op) {
  switch (op) {
    case ompgpu::RED_MUL: case ompgpu::RED_LAND: return 1.0;
    case ompgpu::RED_MIN: return INFINITY;
    case ompgpu::RED_MAX: return -INFINITY;
    default: return 0.0;
  }
}

template <class T, class V> static OMPGPU_DEVICE OMPGPU_FORCEINLINE void ompgpu_reduce(ompgpu::RedOp op, T *target, V partial) {
  ompgpu::reduce<T>(op, target, (T)partial);
}

template <class T, class V> static OMPGPU_DEVICE OMPGPU_FORCEINLINE void ompgpu_reduce_known(ompgpu::RedOp op, T *target, V partial,
                                                                                      unsigned team_size) {
  ompgpu::reduce_known<T>(op, target, (T)partial, team_size);
}

// The all-reduce into a serial local that every thread of an SPMD team holds (reduction.cuh).
template <class T, class V> static OMPGPU_DEVICE OMPGPU_FORCEINLINE void ompgpu_allreduce_block(ompgpu::RedOp op, T *target, V partial,
                                                                                         unsigned team_size, unsigned item) {
  ompgpu::allreduce_block<T>(op, target, (T)partial, team_size, item);
}
template <class T, class V> static OMPGPU_DEVICE OMPGPU_FORCEINLINE void ompgpu_allreduce_packed(ompgpu::RedOp op, T *target, V partial,
                                                                                          unsigned lanes = 32u) {
  ompgpu::allreduce_packed<T>(op, target, (T)partial, lanes);
}

template <class T, class V> static OMPGPU_DEVICE OMPGPU_FORCEINLINE void ompgpu_reduce_packed(ompgpu::RedOp op, T *target, V partial) {
  ompgpu::reduce_packed<T>(op, target, (T)partial);
}
template <class T, class V> static OMPGPU_DEVICE OMPGPU_FORCEINLINE void ompgpu_reduce_packed(ompgpu::RedOp op, T *target, V partial,
                                                                                       unsigned lanes) {
  ompgpu::reduce_packed<T>(op, target, (T)partial, lanes);
}

template <class T, class E, class D> static OMPGPU_DEVICE OMPGPU_FORCEINLINE T ompgpu_atomic_compare_exchange(T *p, E e, D d) {
  return ompgpu::atomic_compare_exchange<T>(p, (T)e, (T)d);
}
template <class T> static OMPGPU_DEVICE OMPGPU_FORCEINLINE T ompgpu_atomic_read(T *p) { return ompgpu::atomic_read<T>(p); }
template <class T, class V> static OMPGPU_DEVICE OMPGPU_FORCEINLINE void ompgpu_atomic_write(T *p, V v) { ompgpu::atomic_write<T>(p, (T)v); }
template <class T, class V> static OMPGPU_DEVICE OMPGPU_FORCEINLINE T ompgpu_atomic_update(ompgpu::AtomicOp op, T *p, V v) {
  return ompgpu::atomic_update<T>(op, p, (T)v);
}
template <class T, class V> static OMPGPU_DEVICE OMPGPU_FORCEINLINE T ompgpu_atomic_update_new(ompgpu::AtomicOp op, T *p, V v) {
  return ompgpu::atomic_update_new<T>(op, p, (T)v);
}
