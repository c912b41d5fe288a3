// Atomic updates combined per block (KernelPlan.combined, plan/combine.py).
//
// streamcluster's teams each add a point's cost to one of 32 totals with `#pragma omp atomic`:
// 65,536 global atomics a launch on 32 addresses took 0.50 ms where CUDA's version, which sums
// them per block in shared memory and adds each block's totals once, took 0.117 (hand-written
// kernels on an H200, 2026-11-27, bench/results/issue34-h200-2026-11-27-s5-exp5-atomics.txt).
//
// Where a pointer (or array) that a lean SPMD kernel receives is used for nothing but relaxed
// atomic additions and subtractions, nobody in the kernel reads the locations it updates, so
// the order and the time at which the additions reach memory are nobody's business until the
// kernel ends: a block may add them up first. Nobody, that is, but through another pointer to
// the same storage; the planner allows only kernels whose every access goes through a pointer
// they receive, and the host runtime sets the launch's bit for the pointer only where it points
// into a mapping that none of the kernel's other pointers points into
// (runtime/host/target.cpp combine_mask).
//
// The block keeps a table of COMBINE_SLOTS cells in shared memory, each an address and a sum: an
// update finds its address's cell (a few cells from its hash), or claims an empty one, and adds
// there with a shared-memory atomic; with no cell free it goes to memory as before. At the end of
// the kernel the block adds each cell's sum to its address with one global atomic. A kernel that
// combines begins with combine_begin (every thread) and ends with combine_end (every thread that
// began: packed kernels keep the warps past the league until then).
#ifndef OMPGPU_DEVICE_COMBINE_CUH
#define OMPGPU_DEVICE_COMBINE_CUH

#include "sync.cuh"

namespace ompgpu {

constexpr unsigned COMBINE_SLOTS = 128;   // 2 KB of shared memory a block
constexpr unsigned COMBINE_PROBES = 4;    // cells tried from an address's hash

namespace detail {
enum CombineKind : unsigned { COMBINE_INT, COMBINE_UNSIGNED, COMBINE_LONG, COMBINE_ULONG, COMBINE_FLOAT, COMBINE_DOUBLE };

template <class T> struct combine_kind;
template <> struct combine_kind<int> { static constexpr unsigned value = COMBINE_INT; };
template <> struct combine_kind<unsigned> { static constexpr unsigned value = COMBINE_UNSIGNED; };
template <> struct combine_kind<long long> { static constexpr unsigned value = COMBINE_LONG; };
template <> struct combine_kind<unsigned long long> { static constexpr unsigned value = COMBINE_ULONG; };
template <> struct combine_kind<float> { static constexpr unsigned value = COMBINE_FLOAT; };
template <> struct combine_kind<double> { static constexpr unsigned value = COMBINE_DOUBLE; };
// long is long long's size on the device (LP64)
template <> struct combine_kind<long> { static constexpr unsigned value = COMBINE_LONG; };
template <> struct combine_kind<unsigned long> { static constexpr unsigned value = COMBINE_ULONG; };

struct CombineTable {
  unsigned mask;                               // the launch's: bit k for the kernel's k-th candidate
  unsigned long long address[COMBINE_SLOTS];   // 0: free
  unsigned long long sum[COMBINE_SLOTS];       // the cell's sum, as its type's bits
  unsigned kind[COMBINE_SLOTS];
};
static OMPGPU_SHARED CombineTable combine_table;

template <class T>
OMPGPU_DEV void combine_add_cell(unsigned slot, T v) {
  T *cell = reinterpret_cast<T *>(&combine_table.sum[slot]);
  if constexpr (sizeof(T) == 8 && std::is_integral<T>::value)
    atomicAdd(reinterpret_cast<unsigned long long *>(cell), (unsigned long long)v);
  else if constexpr (std::is_same<T, int>::value || std::is_same<T, unsigned>::value || std::is_same<T, float>::value ||
                     std::is_same<T, double>::value)
    atomicAdd(cell, v);
}
}  // namespace detail

// Every thread of the block, before anything else: an empty table and the launch's mask.
OMPGPU_DEV void combine_begin(unsigned mask) {
  if (threadIdx.x == 0) detail::combine_table.mask = mask;
  for (unsigned s = threadIdx.x; s < COMBINE_SLOTS; s += blockDim.x) {
    detail::combine_table.address[s] = 0ull;
    detail::combine_table.sum[s] = 0ull;
  }
  block_barrier();
}

// `#pragma omp atomic` x += v (op ATOMIC_ADD) or x -= v (ATOMIC_SUB) on *p, p from the kernel's
// `candidate`-th combined array or pointer: into the block's table where the launch's mask has
// its bit, else to memory.
template <class T, class V>
OMPGPU_DEV void combine_update(AtomicOp op, T *p, V value, unsigned candidate) {
  T v = (T)value;
  if (op == ATOMIC_SUB) v = (T)(T(0) - v);
  if ((detail::combine_table.mask >> candidate) & 1u) {
    const unsigned long long a = reinterpret_cast<unsigned long long>(p);
    const unsigned h = (unsigned)(a / sizeof(T));
    for (unsigned i = 0; i < COMBINE_PROBES; ++i) {
      const unsigned s = (h + i) % COMBINE_SLOTS;
      unsigned long long held = *reinterpret_cast<volatile unsigned long long *>(&detail::combine_table.address[s]);
      if (held == 0ull) {
        held = atomicCAS(&detail::combine_table.address[s], 0ull, a);
        if (held == 0ull) {
          detail::combine_table.kind[s] = detail::combine_kind<T>::value;
          held = a;
        }
      }
      if (held == a) {
        detail::combine_add_cell<T>(s, v);
        return;
      }
    }
  }
  atomic_update<T>(ATOMIC_ADD, p, v);
}

// Every thread that began, at the end of the kernel: each cell's sum to its address.
OMPGPU_DEV void combine_end() {
  block_barrier();
  for (unsigned s = threadIdx.x; s < COMBINE_SLOTS; s += blockDim.x) {
    const unsigned long long a = detail::combine_table.address[s];
    if (a == 0ull) continue;
    const unsigned long long *bits = &detail::combine_table.sum[s];
    switch (detail::combine_table.kind[s]) {
      case detail::COMBINE_INT: atomicAdd(reinterpret_cast<int *>(a), *reinterpret_cast<const int *>(bits)); break;
      case detail::COMBINE_UNSIGNED: atomicAdd(reinterpret_cast<unsigned *>(a), *reinterpret_cast<const unsigned *>(bits)); break;
      case detail::COMBINE_LONG:
      case detail::COMBINE_ULONG: atomicAdd(reinterpret_cast<unsigned long long *>(a), *bits); break;
      case detail::COMBINE_FLOAT: atomicAdd(reinterpret_cast<float *>(a), *reinterpret_cast<const float *>(bits)); break;
      case detail::COMBINE_DOUBLE: atomicAdd(reinterpret_cast<double *>(a), *reinterpret_cast<const double *>(bits)); break;
      default: break;
    }
  }
}

}  // namespace ompgpu

#endif  // OMPGPU_DEVICE_COMBINE_CUH
