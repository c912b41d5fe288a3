// ompgpu device runtime: atomics (#pragma omp atomic), critical, single, flush.
//
// atomic_update(op, p, v) performs *p = *p op v atomically and returns the old value;
// atomic_update_new returns the new one. Native atomics are used where the hardware has
// them (add/sub/min/max/and/or/xor/exchange on 32/64-bit integers, add and exchange on
// float, add on double); everything else is a compare-and-swap loop on the same-size
// integer, and 8/16-bit types use a CAS loop on the containing aligned 32-bit word.
#ifndef OMPGPU_DEVICE_SYNC_CUH
#define OMPGPU_DEVICE_SYNC_CUH

#include "parallelism.cuh"

namespace ompgpu {

// Reduction operators (`-` reduces as RED_ADD).
enum RedOp : int {
  RED_ADD = 0,
  RED_MUL = 1,
  RED_MIN = 2,
  RED_MAX = 3,
  RED_BAND = 4,
  RED_BOR = 5,
  RED_BXOR = 6,
  RED_LAND = 7,
  RED_LOR = 8,
};

// Atomic update operators: the RedOp set (same values) plus the non-commutative ones.
// *_REV: x = v op x (OpenMP `x = expr op x`).
enum AtomicOp : int {
  ATOMIC_ADD = 0,
  ATOMIC_MUL = 1,
  ATOMIC_MIN = 2,
  ATOMIC_MAX = 3,
  ATOMIC_BAND = 4,
  ATOMIC_BOR = 5,
  ATOMIC_BXOR = 6,
  ATOMIC_LAND = 7,
  ATOMIC_LOR = 8,
  ATOMIC_SUB = 9,
  ATOMIC_DIV = 10,
  ATOMIC_SHL = 11,
  ATOMIC_SHR = 12,
  ATOMIC_ASSIGN = 13,
  ATOMIC_SUB_REV = 14,
  ATOMIC_DIV_REV = 15,
  ATOMIC_SHL_REV = 16,
  ATOMIC_SHR_REV = 17,
};

namespace detail {

template <class T>
struct type_identity {
  using type = T;
};

template <class To, class From>
OMPGPU_DEV To bit_cast(const From &f) {
  static_assert(sizeof(To) == sizeof(From), "bit_cast size");
  To t;
  memcpy(&t, &f, sizeof(To));
  return t;
}

template <size_t N>
struct uint_of_size;
template <>
struct uint_of_size<1> {
  using type = unsigned char;
};
template <>
struct uint_of_size<2> {
  using type = unsigned short;
};
template <>
struct uint_of_size<4> {
  using type = unsigned int;
};
template <>
struct uint_of_size<8> {
  using type = unsigned long long;
};

// a op b, computed as C computes `a op= b` for type T.
template <class T>
OMPGPU_DEV T op_apply(AtomicOp op, T a, T b) {
  switch (op) {
    case ATOMIC_ADD: return (T)(a + b);
    case ATOMIC_SUB: return (T)(a - b);
    case ATOMIC_SUB_REV: return (T)(b - a);
    case ATOMIC_MUL: return (T)(a * b);
    case ATOMIC_DIV: return (T)(a / b);
    case ATOMIC_DIV_REV: return (T)(b / a);
    case ATOMIC_MIN: return b < a ? b : a;
    case ATOMIC_MAX: return a < b ? b : a;
    case ATOMIC_LAND: return (T)(a && b);
    case ATOMIC_LOR: return (T)(a || b);
    case ATOMIC_ASSIGN: return b;
    default: break;
  }
  if constexpr (std::is_integral<T>::value) {
    switch (op) {
      case ATOMIC_BAND: return (T)(a & b);
      case ATOMIC_BOR: return (T)(a | b);
      case ATOMIC_BXOR: return (T)(a ^ b);
      case ATOMIC_SHL: return (T)(a << b);
      case ATOMIC_SHR: return (T)(a >> b);
      case ATOMIC_SHL_REV: return (T)(b << a);
      case ATOMIC_SHR_REV: return (T)(b >> a);
      default: break;
    }
  }
  fail_misuse("atomic or reduction operator not valid for this type");
  return b;
}

// CAS loop for any T of 1, 2, 4 or 8 bytes: next(cur, nv) sets the new value from the current
// one and says whether to store it (false: leave memory as it is). Returns the value before.
template <class T, class Next>
OMPGPU_DEV T cas_apply(T *p, Next next) {
  if constexpr (sizeof(T) == 4 || sizeof(T) == 8) {
    using U = typename uint_of_size<sizeof(T)>::type;
    U *q = reinterpret_cast<U *>(p);
    U old = *(volatile U *)q, assumed;
    do {
      assumed = old;
      T nv;
      if (!next(bit_cast<T>(assumed), nv)) return bit_cast<T>(assumed);
      old = atomicCAS(q, assumed, bit_cast<U>(nv));
    } while (old != assumed);
    return bit_cast<T>(old);
  } else {
    static_assert(sizeof(T) == 1 || sizeof(T) == 2, "unsupported atomic size");
    using U = typename uint_of_size<sizeof(T)>::type;
    uintptr_t a = reinterpret_cast<uintptr_t>(p);
    unsigned *w = reinterpret_cast<unsigned *>(a & ~(uintptr_t)3);
    const unsigned sh = (unsigned)(a & 3u) * 8u;
    const unsigned m = ((sizeof(T) == 1) ? 0xffu : 0xffffu) << sh;
    unsigned old = *(volatile unsigned *)w, assumed;
    do {
      assumed = old;
      T cur = bit_cast<T>((U)((assumed & m) >> sh)), nv;
      if (!next(cur, nv)) return cur;
      unsigned nb = ((unsigned)bit_cast<U>(nv) << sh) & m;
      old = atomicCAS(w, assumed, (assumed & ~m) | nb);
    } while (old != assumed);
    return bit_cast<T>((U)((old & m) >> sh));
  }
}

// A min or max that leaves the value as it is stores nothing: once a reduction's extreme is in
// memory, the teams' later updates are reads, not a queue of compare-and-swaps on one word (a
// max over 5,000 warps each Jacobi sweep: bench/jacobi).
template <class T>
OMPGPU_DEV T cas_update(AtomicOp op, T *p, T v) {
  const bool extreme = op == ATOMIC_MIN || op == ATOMIC_MAX;
  return cas_apply(p, [&](T cur, T &nv) {
    nv = op_apply<T>(op, cur, v);
    return !extreme || bit_cast<typename uint_of_size<sizeof(T)>::type>(nv) != bit_cast<typename uint_of_size<sizeof(T)>::type>(cur);
  });
}

}  // namespace detail

// *p = *p op v atomically; returns the old value.
// OpenMP 5.1 `atomic compare` with ==: if x == expected (C's ==, so 0.0 matches -0.0 and NaN
// matches nothing), x = desired; returns x's value before.
template <class T>
OMPGPU_DEV T atomic_compare_exchange(T *p, typename detail::type_identity<T>::type expected,
                                     typename detail::type_identity<T>::type desired) {
  return detail::cas_apply(p, [&](T cur, T &nv) {
    nv = desired;
    return cur == expected;
  });
}

template <class T>
OMPGPU_DEV T atomic_update(AtomicOp op, T *p, typename detail::type_identity<T>::type v) {
  // Hardware atomics do not work on local memory (they trap). A thread's local variable is
  // only ever updated by that thread (e.g. the target of a reduction in a serialized
  // nested region), so a plain read-modify-write is the atomic update there.
  if (__isLocal(p)) {
    const T old = *p;
    *p = detail::op_apply<T>(op, old, v);
    return old;
  }
  if constexpr (std::is_same<T, int>::value || std::is_same<T, unsigned>::value) {
    switch (op) {
      case ATOMIC_ADD: return atomicAdd(p, v);
      case ATOMIC_SUB: return atomicSub(p, v);
      case ATOMIC_MIN: return atomicMin(p, v);
      case ATOMIC_MAX: return atomicMax(p, v);
      case ATOMIC_BAND: return atomicAnd(p, v);
      case ATOMIC_BOR: return atomicOr(p, v);
      case ATOMIC_BXOR: return atomicXor(p, v);
      case ATOMIC_ASSIGN: return atomicExch(p, v);
      default: break;
    }
  } else if constexpr (std::is_integral<T>::value && sizeof(T) == 8) {
    unsigned long long *q = reinterpret_cast<unsigned long long *>(p);
    const unsigned long long u = (unsigned long long)v;
    switch (op) {
      case ATOMIC_ADD: return (T)atomicAdd(q, u);
      case ATOMIC_SUB: return (T)atomicAdd(q, 0ull - u);
      case ATOMIC_BAND: return (T)atomicAnd(q, u);
      case ATOMIC_BOR: return (T)atomicOr(q, u);
      case ATOMIC_BXOR: return (T)atomicXor(q, u);
      case ATOMIC_ASSIGN: return (T)atomicExch(q, u);
      case ATOMIC_MIN:
        if constexpr (std::is_signed<T>::value)
          return (T)atomicMin(reinterpret_cast<long long *>(p), (long long)v);
        else
          return (T)atomicMin(q, u);
      case ATOMIC_MAX:
        if constexpr (std::is_signed<T>::value)
          return (T)atomicMax(reinterpret_cast<long long *>(p), (long long)v);
        else
          return (T)atomicMax(q, u);
      default: break;
    }
  } else if constexpr (std::is_same<T, float>::value) {
    switch (op) {
      case ATOMIC_ADD: return atomicAdd(p, v);
      case ATOMIC_SUB: return atomicAdd(p, -v);
      case ATOMIC_ASSIGN: return atomicExch(p, v);
      default: break;
    }
  } else if constexpr (std::is_same<T, double>::value) {
    switch (op) {
      case ATOMIC_ADD: return atomicAdd(p, v);
      case ATOMIC_SUB: return atomicAdd(p, -v);
      case ATOMIC_ASSIGN:
        return detail::bit_cast<double>(
            atomicExch(reinterpret_cast<unsigned long long *>(p), detail::bit_cast<unsigned long long>(v)));
      default: break;
    }
  }
  return detail::cas_update<T>(op, p, v);
}

// Same, returns the new value (capture `{x op= v; r = x;}`).
template <class T>
OMPGPU_DEV T atomic_update_new(AtomicOp op, T *p, typename detail::type_identity<T>::type v) {
  T old = atomic_update<T>(op, p, v);
  return detail::op_apply<T>(op, old, v);
}

template <class T>
OMPGPU_DEV T atomic_update(RedOp op, T *p, typename detail::type_identity<T>::type v) {
  return atomic_update<T>((AtomicOp)op, p, v);
}
template <class T>
OMPGPU_DEV T atomic_update_new(RedOp op, T *p, typename detail::type_identity<T>::type v) {
  return atomic_update_new<T>((AtomicOp)op, p, v);
}

// #pragma omp atomic read / write (naturally aligned accesses of <= 8 bytes are atomic).
// Under the emulator, whose threads take turns only where they yield, a read or write is a
// poll point (every 32nd yields): a thread that spins on an atomic read until another
// thread's atomic write lets that thread run, as a GPU's independent thread scheduling does.
template <class T>
OMPGPU_DEV T atomic_read(const T *p) {
  const T v = *(const volatile T *)p;
#ifdef OMPGPU_EMU
  ompgpu_emu::poll_hook();
#endif
  return v;
}
template <class T>
OMPGPU_DEV void atomic_write(T *p, typename detail::type_identity<T>::type v) {
  *(volatile T *)p = v;
#ifdef OMPGPU_EMU
  ompgpu_emu::poll_hook();
#endif
}

// ---------------------------------------------------------------------------------------
// critical: spin lock on a OMPGPU_DEVICE int (0 free, 1 held) that the generator declares
// per critical name. Acquire with CAS and exponential backoff (starvation-free lanes under
// independent thread scheduling), fences make the protected accesses visible device-wide.
// ---------------------------------------------------------------------------------------
OMPGPU_DEV void critical_enter(int *lock) {
  if (atomicCAS(lock, 0, 1) != 0) {
    unsigned ns = 32;
    do {
      spin_pause(ns);
      if (ns < 1024) ns <<= 1;
    } while (atomicCAS(lock, 0, 1) != 0);
  }
  __threadfence();
}
OMPGPU_DEV void critical_exit(int *lock) {
  __threadfence();
  atomicExch(lock, 0);
}

// single: thread 0 of the team executes the block (then barrier() unless nowait).
OMPGPU_DEV bool single_begin() { return detail::team_pos().tid == 0; }

// flush: a device-wide memory fence.
OMPGPU_DEV void flush() { __threadfence(); }

}  // namespace ompgpu

#endif  // OMPGPU_DEVICE_SYNC_CUH
