// ompgpu device runtime: kernel entry/exit, the master/worker fork-join handshake, the
// SPMD path, serialized (nested) regions, the team barrier.
//
// Generic protocol (one team = one CTA of W*32 + 32 threads):
//   kernel_init_generic  every thread clears its per-thread state; the master (lane 0 of
//                        the last warp) initializes team state; lanes 1..31 of the master
//                        warp exit (PTX exit; ompgpu_emu_thread_exit under the emulator).
//   fork (master)        pack copied into team state (argbuf, or the team stack when it does
//                        not fit: then its address in fork_args); fork word {fn, size (0 =
//                        default)} stored -- no loads on this path;
//                        bar.sync 8, blockDim.x   (fork: releases the workers)
//                        bar.sync 8, blockDim.x   (join: waits for them)
//   worker loop          bar.sync 8 (fork) -> one 16-byte load of the fork word and, beside
//                        it, of the first bytes of argbuf (the argument pack, when it fits
//                        them: the kernel's packs decide how many) -> team size = the
//                        requested one or dflt, stored in the thread's state word (where a
//                        work function of the kernel may read it) -> run if
//                        threadIdx.x < size -> bar.sync 8 (join), every worker warp; worker 0
//                        then resets the dispatch ring for the next region (off the master's
//                        path: nothing uses the ring between the join and the next fork; left
//                        out with the state store, only worksharing uses the ring).
//   (barrier.sync, the non-aligned form: see fork_join_barrier)
//   kernel_end_generic   fn = WORK_EXIT, one more fork barrier; workers leave their loop.
// Exited lanes count as arrived, so the master warp always counts 32 at barrier 8.
// In-region barriers: bar 7 with the team's thread count (whole warps) or __syncwarp for a
// team inside one warp. Barrier id 0 is the whole block's (block_barrier), with no count.
#ifndef OMPGPU_DEVICE_PARALLELISM_CUH
#define OMPGPU_DEVICE_PARALLELISM_CUH

#include "state.cuh"

namespace ompgpu {

constexpr int WORK_EXIT = -1;  // work-function id that ends the worker loop

// ---------------------------------------------------------------------------------------
// Generic mode
// ---------------------------------------------------------------------------------------
namespace detail {
// The fork/join barrier (id 8, all threads of the block): the non-aligned barrier.sync.
// The .aligned bar.sync would save about 60 cycles per fork-join, but it requires every
// warp to arrive converged, and worker warps are not guaranteed to reconverge after a work
// function: compute-sanitizer's synccheck reported them divergent there on an H100
// (bench/results/programs-h100-2026-11-22-sanitizers.txt), which is undefined behaviour.
// A __syncwarp before each of the workers' barriers did not help: synccheck still reported
// errors in all 25 generic programs tried, and EPCC `parallel` ran 0.136 against 0.138 us at
// 32 threads (bench/results/exp-h100-2026-11-25-generic-fork.txt).
// -DOMPGPU_FORK_BARRIER_ALIGNED=1 brings the aligned form back for experiments.
#ifndef OMPGPU_FORK_BARRIER_ALIGNED
#define OMPGPU_FORK_BARRIER_ALIGNED 0
#endif
OMPGPU_DEV void fork_join_barrier() {
#if OMPGPU_FORK_BARRIER_ALIGNED
  barrier_sync_aligned<BARRIER_FORK_JOIN>(blockDim.x);
#else
  barrier_sync<BARRIER_FORK_JOIN>(blockDim.x);
#endif
}

// The master's side of the same barrier: non-aligned too. An aligned barrier needs every
// thread of the block at the same barrier instruction, and the master meets the workers from
// another one: synccheck reported "divergent thread(s) in block" there when the master's side
// alone was aligned, for no gain (bench/results/exp-h100-2026-11-25-generic-fork.txt).
OMPGPU_DEV void master_fork_join_barrier() { barrier_sync<BARRIER_FORK_JOIN>(blockDim.x); }

OMPGPU_DEV ForkWord load_fork_word() {
#ifdef OMPGPU_EMU
  return team_state.fork;
#else
  static_assert(sizeof(ForkWord) == 16, "fork word");
  unsigned w[4];
  load_shared_v4(&team_state.fork, w);
  ForkWord f;
  memcpy(&f, w, sizeof f);
  return f;
#endif
}

// Team size of a region asking for `req` threads (<= 0: all) out of `avail`: exactly
// min(req, avail), in both modes (a team whose last warp is partial meets on the counting
// barrier, see known_team_barrier).
OMPGPU_DEV unsigned team_size_of(int req, unsigned avail) {
  return (req <= 0 || (unsigned)req >= avail) ? avail : (unsigned)req;
}

// Generic fork: the team comes from the workers (a whole number of warps), at most the team's
// thread limit of them (kernel_init_generic).
OMPGPU_DEV int team_size_for(int req) { return (int)team_size_of(req, team_state.thread_limit); }

}  // namespace detail

// `team_threads`: the team's thread limit, which the host passes (its launch's thread_limit
// clause, else OMP_TEAMS_THREAD_LIMIT); 0 or more than the workers: every worker. The block holds
// the workers in whole warps, so a limit of 16 launches a warp of workers and uses half of it.
OMPGPU_DEV void kernel_init_generic(unsigned team_threads = 0) {
  const unsigned tid = threadIdx.x;
  const unsigned m = blockDim.x - 32u;  // the master thread
  if ((blockDim.x & 31u) != 0u || blockDim.x > OMPGPU_MAX_BLOCK || blockDim.x == 0u)
    detail::fail_launch("generic kernel launched with a block that is not W*32+32 threads (<= OMPGPU_MAX_BLOCK)");
  if (tid > m) thread_exit();  // lanes 1..31 of the master warp
  detail::thr_init(detail::ts_word(tid < m, 0));
  if (tid == m) {
    detail::init_team(MODE_GENERIC);
    detail::team_state.thread_limit = team_threads > 0u && team_threads < m ? team_threads : m;
    detail::team_state.fork.dflt = (short)detail::team_size_for(0);
  }
  // No barrier: workers read team state only after the first fork barrier.
}

// The threads of a generic team's region forked with neither num_threads nor if: the team's
// thread limit of its workers (kernel_init_generic). Read by the region's threads, after the fork.
OMPGPU_DEV unsigned generic_team_threads() { return detail::team_state.thread_limit; }

// True for worker threads (every thread below the master).
OMPGPU_DEV bool is_worker() { return threadIdx.x < blockDim.x - 32u; }

// The most argument-pack bytes a worker loads with the fork word (four 16-byte loads).
constexpr unsigned PREFETCH_MAX_BYTES = 64;

// Words of argument pack that the workers of a kernel whose work functions take the packs
// Packs... load with the fork word: the largest pack that fits PREFETCH_MAX_BYTES (and
// argbuf), in whole 16-byte loads. A larger pack is read where the fork put it.
template <class... Packs>
OMPGPU_DEV constexpr unsigned prefetch_words() {
  unsigned most = 0;
  for (unsigned b : {0u, (unsigned)sizeof(Packs)...})
    if (b <= PREFETCH_MAX_BYTES && b <= OMPGPU_ARGBUF_BYTES && b > most) most = b;
  return (most + 15u) / 16u * 4u;
}

// What a worker learns at a fork: the work function, its team size and the first Words words of
// its argument pack, loaded beside the fork word so that the work function does not wait for a
// second load after the test of the fork word (EPCC `parallel` in generic mode, H100,
// bench/results/exp-h100-2026-11-25-s6-variants.txt).
template <unsigned Words>
struct WorkItem {
  int fn;          // work-function id (WORK_EXIT ends the loop)
  unsigned size;   // team size of the region: threads below it run it
  alignas(16) unsigned pack[Words > 0 ? Words : 1];
  // Is the calling worker in the region's team? (From registers: no reload of the state.)
  OMPGPU_DEV bool in_team() const { return threadIdx.x < size; }
};

// Worker: wait at the fork barrier, return the work item. RegionsUseState: some work function
// of the kernel may read the thread's state word (omp_get_num_threads, worksharing, barriers and
// reductions read the team size there): then it is stored at each fork. A kernel none of whose
// work functions reads it passes false: the workers keep the state of kernel_init_generic (in a
// parallel region, size unknown), and the fork costs about 6 ns less (EPCC `parallel`, H100:
// bench/results/exp-h100-2026-11-25-s6-generic-fork.txt).
template <unsigned Words, bool RegionsUseState = true>
OMPGPU_DEV WorkItem<Words> worker_wait() {
  static_assert(Words % 4u == 0u && Words * 4u <= PREFETCH_MAX_BYTES, "whole 16-byte loads");
  detail::fork_join_barrier();
  const detail::ForkWord f = detail::load_fork_word();  // one 16-byte load
  WorkItem<Words> w;
  if constexpr (Words > 0) {
#pragma unroll
    for (unsigned i = 0; i < Words; i += 4) load_shared_v4(detail::team_state.argbuf + 4u * i, &w.pack[i]);
  }
  const unsigned ts = (unsigned)(f.size ? f.size : f.dflt);
  if constexpr (RegionsUseState) detail::thr_init(detail::ts_word(true, ts));  // par, size; ser = seq = 0
  w.fn = f.fn;
  w.size = ts;
  return w;
}

// Worker: the argument pack of a work function with pack type P, for one call: a copy of the
// words worker_wait loaded when the pack fits them, else where the fork put it (argbuf, or the
// team stack for a pack larger than argbuf).
template <class P, unsigned Words>
class ForkPack {
  static constexpr bool kLoaded = sizeof(P) <= 4u * Words;
  alignas(16) unsigned char copy_[kLoaded ? sizeof(P) : 1];

 public:
  OMPGPU_DEV explicit ForkPack(const WorkItem<Words> &w) {
    static_assert(std::is_trivially_copyable<P>::value && alignof(P) <= 16, "argument packs are copied as bytes");
    if constexpr (kLoaded) memcpy(copy_, w.pack, sizeof(P));
  }
  OMPGPU_DEV const void *get() const {
    if constexpr (kLoaded) return copy_;
    else if constexpr (sizeof(P) <= OMPGPU_ARGBUF_BYTES) return detail::team_state.argbuf;
    else return detail::team_state.fork_args;
  }
};

// Worker: is this thread's number below the team size of the current region?
OMPGPU_DEV bool worker_in_team() { return threadIdx.x < detail::thr().size(); }

// Worker: the join barrier (every worker warp, in the team or not). Then worker 0 makes the
// dispatch ring ready for the next region: after the join nobody uses it, and the next fork
// barrier orders these stores before the region's loops (so the master's fork stores nothing
// but the pack and the fork word). Only worksharing uses the ring, and it reads the thread's
// state: a kernel whose regions use no state (RegionsUseState, see worker_wait) leaves it be.
template <bool RegionsUseState = true>
OMPGPU_DEV void worker_join() {
  detail::fork_join_barrier();
  if constexpr (RegionsUseState)
    if (threadIdx.x == 0) detail::reset_ws_tags(detail::team_state);
}

// True only on the master of a generic kernel outside any parallel region (and with at
// least one worker warp): then `parallel` forks, otherwise it is serialized.
OMPGPU_DEV bool can_fork() {
  detail::ThreadState s = detail::thr();
  return !s.par() && s.ser == 0 && detail::team().mode == MODE_GENERIC && blockDim.x > 32u;
}

namespace detail {

// Team barrier by counting (a team with a partial last warp): each thread reads the round,
// arrives; the last to arrive resets the count and starts the next round; the others wait
// for it. Shared-memory atomics, so the round's stores are visible to every team thread.
// Not inlined: the rare path stays out of the loops that call known_team_barrier, whose
// common paths are then a compare and one barrier instruction. Static: each translation unit
// has its own copy (relocatable device code links several).
static OMPGPU_DEVICE OMPGPU_NOINLINE void counting_team_barrier(unsigned T) {
  TeamState &t = team();
  __threadfence_block();
  const unsigned round = atomicAdd(&t.count_bar_round, 0u);
  if (atomicAdd(&t.count_bar_arrived, 1u) == T - 1u) {
    atomicExch(&t.count_bar_arrived, 0u);
    __threadfence_block();
    atomicAdd(&t.count_bar_round, 1u);
  } else {
    unsigned ns = 32;
    while (atomicAdd(&t.count_bar_round, 0u) == round) {
      spin_pause(ns);
      if (ns < 256u) ns <<= 1;
    }
  }
  __threadfence_block();
}

OMPGPU_DEV void fork_go(int fn, int nt) {
  TeamState &t = team_state;
  t.fork.fn = fn;
  t.fork.size = nt > 0 ? team_size_for(nt) : 0;
  master_fork_join_barrier();     // fork: the workers read the fork word
  master_fork_join_barrier();     // join: the workers are done
}

// The argument pack into the team's buffer. memcpy, not word loads through another type: the
// pack is a struct of typed fields that the master has just stored, and a load through an
// unrelated type may be ordered before those stores (strict aliasing). That happened under the
// emulator at -O2 once the fork site lost the call in front of it (workers got stale pointers).
OMPGPU_DEV void copy_pack(void *dst, const void *src, unsigned size) { memcpy(dst, src, size); }

}  // namespace detail

// Master: run work function `fn` on a team of min(nt or all, workers) worker threads with
// a copy of the argument pack, and wait for it to finish.
OMPGPU_DEV void fork(int fn, const void *pack, unsigned size, int nt) {
  detail::TeamState &t = detail::team();
  if (size <= OMPGPU_ARGBUF_BYTES) {
    if (size) detail::copy_pack(t.argbuf, pack, size);
    detail::fork_go(fn, nt);
  } else {
    void *buf = detail::team_stack_push(size);
    detail::copy_pack(buf, pack, size);
    t.fork_args = buf;
    detail::fork_go(fn, nt);
    detail::team_stack_pop(size);
  }
}

// Typed form (what `fork(id, &pack, sizeof pack, nt)` picks): a struct copy.
template <class P, typename = typename std::enable_if<!std::is_void<P>::value>::type>
OMPGPU_DEV void fork(int fn, const P *pack, unsigned size, int nt) {
  if constexpr (sizeof(P) <= OMPGPU_ARGBUF_BYTES && alignof(P) <= 16 && std::is_trivially_copyable<P>::value) {
    if (size != sizeof(P)) {
      fork(fn, static_cast<const void *>(pack), size, nt);
      return;
    }
    detail::TeamState &t = detail::team();
    *reinterpret_cast<P *>(t.argbuf) = *pack;
    detail::fork_go(fn, nt);
  } else {
    fork(fn, static_cast<const void *>(pack), size, nt);
  }
}

// Master: release the workers for good. The master returns from the kernel afterwards.
OMPGPU_DEV void kernel_end_generic() {
  detail::TeamState &t = detail::team();
  if (t.gbase) detail::release_global_slice();  // unbalanced push/pop: give the slice back
  t.fork.fn = WORK_EXIT;
  detail::master_fork_join_barrier();
}

// ---------------------------------------------------------------------------------------
// SPMD mode
// ---------------------------------------------------------------------------------------
// All threads of the block. in_parallel = 1 (default): the whole kernel body is the
// parallel region (combined constructs). in_parallel = 0: the body starts as serial
// team code (run redundantly by every thread) and spmd_parallel_begin/end bracket each
// parallel region.
OMPGPU_DEV void kernel_init_spmd(int in_parallel = 1) {
  if (blockDim.x > OMPGPU_MAX_BLOCK) detail::fail_launch("SPMD kernel launched with more than OMPGPU_MAX_BLOCK threads");
  detail::thr_init(detail::ts_word(in_parallel != 0, blockDim.x));
  if (threadIdx.x == 0) detail::init_team(MODE_SPMD);
  barrier_sync<BARRIER_REGION>(warp_round_up(blockDim.x));
}

// Enter / leave a parallel region in an SPMD kernel started with in_parallel = 0.
// Both are team barriers (entry: serial-code stores become visible; exit: the implicit
// barrier at the end of `parallel`).
OMPGPU_DEV void spmd_parallel_begin() {
  barrier_sync<BARRIER_REGION>(warp_round_up(blockDim.x));
  detail::thr_ref().ps |= 1u;
}
// The same entry when the serial code before it stored nothing that other threads read
// (what the compiler's SPMD planner guarantees): no barrier, the thread just marks itself.
OMPGPU_DEV void spmd_parallel_begin_uniform() { detail::thr_ref().ps |= 1u; }

// Team size of an SPMD region with num_threads(req): the team comes from the block.
OMPGPU_DEV unsigned spmd_team_size(int req) { return detail::team_size_of(req, blockDim.x); }
// Before such a region of a lean SPMD kernel (no team state set up at its start), by every
// thread of the block: a team of more than a warp that is no whole number of warps and not the
// block meets on the counting barrier (known_team_barrier), whose count and round live in team
// state; shared memory starts undefined on a GPU, so they are zeroed here. Without this, such a
// team (num_threads(40), a conditional lastprivate's barriers) waited for a count it never
// reached on an H200 (session 16, run 10); the emulator's shared variables start at zero.
OMPGPU_DEV void spmd_sized_begin(unsigned ts) {
  if (ts <= 32u || (ts & 31u) == 0u || ts == blockDim.x) return;
  if (threadIdx.x == 0) {
    detail::team_state.count_bar_arrived = 0;
    detail::team_state.count_bar_round = 0;
  }
  block_barrier();
}
// Entry of an SPMD region with num_threads, by the team's threads only (threadIdx.x < ts).
// The loop sequence number is kept: the dispatch ring's tags follow it.
OMPGPU_DEV void spmd_parallel_begin_sized(unsigned ts) { detail::thr_ref().ps = (unsigned short)((ts << 1) | 1u); }
// Exit of such a region, by every thread of the block: the region's barrier, then the
// dispatch ring starts over (only the team's threads advanced their loop sequence numbers),
// and a second barrier so that no thread uses the ring before it is reset.
OMPGPU_DEV void spmd_parallel_end_sized() {
  barrier_sync<BARRIER_SIZED_JOIN>(warp_round_up(blockDim.x));
  detail::ThreadState &s = detail::thr_ref();
  s.seq = 0;
  s.ps = (unsigned short)(blockDim.x << 1);
  if (threadIdx.x == 0) detail::reset_ws_tags(detail::team());
  barrier_sync<BARRIER_SIZED_JOIN>(warp_round_up(blockDim.x));
}
// The end of a sized region of a lean SPMD kernel (no thread state to reset): the whole
// block meets on the sized-join barrier, whose id the region's own barriers (BARRIER_REGION,
// counted over the region's team) never use, so the threads outside the region cannot be
// taken for late members of the team.
OMPGPU_DEV void spmd_sized_join() { barrier_sync<BARRIER_SIZED_JOIN>(warp_round_up(blockDim.x)); }
OMPGPU_DEV void spmd_parallel_end() {
  barrier_sync<BARRIER_REGION>(warp_round_up(blockDim.x));
  detail::thr_ref().ps &= (unsigned short)~1u;
}

// The barrier of a team whose size the compiler knows (threads 0..T-1 of the block): `for`
// without nowait, `#pragma omp barrier`, and the end of a lean SPMD kernel's region.
// A team inside one warp (T <= 32) meets on __syncwarp, which also orders its memory
// accesses. A named barrier counts whole warps and waits for every lane of each warp that is
// not exited. A team of more than 32 threads whose last warp is partial and not the block's
// last (num_threads(40): lanes 40..63 of warp 1 are idle workers at the fork barrier, or SPMD
// threads outside the region) cannot use one: it meets on a counter in team state instead.
// Aligned: the compiler placed this call where every thread of the team executes this very
// instruction (not under a branch of the region's code), so the cheaper bar.sync serves.
//
// A team of exactly one warp (the common thread_limit(32) team) meets on __syncwarp() with the
// constant full mask: with a mask computed from T the same barrier cost about 0.06 us more
// per iteration of the EPCC barrier loop on an H100 (2026-11-25, bench/results/
// exp-h100-2026-11-25-barrier-packing.txt), as the compiler keeps the warp's divergence
// handling around it; the counting path is a call, so the named-barrier path stays short.
//
// WholeBlock: the compiler knows that the team is every thread of the block (an SPMD region
// without num_threads, or one whose num_threads turned out to be the block at its fork site):
// barrier 0 with no count, and none of the tests above.
template <bool Aligned = false, bool WholeBlock = false> OMPGPU_DEV void known_team_barrier(unsigned T) {
  if (WholeBlock) {
    block_barrier<Aligned>();
    return;
  }
  if (T == 32u) {
    __syncwarp();
  } else if (T > 32u) {
    if ((T & 31u) == 0u || T == blockDim.x) {
      if (Aligned)
        barrier_sync_aligned<BARRIER_REGION>(warp_round_up(T));
      else
        barrier_sync<BARRIER_REGION>(warp_round_up(T));
    } else {
      detail::counting_team_barrier(T);
    }
  } else if (T > 1u) {
    // the team's lanes: lanes 0..T-1, or (packed teams of 8 or 16) the calling team's aligned group
    __syncwarp((T & (T - 1u)) == 0u ? packed_team_mask(T) : low_lanes_mask(T));
  }
}

// SPMD serial code runs on every thread: guard side effects with this.
OMPGPU_DEV bool spmd_is_team_leader() { return threadIdx.x == 0; }

// ---------------------------------------------------------------------------------------
// Serialized regions (nested parallel, or no workers): a team of one, level + 1.
// ---------------------------------------------------------------------------------------
OMPGPU_DEV void serialized_begin() {
  detail::ThreadState &s = detail::thr_ref();
  if (s.ser == 255) detail::fail_misuse("parallel regions nested too deeply");
  s.ser = (unsigned char)(s.ser + 1);
}
OMPGPU_DEV void serialized_end() {
  detail::ThreadState &s = detail::thr_ref();
  s.ser = (unsigned char)(s.ser - 1);
}

// ---------------------------------------------------------------------------------------
// #pragma omp barrier and the implicit barriers of worksharing constructs.
// ---------------------------------------------------------------------------------------
OMPGPU_DEV void barrier() {
  detail::ThreadState s = detail::thr();
  const unsigned ts = s.size();
  if (!detail::in_team_region(s)) return;  // team of one
  known_team_barrier(ts);
}

// Lanes of the caller's warp that are in its team (the caller is in a team region).
OMPGPU_DEV unsigned team_warp_lanes() {
  return team_lanes_in_warp(warp_id(), detail::thr().size());
}

}  // namespace ompgpu

#endif  // OMPGPU_DEVICE_PARALLELISM_CUH
