// Inner loops spread across the grid (KernelPlan.spread, codegen's spread remark).
//
// A lean SPMD kernel that is one `teams distribute` loop whose iterations each run one parallel
// loop (a reduction at most) leaves most of the GPU idle when one iteration holds much more work
// than one block does quickly: backprop's 16 hidden units each summed a million products on one
// block of a 132-SM GPU; sparserows' longest row holds a million of its 3.6 million nonzeros.
// Such an iteration runs on several blocks, each a "chunk" of the region's loop:
//
// - split at the launch: where the grid has at least two blocks per iteration, each iteration
//   gets league / n blocks, each a contiguous slice of the region's loop (spread_slice);
// - split on the way: otherwise each block runs its own iterations (a static block of them,
//   with no barrier between them), and one whose region's loop holds at least
//   SPREAD_PUBLISH_CHUNKS chunks of SPREAD_CHUNK_PER_THREAD iterations per thread and
//   SPREAD_IMBALANCE times the block's earlier iterations' loops on average (its only
//   iteration, or its first holding SPREAD_FIRST_CHUNKS chunks: no earlier ones; loops
//   shorter than the team count as the team's size, so that short iterations cost no
//   bookkeeping) publishes the iteration as a job, runs its
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
// launch_scratch): league x (40 + 264 x items) bytes, the layout below, which codegen's
// spread_scratch_bytes mirrors. The kernel leaves it zeroed (the next launch's grid, and so its
// layout, may differ) but for its jobs: an iteration's last chunk resets its count and its
// cells, and a job is valid only in the launch whose epoch it carries (the host numbers the
// launches on a scratch), so nobody clears the jobs; a launch clears the job counters of the
// next (two sets, by the epoch's parity). Counting every block out to find the last one cost
// particlefilter's short kernel 9 us of its 22 (thousands of atomics on one address, H200).
// Without scratch the kernel runs as it would without spreading (a static block of whole
// iterations per block).
//
// "Block" above is the team: a team per block (Lanes 0, the default), or a packed team of one
// warp (Lanes 32: sparserows' rows of a nonzero or two on warp teams, several per block), whose
// state is its own element of spread_teams, whose barrier is its warp's and whose number and
// league (the teams of the launch) the kernel passes in; the scratch holds a team's share for
// every team of the league.
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
// A team's first iteration, which has no earlier ones to compare with, where it holds at least
// this many chunks (512 iterations per thread): rowmix's rows of 20000 nonzeros every 512th row,
// dealt to warp teams 8 rows each, ran alone on their warp wherever one was its team's first
// (0.63 ms against 0.15 on teams of 256 threads, H200, bench/results/s9-h200-2026-11-28-run3).
constexpr long long SPREAD_FIRST_CHUNKS = 32;
// Cells for this many job chunks (of `items` cells each) per team of the league.
constexpr unsigned SPREAD_JOB_CHUNKS_PER_BLOCK = 32;
// Packed teams per block at most (plan/mode.py PACKED_TEAMS: warp teams, four to a block).
constexpr unsigned SPREAD_MAX_TEAMS = 4;

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
  unsigned team, league;          // the team's number, and the launch's teams
  long long first_own, own;       // the block's first own iteration, and how many it runs
  // thread 0's count of the block's earlier own iterations whose loop held at least a team's
  // worth, and of those loops' iterations (the cost rule's average)
  long long long_items, long_iters;
  // Once the own iterations are done, the jobs to look at: from `from` (the team's number modulo
  // the jobs published when it first looked) on, then from 0 up to `from`; `scan` and
  // `scan_low` are the next of each (a job is looked at until no chunk of it is left).
  unsigned from, scan, scan_low;
  bool looked;
  // the item being run
  SpreadItem kind;
  long long iteration;
  unsigned chunk_iters;           // 0: a slice of the loop (split at the launch)
  unsigned chunk, chunks;         // chunks 1: the whole iteration
  unsigned first_cell;            // chunk 0's cells: among the blocks' (split at the launch) or the jobs'
  bool job_cells, found, last;
  unsigned *count;                // the iteration's arrival count
};
static OMPGPU_SHARED SpreadBlock spread_teams[SPREAD_MAX_TEAMS];

// The calling thread's team: the block (Lanes 0) or its warp (Lanes 32).
template <unsigned Lanes>
struct SpreadTeam {
  static_assert(Lanes == 0u || Lanes == 32u, "spread teams are blocks or warps");
  static OMPGPU_DEV SpreadBlock &state() { return spread_teams[Lanes ? threadIdx.x / 32u : 0u]; }
  static OMPGPU_DEV unsigned rank() { return Lanes ? lane_id() : threadIdx.x; }
  static OMPGPU_DEV unsigned size() { return Lanes ? Lanes : blockDim.x; }
  static OMPGPU_DEV void barrier() {
    if (Lanes) packed_team_barrier();
    else block_barrier();
  }
};

// The layout, for a league of L teams: a header (two sets, by the epoch's parity, of: jobs
// published, job chunks given cells) and L - 1 jobs in 32 x L bytes; an arrival count (8 bytes)
// per team; `items` cells per team; `items` cells per job chunk, SPREAD_JOB_CHUNKS_PER_BLOCK
// chunks per team.
OMPGPU_DEV unsigned *spread_header(void *scratch, unsigned epoch) {
  return static_cast<unsigned *>(scratch) + 2 * (epoch & 1u);
}
OMPGPU_DEV SpreadJob *spread_jobs(void *scratch) {
  return reinterpret_cast<SpreadJob *>(static_cast<char *>(scratch) + 32);
}
OMPGPU_DEV unsigned spread_job_capacity(const SpreadBlock &b) { return b.league - 1; }
OMPGPU_DEV unsigned *spread_counts(const SpreadBlock &b) {
  return reinterpret_cast<unsigned *>(static_cast<char *>(b.scratch) + 32ull * b.league);
}
OMPGPU_DEV unsigned long long *spread_cells(const SpreadBlock &b, unsigned items, bool job_cells) {
  unsigned long long *teams = reinterpret_cast<unsigned long long *>(static_cast<char *>(b.scratch) + 40ull * b.league);
  return job_cells ? teams + (unsigned long long)b.league * items : teams;
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

// Every thread, before the distribute loop: the team's own iterations [*lo, *hi) (the loop
// runs them with no barrier between them), as distribute_static_block deals them to team `team`
// of `league`, or its chunk of one iteration split at the launch (none for a spare team).
template <unsigned Lanes = 0>
OMPGPU_DEV void spread_distribute_begin(long long n, void *scratch, unsigned epoch, unsigned team, unsigned league,
                                        long long *lo, long long *hi) {
  using T = detail::SpreadTeam<Lanes>;
  const bool split = scratch != nullptr && n > 0 && 2 * n <= (long long)league;
  const unsigned chunks = split ? league / (unsigned)n : 1u;
  if (split) {
    *lo = team / chunks;
    *hi = team < (unsigned)n * chunks ? *lo + 1 : *lo;   // a spare team: job chunks only
  } else if (!distribute_static_block(n, lo, hi, team, league)) {
    *lo = *hi = 0;
  }
  if (T::rank() == 0) {
    detail::SpreadBlock b = {};
    b.scratch = scratch;
    b.epoch = epoch;
    b.team = team;
    b.league = league;
    if (scratch != nullptr && team == 0) {   // the next launch's counters (the last one's are done with)
      unsigned *next = detail::spread_header(scratch, epoch + 1u);
      next[0] = next[1] = 0u;
    }
    b.first_own = *lo;
    b.own = *hi - *lo;
    detail::spread_whole(b);
    if (split) {
      b.kind = detail::SPREAD_SPLIT;
      b.chunk = team % chunks;
      b.chunks = chunks;
      b.first_cell = team - b.chunk;
      b.count = detail::spread_counts(b) + 2 * *lo;
    }
    T::state() = b;
  }
  T::barrier();
}

// Every thread, at each of the team's own iterations: its thread 0 notes it (only thread 0 reads
// it: no barrier).
template <unsigned Lanes = 0>
OMPGPU_DEV void spread_own(long long iteration) {
  using T = detail::SpreadTeam<Lanes>;
  if (T::rank() == 0) T::state().iteration = iteration;
}

// Every thread, once the team's own iterations are done: a chunk of a job, its distribute
// iteration in *iteration; false when no job has a chunk left.
template <unsigned Lanes = 0>
OMPGPU_DEV bool spread_help(long long *iteration) {
  using T = detail::SpreadTeam<Lanes>;
  detail::SpreadBlock &b = T::state();
  T::barrier();   // every thread has read the last item's state
  if (T::rank() == 0) {
    b.found = false;
    if (b.scratch != nullptr) {
      detail::SpreadJob *jobs = detail::spread_jobs(b.scratch);
      const unsigned published = detail::volatile_read(*detail::spread_header(b.scratch, b.epoch));
      const unsigned capacity = detail::spread_job_capacity(b);
      const unsigned limit = published < capacity ? published : capacity;
      // Each team looks at the jobs from its own one on (see `from`): thousands of teams that
      // took them in the same order all added to the first job's chunk count, most after its
      // last chunk was gone (rowmix's 128 jobs of 40 chunks: 0.63 ms, H200, run 4).
      if (!b.looked) {
        b.looked = true;
        b.from = limit ? b.team % limit : 0u;
        b.scan = b.from;
      }
      for (;;) {
        const bool high = b.scan < limit;
        if (!high && b.scan_low >= b.from) break;
        const unsigned at = high ? b.scan : b.scan_low;
        detail::SpreadJob &j = jobs[at];
        // not yet published (its owner runs it), never, or by another launch
        if (detail::volatile_read(j.ready) != b.epoch) {
          ++(high ? b.scan : b.scan_low);
          continue;
        }
        __threadfence();   // the job's fields, written before `ready`
        const unsigned chunks = detail::volatile_read(j.chunks);
        const unsigned c = detail::volatile_read(j.next_chunk) < chunks ? atomicAdd(&j.next_chunk, 1u) : chunks;
        if (c >= chunks) {   // every chunk taken
          ++(high ? b.scan : b.scan_low);
          continue;
        }
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
  T::barrier();
  *iteration = b.iteration;
  return b.found;
}

template <unsigned Lanes = 0>
OMPGPU_DEV bool spread_split() { return detail::SpreadTeam<Lanes>::state().chunks > 1; }
template <unsigned Lanes = 0>
OMPGPU_DEV unsigned spread_chunk() { return detail::SpreadTeam<Lanes>::state().chunk; }

namespace detail {
// Thread 0 of a team running a whole iteration whose region's loop has n iterations, at least
// SPREAD_PUBLISH_CHUNKS chunks: publish it as a job where it is far longer than the team's
// other iterations (the cost rule above), the team's item becoming its chunk 0. Nothing where
// no job or no cells are left.
OMPGPU_DEV void spread_publish(SpreadBlock &b, long long n, long long chunk_iters, unsigned team) {
  // The earlier iterations' loops on average, at most: those shorter than a team's worth
  // (thread 0 does not count them, to cost the short ones nothing) count as a team's worth.
  const long long earlier = b.iteration - b.first_own;
  if (earlier == 0 ? b.own != 1 && n < SPREAD_FIRST_CHUNKS * chunk_iters
                   : n < SPREAD_IMBALANCE * ((b.long_iters + (earlier - b.long_items) * team) / earlier)) return;
  unsigned *header = spread_header(b.scratch, b.epoch);
  const unsigned job = atomicAdd(&header[0], 1u);
  if (job >= spread_job_capacity(b)) return;
  SpreadJob &j = spread_jobs(b.scratch)[job];
  const unsigned chunks = (unsigned)((n + chunk_iters - 1) / chunk_iters);
  const unsigned first = atomicAdd(&header[1], chunks);
  if (first + (unsigned long long)chunks > (unsigned long long)SPREAD_JOB_CHUNKS_PER_BLOCK * b.league) return;
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
// the part of it this team runs, dealt over its threads with the constant stride `team`. At a
// whole iteration whose loop holds SPREAD_PUBLISH_CHUNKS chunks (the same test in every thread)
// thread 0 may publish it as a job (a barrier then tells the others); thread 0 alone keeps the
// team's statistics. A chunk of a job is its chunk_iters iterations; a chunk split at the
// launch is a contiguous slice. Slices, not a stride of team x chunks: the threads' stride stays
// the compile-time team size, which the loop of an unsplit iteration needs to run as fast as a
// kernel without spreading (a stride read at run time made particlefilter's kernels 2x slower,
// H200, 2026-11-27).
template <unsigned Lanes = 0>
OMPGPU_DEV void spread_slice(long long n, unsigned thread, unsigned team, long long *first, long long *end) {
  using T = detail::SpreadTeam<Lanes>;
  detail::SpreadBlock &b = T::state();
  *first = thread;
  *end = n;
  if (b.kind == detail::SPREAD_WHOLE) {
    if (n < (long long)team) return;   // a short loop (most of an irregular kernel's): nothing more
    const long long chunk_iters = SPREAD_CHUNK_PER_THREAD * team;
    const bool may_publish = n >= SPREAD_PUBLISH_CHUNKS * chunk_iters && b.scratch != nullptr;
    if (thread == 0) {
      if (may_publish) detail::spread_publish(b, n, chunk_iters, team);
      b.long_items += 1;
      b.long_iters += n;
    }
    if (!may_publish) return;
    T::barrier();
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

namespace detail {
// The team's chunk's cell for reduction item `item` of `items`.
OMPGPU_DEV unsigned long long *spread_cell(const SpreadBlock &b, unsigned items, unsigned item, unsigned chunk) {
  return spread_cells(b, items, b.job_cells) + (unsigned long long)(b.first_cell + chunk) * items + item;
}
}  // namespace detail

// The chunk's partial of one reduction item into its cell (the team's thread 0).
template <unsigned Lanes = 0, class T>
OMPGPU_DEV void spread_put(const T *value, unsigned items, unsigned item) {
  static_assert(sizeof(T) <= sizeof(unsigned long long), "a spread reduction item fits a cell");
  const detail::SpreadBlock &b = detail::SpreadTeam<Lanes>::state();
  *reinterpret_cast<volatile T *>(detail::spread_cell(b, items, item, b.chunk)) = *value;
}

// Every thread of the team: the chunk's writes and partials are made visible, then it counts
// itself in. True in the iteration's last chunk (which sets the count back to zero); the others
// leave the team's state as for a whole iteration.
template <unsigned Lanes = 0>
OMPGPU_DEV bool spread_arrive() {
  using T = detail::SpreadTeam<Lanes>;
  __threadfence();
  T::barrier();
  detail::SpreadBlock &b = T::state();
  if (T::rank() == 0) {
    const bool last = atomicAdd(b.count, 1u) == b.chunks - 1;
    if (last) {
      *b.count = 0;
      __threadfence();
    }
    b.last = last;
  }
  T::barrier();
  const bool last = b.last;
  if (!last) {
    T::barrier();
    if (T::rank() == 0) detail::spread_whole(b);
    T::barrier();
  }
  return last;
}

// Every thread, in the iteration's last chunk once the partials are combined: the team's state
// as for a whole iteration again.
template <unsigned Lanes = 0>
OMPGPU_DEV void spread_done() {
  using T = detail::SpreadTeam<Lanes>;
  T::barrier();
  if (T::rank() == 0) detail::spread_whole(T::state());
  T::barrier();
}

// The last chunk (every thread of the team calls it; a team barrier follows): the item's
// partials of all the iteration's chunks, combined into *value. The team's first warp reads
// them, lane l the chunks l, l+32, ... in order, then the lanes combine by shuffles: a fixed
// order (the same result every run), and a few dependent loads where one thread's walk over
// backprop's 66 partials took 66. Each cell is zeroed once read (every chunk has arrived: nobody
// writes it again): the next launch, whose grid and so whose layout may differ, finds the
// scratch zeroed.
template <unsigned Lanes = 0, class T>
OMPGPU_DEV void spread_gather(RedOp op, T *value, unsigned items, unsigned item) {
  using Team = detail::SpreadTeam<Lanes>;
  const detail::SpreadBlock &b = Team::state();
  const unsigned chunks = b.chunks;
  auto take = [&](unsigned c) {
    volatile unsigned long long *cell = detail::spread_cell(b, items, item, c);
    const T v = *reinterpret_cast<volatile T *>(cell);
    *cell = 0ull;
    return v;
  };
  const unsigned rank = Team::rank();
  if (Team::size() < 32u) {   // no whole warp: thread 0 alone
    if (rank == 0) {
      T acc = take(0);
      for (unsigned c = 1; c < chunks; ++c) acc = detail::op_apply<T>((AtomicOp)op, acc, take(c));
      *value = acc;
    }
    return;
  }
  if (rank >= 32u) return;
  using S = typename detail::red_work<T>::type;
  S acc = (S)red_identity<T>(op);
  for (unsigned c = rank; c < chunks; c += 32u) acc = detail::op_apply<S>((AtomicOp)op, acc, (S)take(c));
  acc = detail::warp_reduce<S>(op, acc, 32u);
  if (rank == 0) *value = (T)acc;
}

}  // namespace ompgpu

#endif  // OMPGPU_DEVICE_SPREAD_CUH
