// Inner loops spread across the grid (KernelPlan.spread, codegen's spread remark).
//
// A lean SPMD kernel that is one `teams distribute` loop whose iterations each run one parallel
// loop (a reduction at most) leaves most of the GPU idle when one iteration holds much more work
// than one block does quickly: backprop's 16 hidden units each summed a million products on one
// block of a 132-SM GPU; sparserows' longest row holds a million of its 3.6 million nonzeros.
// Such an iteration runs on several blocks, each a "chunk" of the region's loop:
//
// - split at the launch: where the grid has at least two blocks per iteration, each iteration
//   gets gridDim.x / n blocks, each a contiguous slice of the region's loop (spread_slice);
// - split on the way: otherwise each block runs its own iterations (a static block of them,
//   with no barrier between them), and one whose region's loop holds at least
//   SPREAD_PUBLISH_CHUNKS chunks of SPREAD_CHUNK_PER_THREAD iterations per thread and
//   SPREAD_IMBALANCE times the block's earlier iterations' loops on average (its only
//   iteration: no earlier ones; loops shorter than the team count as the team's size, so
//   that short iterations cost no bookkeeping) publishes the iteration as a job, runs its
//   chunk 0 and goes on. Every block that has run its own iterations takes the jobs' other
//   chunks, one at a time,
//   until none is left. No block waits for another (so none needs another to be resident),
//   and the owner finishes its job if nobody else does. Iterations of about equal loops are
//   never published: on an H200 (2026-11-27) publishing every long iteration of particlefilter
//   and haccmk made them 3-4x slower; only an iteration far above its block's others pays.
//
// A chunk's block runs the serial code before the region (the planner allows only code without
// side effects there) and its part of the region's loop, puts its reduction partials in the
// chunk's cells and counts itself in (fence, barrier, atomic); the iteration's last chunk to
// arrive combines the partials in chunk order (the same result every run, whichever block ran
// which chunk) and runs the rest of the iteration alone; the others go on with their next item.
//
// The scratch comes from the host runtime per launch, zeroed (runtime/host/target.cpp
// launch_scratch): gridDim.x x (40 + 264 x items) bytes, the layout below, which codegen's
// spread_scratch_bytes mirrors. The kernel leaves it zeroed (the next launch's grid, and so its
// layout, may differ) but for its jobs: an iteration's last chunk resets its count and its
// cells, and a job is valid only in the launch whose epoch it carries (the host numbers the
// launches on a scratch), so nobody clears the jobs; a launch clears the job counters of the
// next (two sets, by the epoch's parity). Counting every block out to find the last one cost
// particlefilter's short kernel 9 us of its 22 (thousands of atomics on one address, H200).
// Without scratch the kernel runs as it would without spreading (a static block of whole
// iterations per block).
#ifndef OMPGPU_DEVICE_SPREAD_CUH
#define OMPGPU_DEVICE_SPREAD_CUH

#include "reduction.cuh"
#include "workshare.cuh"

namespace ompgpu {

// A job's chunk: this many iterations of the region's loop per thread of the team.
constexpr long long SPREAD_CHUNK_PER_THREAD = 16;
// A region's loop is published as a job when it holds at least this many chunks ...
constexpr long long SPREAD_PUBLISH_CHUNKS = 4;
// ... and this many times the block's earlier iterations' loops on average.
constexpr long long SPREAD_IMBALANCE = 8;
// Cells for this many job chunks (of `items` cells each) per block of the grid.
constexpr unsigned SPREAD_JOB_CHUNKS_PER_BLOCK = 32;

namespace detail {
enum SpreadItem : unsigned { SPREAD_WHOLE, SPREAD_SPLIT, SPREAD_HELP };

struct SpreadJob {                // 32 bytes
  long long iteration;            // the distribute iteration (normalized)
  unsigned chunk_iters;           // iterations of the region's loop per chunk
  unsigned first_cell;            // chunk 0's cells among the job cells
  unsigned chunks, next_chunk, done;
  unsigned ready;                 // the epoch of the launch that published it (0: none)
};

struct SpreadBlock {
  void *scratch;                  // NULL: nothing is split
  unsigned epoch;                 // the launch's (runtime/host/device.cpp launch_scratch)
  long long first_own, own;       // the block's first own iteration, and how many it runs
  // thread 0's count of the block's earlier own iterations whose loop held at least a team's
  // worth, and of those loops' iterations (the cost rule's average)
  long long long_items, long_iters;
  unsigned scan;                  // the next job to look at, once the own iterations are done
  // the item being run
  SpreadItem kind;
  long long iteration;
  unsigned chunk_iters;           // 0: a slice of the loop (split at the launch)
  unsigned chunk, chunks;         // chunks 1: the whole iteration
  unsigned first_cell;            // chunk 0's cells: among the blocks' (split at the launch) or the jobs'
  bool job_cells, found, last;
  unsigned *count;                // the iteration's arrival count
};
static OMPGPU_SHARED SpreadBlock spread_block;

// The layout: a header (two sets, by the epoch's parity, of: jobs published, job chunks given
// cells) and gridDim.x - 1 jobs in 32 x gridDim.x bytes; an arrival count (8 bytes) per block;
// `items` cells per block; `items` cells per job chunk, SPREAD_JOB_CHUNKS_PER_BLOCK chunks per
// block.
OMPGPU_DEV unsigned *spread_header(void *scratch, unsigned epoch) {
  return static_cast<unsigned *>(scratch) + 2 * (epoch & 1u);
}
OMPGPU_DEV SpreadJob *spread_jobs(void *scratch) {
  return reinterpret_cast<SpreadJob *>(static_cast<char *>(scratch) + 32);
}
OMPGPU_DEV unsigned spread_job_capacity() { return gridDim.x - 1; }
OMPGPU_DEV unsigned *spread_counts(void *scratch) {
  return reinterpret_cast<unsigned *>(static_cast<char *>(scratch) + 32ull * gridDim.x);
}
OMPGPU_DEV unsigned long long *spread_cells(void *scratch, unsigned items, bool job_cells) {
  unsigned long long *blocks = reinterpret_cast<unsigned long long *>(static_cast<char *>(scratch) + 40ull * gridDim.x);
  return job_cells ? blocks + (unsigned long long)gridDim.x * items : blocks;
}
template <class T>
OMPGPU_DEV T volatile_read(const T &x) { return *reinterpret_cast<const volatile T *>(&x); }

// b as for a whole iteration (thread 0, on the block's state where nobody reads it).
OMPGPU_DEV void spread_whole(SpreadBlock &b) {
  b.kind = SPREAD_WHOLE;
  b.chunk_iters = 0;
  b.chunk = 0;
  b.chunks = 1;
  b.first_cell = 0;
  b.job_cells = false;
  b.count = nullptr;
}
}  // namespace detail

// Every thread, before the distribute loop: the block's own iterations [*lo, *hi) (the loop
// runs them with no barrier between them), as distribute_static_block deals them, or its chunk
// of one iteration split at the launch (none for a spare block).
OMPGPU_DEV void spread_distribute_begin(long long n, void *scratch, unsigned epoch, long long *lo, long long *hi) {
  const bool split = scratch != nullptr && n > 0 && 2 * n <= (long long)gridDim.x;
  const unsigned chunks = split ? gridDim.x / (unsigned)n : 1u;
  if (split) {
    *lo = blockIdx.x / chunks;
    *hi = blockIdx.x < (unsigned)n * chunks ? *lo + 1 : *lo;   // a spare block: job chunks only
  } else if (!distribute_static_block(n, lo, hi)) {
    *lo = *hi = 0;
  }
  if (threadIdx.x == 0) {
    detail::SpreadBlock b = {};
    b.scratch = scratch;
    b.epoch = epoch;
    if (scratch != nullptr && blockIdx.x == 0) {   // the next launch's counters (the last one's are done with)
      unsigned *next = detail::spread_header(scratch, epoch + 1u);
      next[0] = next[1] = 0u;
    }
    b.first_own = *lo;
    b.own = *hi - *lo;
    detail::spread_whole(b);
    if (split) {
      b.kind = detail::SPREAD_SPLIT;
      b.chunk = blockIdx.x % chunks;
      b.chunks = chunks;
      b.first_cell = blockIdx.x - b.chunk;
      b.count = detail::spread_counts(scratch) + 2 * *lo;
    }
    detail::spread_block = b;
  }
  block_barrier();
}

// Every thread, at each of the block's own iterations: thread 0 notes it (only thread 0 reads it:
// no barrier).
OMPGPU_DEV void spread_own(long long iteration) {
  if (threadIdx.x == 0) detail::spread_block.iteration = iteration;
}

// Every thread, once the block's own iterations are done: a chunk of a job, its distribute
// iteration in *iteration; false when no job has a chunk left.
OMPGPU_DEV bool spread_help(long long *iteration) {
  block_barrier();   // every thread has read the last item's state
  if (threadIdx.x == 0) {
    detail::SpreadBlock &b = detail::spread_block;
    b.found = false;
    if (b.scratch != nullptr) {
      detail::SpreadJob *jobs = detail::spread_jobs(b.scratch);
      const unsigned published = detail::volatile_read(*detail::spread_header(b.scratch, b.epoch));
      const unsigned limit = published < detail::spread_job_capacity() ? published : detail::spread_job_capacity();
      for (; b.scan < limit; ++b.scan) {
        detail::SpreadJob &j = jobs[b.scan];
        // not yet published (its owner runs it), never, or by another launch
        if (detail::volatile_read(j.ready) != b.epoch) continue;
        __threadfence();   // the job's fields, written before `ready`
        const unsigned chunks = detail::volatile_read(j.chunks);
        if (detail::volatile_read(j.next_chunk) >= chunks) continue;   // every chunk taken
        const unsigned c = atomicAdd(&j.next_chunk, 1u);
        if (c >= chunks) continue;
        b.kind = detail::SPREAD_HELP;
        b.iteration = detail::volatile_read(j.iteration);
        b.chunk_iters = detail::volatile_read(j.chunk_iters);
        b.chunk = c;
        b.chunks = chunks;
        b.first_cell = detail::volatile_read(j.first_cell);
        b.job_cells = true;
        b.count = &j.done;
        b.found = true;
        break;
      }
    }
  }
  block_barrier();
  *iteration = detail::spread_block.iteration;
  return detail::spread_block.found;
}

OMPGPU_DEV bool spread_split() { return detail::spread_block.chunks > 1; }
OMPGPU_DEV unsigned spread_chunk() { return detail::spread_block.chunk; }

namespace detail {
// Thread 0 of a block running a whole iteration whose region's loop has n iterations, at least
// SPREAD_PUBLISH_CHUNKS chunks: publish it as a job where it is far longer than the block's
// other iterations (the cost rule above), the block's item becoming its chunk 0. Nothing where
// no job or no cells are left.
OMPGPU_DEV void spread_publish(long long n, long long chunk_iters, unsigned team) {
  SpreadBlock &b = spread_block;
  // The earlier iterations' loops on average, at most: those shorter than a team's worth
  // (thread 0 does not count them, to cost the short ones nothing) count as a team's worth.
  const long long earlier = b.iteration - b.first_own;
  if (earlier == 0 ? b.own != 1
                   : n < SPREAD_IMBALANCE * ((b.long_iters + (earlier - b.long_items) * team) / earlier)) return;
  unsigned *header = spread_header(b.scratch, b.epoch);
  const unsigned job = atomicAdd(&header[0], 1u);
  if (job >= spread_job_capacity()) return;
  SpreadJob &j = spread_jobs(b.scratch)[job];
  const unsigned chunks = (unsigned)((n + chunk_iters - 1) / chunk_iters);
  const unsigned first = atomicAdd(&header[1], chunks);
  if (first + (unsigned long long)chunks > (unsigned long long)SPREAD_JOB_CHUNKS_PER_BLOCK * gridDim.x) return;
  j.iteration = b.iteration;
  j.chunk_iters = (unsigned)chunk_iters;
  j.first_cell = first;
  j.chunks = chunks;
  j.next_chunk = 1u;   // chunk 0 is the owner's
  j.done = 0u;
  __threadfence();
  *reinterpret_cast<volatile unsigned *>(&j.ready) = b.epoch;
  b.chunk_iters = (unsigned)chunk_iters;
  b.chunk = 0;
  b.chunks = chunks;
  b.first_cell = first;
  b.job_cells = true;
  b.count = &j.done;
}
}  // namespace detail

// Every thread of the team (thread `thread` of `team`), at the region's loop of n iterations:
// the part of it this block runs, dealt over its threads with the constant stride `team`. At a
// whole iteration whose loop holds SPREAD_PUBLISH_CHUNKS chunks (the same test in every thread)
// thread 0 may publish it as a job (a barrier then tells the others); thread 0 alone keeps the
// block's statistics. A chunk of a job is its chunk_iters iterations; a chunk split at the
// launch is a contiguous slice. Slices, not a stride of team x chunks: the threads' stride stays
// the compile-time team size, which the loop of an unsplit iteration needs to run as fast as a
// kernel without spreading (a stride read at run time made particlefilter's kernels 2x slower,
// H200, 2026-11-27).
OMPGPU_DEV void spread_slice(long long n, unsigned thread, unsigned team, long long *first, long long *end) {
  detail::SpreadBlock &b = detail::spread_block;
  *first = thread;
  *end = n;
  if (b.kind == detail::SPREAD_WHOLE) {
    if (n < (long long)team) return;   // a short loop (most of an irregular kernel's): nothing more
    const long long chunk_iters = SPREAD_CHUNK_PER_THREAD * team;
    const bool may_publish = n >= SPREAD_PUBLISH_CHUNKS * chunk_iters && b.scratch != nullptr;
    if (threadIdx.x == 0) {
      if (may_publish) detail::spread_publish(n, chunk_iters, team);
      b.long_items += 1;
      b.long_iters += n;
    }
    if (!may_publish) return;
    block_barrier();
    if (b.chunks == 1) return;   // not published
  }
  const long long c = b.chunk;
  long long begin, stop;
  if (b.chunk_iters != 0) {
    begin = c * b.chunk_iters;
    stop = begin + b.chunk_iters < n ? begin + b.chunk_iters : n;
  } else {
    const long long q = n / b.chunks, r = n % b.chunks;
    begin = q * c + (c < r ? c : r);
    stop = begin + q + (c < r ? 1 : 0);
  }
  *first = begin + thread;
  *end = stop;
}

// This chunk's cell for reduction item `item` of `items`.
OMPGPU_DEV unsigned long long *spread_cell(unsigned items, unsigned item, unsigned chunk) {
  const detail::SpreadBlock &b = detail::spread_block;
  return detail::spread_cells(b.scratch, items, b.job_cells) + (unsigned long long)(b.first_cell + chunk) * items +
         item;
}

// The chunk's partial of one reduction item into its cell (thread 0).
template <class T>
OMPGPU_DEV void spread_put(const T *value, unsigned items, unsigned item) {
  static_assert(sizeof(T) <= sizeof(unsigned long long), "a spread reduction item fits a cell");
  *reinterpret_cast<volatile T *>(spread_cell(items, item, detail::spread_block.chunk)) = *value;
}

// Every thread of the block: the chunk's writes and partials are made visible, then it counts
// itself in. True in the iteration's last chunk (which sets the count back to zero); the others
// leave the block's state as for a whole iteration.
OMPGPU_DEV bool spread_arrive() {
  __threadfence();
  block_barrier();
  detail::SpreadBlock &b = detail::spread_block;
  if (threadIdx.x == 0) {
    const bool last = atomicAdd(b.count, 1u) == b.chunks - 1;
    if (last) {
      *b.count = 0;
      __threadfence();
    }
    b.last = last;
  }
  block_barrier();
  const bool last = b.last;
  if (!last) {
    block_barrier();
    if (threadIdx.x == 0) detail::spread_whole(detail::spread_block);
    block_barrier();
  }
  return last;
}

// Every thread, in the iteration's last chunk once the partials are combined: the block's state
// as for a whole iteration again.
OMPGPU_DEV void spread_done() {
  block_barrier();
  if (threadIdx.x == 0) detail::spread_whole(detail::spread_block);
  block_barrier();
}

// The last chunk (every thread calls it; a block barrier follows): the item's partials of all
// the iteration's chunks, combined into *value. Warp 0 reads them, lane l the chunks l, l+32,
// ... in order, then the lanes combine by shuffles: a fixed order (the same result every run),
// and a few dependent loads where one thread's walk over backprop's 66 partials took 66. Each
// cell is zeroed once read (every chunk has arrived: nobody writes it again): the next launch,
// whose grid and so whose layout may differ, finds the scratch zeroed.
template <class T>
OMPGPU_DEV void spread_gather(RedOp op, T *value, unsigned items, unsigned item) {
  const unsigned chunks = detail::spread_block.chunks;
  auto take = [&](unsigned c) {
    volatile unsigned long long *cell = spread_cell(items, item, c);
    const T v = *reinterpret_cast<volatile T *>(cell);
    *cell = 0ull;
    return v;
  };
  if (blockDim.x < 32u) {   // no whole warp: thread 0 alone
    if (threadIdx.x == 0) {
      T acc = take(0);
      for (unsigned c = 1; c < chunks; ++c) acc = detail::op_apply<T>((AtomicOp)op, acc, take(c));
      *value = acc;
    }
    return;
  }
  if (threadIdx.x >= 32u) return;
  using S = typename detail::red_work<T>::type;
  S acc = (S)red_identity<T>(op);
  for (unsigned c = threadIdx.x; c < chunks; c += 32u) acc = detail::op_apply<S>((AtomicOp)op, acc, (S)take(c));
  acc = detail::warp_reduce<S>(op, acc, 32u);
  if (threadIdx.x == 0) *value = (T)acc;
}

}  // namespace ompgpu

#endif  // OMPGPU_DEVICE_SPREAD_CUH
