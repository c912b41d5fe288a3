// Inner loops spread across the grid (KernelPlan.spread, codegen's spread remark).
//
// A lean SPMD kernel that is one `teams distribute` loop whose iterations each run one parallel
// loop (a reduction at most) leaves most of the GPU idle when the distribute has fewer
// iterations than the grid has blocks: backprop's 16 hidden units each summed a million
// products on one block of a 132-SM H100. Where the grid holds at least two blocks per
// iteration, each iteration gets gridDim.x / n blocks ("chunks"): every block runs the serial
// code before the region (the planner allows only code without side effects there), the
// region's loop is cut into one contiguous slice per block (spread_slice), each
// block's reduction partials go to its own cells of the launch's scratch, and the iteration's
// last block to arrive combines them in chunk order (the same order every run) and runs the
// rest of the iteration alone. The scratch comes from the host runtime per launch, zeroed
// (runtime/host/target.cpp launch_scratch): gridDim.x arrival counts of 8 bytes, then 8 bytes
// per reduction item and block; each iteration's last block sets its count back to zero.
// Without scratch, or with fewer than two blocks per iteration, the kernel runs as before (one
// chunk per iteration, distribute_static_block).
#ifndef OMPGPU_DEVICE_SPREAD_CUH
#define OMPGPU_DEVICE_SPREAD_CUH

#include "reduction.cuh"
#include "workshare.cuh"

namespace ompgpu {

namespace detail {
struct SpreadBlock {
  unsigned chunk, chunks;   // this block's part of its iteration, of how many
  unsigned first_block;     // the iteration's first block
  unsigned iteration;       // the iteration (normalized), when chunks > 1
  bool last;                // spread_arrive: this block combines and finishes the iteration
};
static OMPGPU_SHARED SpreadBlock spread_block;
}  // namespace detail

// The distribute loop's iterations [lo, hi) of this block (false: none), as
// distribute_static_block deals them, or one iteration split over several blocks.
OMPGPU_DEV bool spread_distribute_block(long long n, long long *lo, long long *hi, void *scratch) {
  unsigned chunks = 1, chunk = 0, first = blockIdx.x;
  if (scratch != nullptr && n > 0 && 2 * n <= (long long)gridDim.x) {
    chunks = gridDim.x / (unsigned)n;
    if (blockIdx.x >= (unsigned)n * chunks) return false;   // spare blocks
    *lo = blockIdx.x / chunks;
    *hi = *lo + 1;
    chunk = blockIdx.x % chunks;
    first = blockIdx.x - chunk;
  } else if (!distribute_static_block(n, lo, hi)) {
    return false;
  }
  if (threadIdx.x == 0) detail::spread_block = {chunk, chunks, first, (unsigned)*lo, false};
  block_barrier();
  return true;
}

OMPGPU_DEV bool spread_split() { return detail::spread_block.chunks > 1; }
OMPGPU_DEV unsigned spread_chunk() { return detail::spread_block.chunk; }
// The part of the region's loop [0, n) that this block deals over its threads: with the
// iteration split over several blocks, the chunk's contiguous slice (neighbouring threads on
// neighbouring iterations, as in one block); otherwise the whole loop. Slices, not a stride of
// team x chunks: the threads' stride stays the compile-time team size, which the loop of an
// unsplit iteration needs to run as fast as a kernel without spreading (a stride read at run
// time made particlefilter's unsplit kernels 2x slower on an H200, 2026-11-27).
OMPGPU_DEV void spread_slice(long long n, unsigned thread, long long *first, long long *end) {
  const unsigned chunks = detail::spread_block.chunks;
  long long begin = 0, stop = n;
  if (chunks > 1 && n > 0) {
    const long long c = detail::spread_block.chunk, q = n / chunks, r = n % chunks;
    begin = q * c + (c < r ? c : r);
    stop = begin + q + (c < r ? 1 : 0);
  }
  *first = begin + thread;
  *end = stop;
}

// This block's cell for reduction item `item` of `items`.
OMPGPU_DEV unsigned long long *spread_cell(void *scratch, unsigned items, unsigned item, unsigned block) {
  return static_cast<unsigned long long *>(scratch) + gridDim.x + (unsigned long long)block * items + item;
}

// The block's partial of one reduction item into its cell (thread 0).
template <class T>
OMPGPU_DEV void spread_put(const T *value, void *scratch, unsigned items, unsigned item) {
  static_assert(sizeof(T) <= sizeof(unsigned long long), "a spread reduction item fits a cell");
  *reinterpret_cast<volatile T *>(spread_cell(scratch, items, item, blockIdx.x)) = *value;
}

// Every thread of the block: the block's writes and partials are made visible, then it counts
// itself in. True in the iteration's last block (which sets the count back to zero).
OMPGPU_DEV bool spread_arrive(void *scratch) {
  __threadfence();
  block_barrier();
  if (threadIdx.x == 0) {
    unsigned *count = static_cast<unsigned *>(scratch) + 2 * detail::spread_block.iteration;
    const bool last = atomicAdd(count, 1u) == detail::spread_block.chunks - 1;
    if (last) {
      *count = 0;
      __threadfence();
    }
    detail::spread_block.last = last;
  }
  block_barrier();
  return detail::spread_block.last;
}

// The last block (every thread calls it; a block barrier follows): the item's partials of all
// the iteration's blocks, combined into *value. Warp 0 reads them, lane l the chunks l, l+32,
// ... in order, then the lanes combine by shuffles: a fixed order (the same result every run),
// and a few dependent loads where one thread's walk over backprop's 66 partials took 66.
template <class T>
OMPGPU_DEV void spread_gather(RedOp op, T *value, void *scratch, unsigned items, unsigned item) {
  const unsigned first = detail::spread_block.first_block, chunks = detail::spread_block.chunks;
  auto cell = [&](unsigned c) { return *reinterpret_cast<volatile T *>(spread_cell(scratch, items, item, first + c)); };
  if (blockDim.x < 32u) {   // no whole warp: thread 0 alone
    if (threadIdx.x == 0) {
      T acc = cell(0);
      for (unsigned c = 1; c < chunks; ++c) acc = detail::op_apply<T>((AtomicOp)op, acc, cell(c));
      *value = acc;
    }
    return;
  }
  if (threadIdx.x >= 32u) return;
  using S = typename detail::red_work<T>::type;
  S acc = (S)red_identity<T>(op);
  for (unsigned c = threadIdx.x; c < chunks; c += 32u) acc = detail::op_apply<S>((AtomicOp)op, acc, (S)cell(c));
  acc = detail::warp_reduce<S>(op, acc, 32u);
  if (threadIdx.x == 0) *value = (T)acc;
}

}  // namespace ompgpu

#endif  // OMPGPU_DEVICE_SPREAD_CUH
