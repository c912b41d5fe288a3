// ompgpu device runtime: team state in shared memory, per-thread state, the soft stack.
//
// Team state (one per team/CTA, static shared memory): execution mode, the fork word
// (work-function id, team size, argument pointer), the argument-pack buffer, ICVs, the
// dynamic/guided dispatch ring, the soft-stack bookkeeping.
//
// Per-thread state (one 32-bit word per thread, indexed by threadIdx.x, sized by
// OMPGPU_MAX_BLOCK), so that every query is a single shared-memory load:
//   ser   depth of serialized (team-of-one) parallel regions this thread is inside
//   seq   number of dynamic/guided loops this thread started in the current region
//   par   1 while the thread is a member of the team's real parallel region (generic
//         workers always, SPMD threads inside `parallel`), 0 for the generic master and
//         SPMD serial code
//   size  team size of that region (a worker writes it when it leaves the fork barrier)
// Hence omp_get_level() = par + ser, and the thread is in a team of one iff !par || ser.
//
// Soft stack: globally addressable LIFO storage for variables that parallel regions share.
//   - Team stack (the generic master; SPMD serial code, collectively): a per-team slice of
//     static shared memory (OMPGPU_SOFT_STACK_SHARED bytes), continued in a per-team slice
//     of global memory (OMPGPU_SOFT_STACK_GLOBAL bytes) once a frame does not fit. The
//     global slice is claimed from a static OMPGPU_DEVICE pool (OMPGPU_SOFT_STACK_GLOBAL_POOL
//     bytes) on first use with an atomic owner flag per slice (probe starts at blockIdx.x
//     modulo the slice count, so co-resident teams never share a slice) and released when
//     the stack shrinks back into shared memory; with every slice taken it falls back to
//     device malloc. Overflow prints
//       ompgpu: soft stack overflow in team T (needed N bytes, M available)
//     and traps (the emulator exits with status 3).
//   - Private frames (a thread inside a parallel region, where only that thread can see
//     the frame): device malloc, chained per thread.
#ifndef OMPGPU_DEVICE_STATE_CUH
#define OMPGPU_DEVICE_STATE_CUH

#include "mapping.cuh"

namespace ompgpu {

enum ExecMode : int { MODE_GENERIC = 0, MODE_SPMD = 1 };

namespace detail {

constexpr unsigned WS_RING = 4;  // dispatch descriptors in flight per team (nowait depth)

// Shared part of a dynamic/guided loop; only ever accessed with atomics (workshare.cuh).
struct DispatchSlot {
  unsigned long long next;  // first iteration not handed out yet
  unsigned finished;        // threads that left the loop (ws_dispatch_fini)
};

// Per-thread context for the rare paths (frames/loops of a thread inside a parallel
// region that has no one to share them with); allocated per team on first need.
struct PrivCtx {
  void *stack_head;
};

// The fork word: written by the master before the fork barrier, read by the workers after
// it with one 16-byte load. The master's fork path has no load: it stores the team size
// when num_threads is given (computed from blockDim), else 0 and the workers use dflt.
// 32-bit fields: the workers use them as loaded (16-bit ones cost an extraction each on the
// path from the fork barrier to the work function).
struct alignas(16) ForkWord {
  int fn;         // work-function id
  int size;       // team size of the fork, 0 = dflt
  int dflt;       // team size of a fork without num_threads (nthreads ICV or all workers)
  int unused;
};

struct TeamState {
  ForkWord fork;
  void *fork_args;  // argument pack of a fork whose pack does not fit argbuf (on the team stack)
  int mode;
  // the most threads a parallel region of this team gets (thread-limit-var): a generic team's
  // workers are whole warps, and a thread_limit(16) team must not run its regions on 32
  unsigned thread_limit;
  // ICVs (nthreads lives in the fork word)
  int icv_max_active_levels;
  int icv_dynamic;
  // dispatch ring: ws_tag[i] = loop sequence number slot i is free for (mod 256)
  alignas(16) unsigned ws_tag[WS_RING];
  // soft stack
  unsigned stack_top;   // offset: [0, SHARED) shared slice, [SHARED, SHARED+GLOBAL) global slice
  unsigned stack_skip;  // bytes of the shared slice left unused when the stack moved to global
  int gslot;            // pool slice index, -1 = malloc'd or none
  char *gbase;          // global slice base, nullptr when none is held
  void *spmd_frame;     // SPMD collective push: the frame all threads return
  // counting barrier of a team with a partial last warp (parallelism.cuh)
  unsigned count_bar_arrived;
  unsigned count_bar_round;
  // private contexts
  PrivCtx *priv;
  int priv_refs;
  int priv_lock;
  DispatchSlot ring[WS_RING];
  alignas(16) unsigned char argbuf[OMPGPU_ARGBUF_BYTES];
};

struct ThreadState {
  unsigned char ser;
  unsigned char seq;
  unsigned short ps;  // bit 0: par, bits 1..15: team size
  OMPGPU_DEV bool par() const { return (ps & 1u) != 0; }
  OMPGPU_DEV unsigned size() const { return (unsigned)ps >> 1; }
};
union ThreadStateWord {
  unsigned word;
  ThreadState s;
};
// The word of a thread with ser = seq = 0 in a region (par) of `size` threads or not.
OMPGPU_DEV constexpr unsigned ts_word(bool par, unsigned size) { return (size << 17) | (par ? 1u << 16 : 0u); }

struct alignas(16) SoftStackShared {
  char b[OMPGPU_SOFT_STACK_SHARED];
};

static OMPGPU_SHARED TeamState team_state;
static OMPGPU_SHARED ThreadStateWord thread_state[OMPGPU_MAX_BLOCK];
static OMPGPU_SHARED SoftStackShared soft_stack_shared;

constexpr unsigned SS_SHARED = OMPGPU_SOFT_STACK_SHARED;
constexpr unsigned SS_GLOBAL = OMPGPU_SOFT_STACK_GLOBAL;
constexpr unsigned SS_SLICES = (unsigned)(OMPGPU_SOFT_STACK_GLOBAL_POOL / OMPGPU_SOFT_STACK_GLOBAL);
struct alignas(16) SoftStackPool {
  char b[SS_SLICES > 0 ? (size_t)SS_SLICES * SS_GLOBAL : 16];
};
static OMPGPU_DEVICE SoftStackPool soft_stack_pool;
static OMPGPU_DEVICE unsigned soft_stack_owner[SS_SLICES > 0 ? SS_SLICES : 1];

OMPGPU_DEV TeamState &team() { return team_state; }
OMPGPU_DEV ThreadState thr() {
  ThreadStateWord w;
  w.word = thread_state[threadIdx.x].word;
  return w.s;
}
OMPGPU_DEV ThreadState &thr_ref() { return thread_state[threadIdx.x].s; }
OMPGPU_DEV void thr_init(unsigned word) { thread_state[threadIdx.x].word = word; }

// Dispatch ring: slot i free for loop i.
OMPGPU_DEV void reset_ws_tags(TeamState &t) {
  for (unsigned i = 0; i < WS_RING; i++) t.ws_tag[i] = i;
}

OMPGPU_DEV void init_team(int mode) {
  TeamState &t = team_state;
  t.fork.fn = 0;
  t.fork.size = 0;
  t.fork.dflt = 0;
  t.fork.unused = 0;
  t.fork_args = t.argbuf;
  t.mode = mode;
  t.thread_limit = 0;
  t.icv_max_active_levels = 1;
  t.icv_dynamic = 0;
  t.count_bar_arrived = 0;
  t.count_bar_round = 0;
  reset_ws_tags(t);
  for (unsigned i = 0; i < WS_RING; i++) {
    t.ring[i].next = 0;
    t.ring[i].finished = 0;
  }
  t.stack_top = 0;
  t.stack_skip = 0;
  t.gslot = -1;
  t.gbase = nullptr;
  t.spmd_frame = nullptr;
  t.priv = nullptr;
  t.priv_refs = 0;
  t.priv_lock = 0;
}

// Position of the calling thread in its innermost team.
struct TeamPos {
  unsigned tid;
  unsigned n;
};
OMPGPU_DEV TeamPos team_pos() {
  ThreadState s = thr();
  if (s.par() && s.ser == 0) return TeamPos{threadIdx.x, s.size()};
  return TeamPos{0u, 1u};
}
// True when the calling thread is a member of the team's real (multi-thread capable)
// parallel region and not inside a serialized nested one.
OMPGPU_DEV bool in_team_region(ThreadState s) { return s.par() && s.ser == 0; }

// ---------------------------------------------------------------------------------------
// Cold paths
// ---------------------------------------------------------------------------------------
OMPGPU_COLD void fail_stack_overflow(unsigned needed, unsigned available) {
  OMPGPU_FAIL("ompgpu: soft stack overflow in team %u (needed %u bytes, %u available)\n", (unsigned)blockIdx.x,
              needed, available);
}

OMPGPU_COLD void fail_misuse(const char *what) {
  OMPGPU_FAIL("ompgpu: device runtime misuse in team %u thread %u: %s\n", (unsigned)blockIdx.x,
              (unsigned)threadIdx.x, what);
}

OMPGPU_COLD void fail_launch(const char *what) {
  OMPGPU_FAIL("ompgpu: %s (block of %u threads, OMPGPU_MAX_BLOCK %u)\n", what, (unsigned)blockDim.x,
              (unsigned)OMPGPU_MAX_BLOCK);
}

// Claim a global slice for this team's stack; nullptr when none can be had.
OMPGPU_COLD char *claim_global_slice() {
  TeamState &t = team_state;
  if (SS_SLICES > 0) {
    unsigned start = blockIdx.x % (SS_SLICES > 0 ? SS_SLICES : 1u);
    for (unsigned i = 0; i < SS_SLICES; i++) {
      unsigned s = start + i;
      if (s >= SS_SLICES) s -= SS_SLICES;
      if (atomicCAS(&soft_stack_owner[s], 0u, 1u) == 0u) {
        __threadfence();
        t.gslot = (int)s;
        return soft_stack_pool.b + (size_t)s * SS_GLOBAL;
      }
    }
  }
  char *p = (char *)malloc(SS_GLOBAL);
  t.gslot = -1;
  return p;
}

OMPGPU_COLD void release_global_slice() {
  TeamState &t = team_state;
  if (!t.gbase) return;
  __threadfence();
  if (t.gslot >= 0)
    atomicExch(&soft_stack_owner[t.gslot], 0u);
  else
    free(t.gbase);
  t.gbase = nullptr;
  t.gslot = -1;
}

// A frame of b bytes (multiple of 16) that does not fit in the rest of the shared slice.
OMPGPU_COLD void *team_stack_push_slow(unsigned b) {
  TeamState &t = team_state;
  unsigned top = t.stack_top;
  unsigned skip = 0;
  if (top < SS_SHARED) {  // first frame in global memory: leave the shared tail unused
    skip = SS_SHARED - top;
    top = SS_SHARED;
  }
  unsigned used = top - SS_SHARED;
  // "available": the largest frame that could be pushed now
  if (b > SS_GLOBAL - used) fail_stack_overflow(b, (SS_GLOBAL - used) > skip ? (SS_GLOBAL - used) : skip);
  if (!t.gbase) {
    char *g = claim_global_slice();
    if (!g) fail_stack_overflow(b, skip);
    t.gbase = g;
  }
  if (skip) t.stack_skip = skip;
  t.stack_top = top + b;
  return t.gbase + used;
}

OMPGPU_COLD void team_stack_pop_slow(unsigned old, unsigned b) {
  TeamState &t = team_state;
  if (b > old) fail_misuse("stack_pop of more bytes than were pushed");
  unsigned top = old - b;
  if (top <= SS_SHARED) {  // the stack moved back into shared memory
    release_global_slice();
    top = SS_SHARED - t.stack_skip;
    t.stack_skip = 0;
  }
  t.stack_top = top;
}

// ---------------------------------------------------------------------------------------
// Team stack: one thread at a time (the generic master; thread 0 for SPMD)
// ---------------------------------------------------------------------------------------
OMPGPU_DEV void *team_stack_push(unsigned bytes) {
  TeamState &t = team_state;
  unsigned b = (bytes + 15u) & ~15u;
  unsigned top = t.stack_top;
  if (top + b <= SS_SHARED) {
    t.stack_top = top + b;
    return soft_stack_shared.b + top;
  }
  return team_stack_push_slow(b);
}

OMPGPU_DEV void team_stack_pop(unsigned bytes) {
  TeamState &t = team_state;
  unsigned b = (bytes + 15u) & ~15u;
  unsigned old = t.stack_top;
  if (old <= SS_SHARED && b <= old) {
    t.stack_top = old - b;
    return;
  }
  team_stack_pop_slow(old, b);
}

// ---------------------------------------------------------------------------------------
// Private contexts (cold): a per-team array of PrivCtx, one per thread, allocated with
// device malloc by the first thread that needs it and freed when the last user lets go.
// ---------------------------------------------------------------------------------------
OMPGPU_DEV void priv_lock() {
  unsigned ns = 32;
  while (atomicCAS(&team_state.priv_lock, 0, 1) != 0) {
    spin_pause(ns);
    if (ns < 1024) ns <<= 1;
  }
  __threadfence();
}
OMPGPU_DEV void priv_unlock() {
  __threadfence();
  atomicExch(&team_state.priv_lock, 0);
}

OMPGPU_COLD PrivCtx *priv_acquire() {
  TeamState &t = team_state;
  priv_lock();
  PrivCtx *p = *(PrivCtx *volatile *)&t.priv;
  if (!p) {
    size_t bytes = (size_t)blockDim.x * sizeof(PrivCtx);
    p = (PrivCtx *)malloc(bytes);
    if (!p) {
      priv_unlock();
      OMPGPU_FAIL("ompgpu: out of device heap for private runtime state in team %u (%u bytes)\n",
                  (unsigned)blockIdx.x, (unsigned)bytes);
      return nullptr;
    }
    memset(p, 0, bytes);
    *(PrivCtx *volatile *)&t.priv = p;
  }
  *(volatile int *)&t.priv_refs = *(volatile int *)&t.priv_refs + 1;
  priv_unlock();
  return p + threadIdx.x;
}

// The calling thread's context; only while it holds a reference.
OMPGPU_DEV PrivCtx *priv_current() { return (*(PrivCtx *volatile *)&team_state.priv) + threadIdx.x; }

OMPGPU_COLD void priv_release() {
  TeamState &t = team_state;
  priv_lock();
  int r = *(volatile int *)&t.priv_refs - 1;
  *(volatile int *)&t.priv_refs = r;
  if (r == 0) {
    free(*(PrivCtx *volatile *)&t.priv);
    *(PrivCtx *volatile *)&t.priv = nullptr;
  }
  priv_unlock();
}

OMPGPU_COLD void *priv_stack_push(unsigned bytes) {
  PrivCtx *c = priv_acquire();
  unsigned b = (bytes + 15u) & ~15u;
  char *m = (char *)malloc((size_t)b + 16u);
  if (!m) fail_stack_overflow(b, 0);
  *(void **)m = c->stack_head;
  c->stack_head = m;
  return m + 16;
}

OMPGPU_COLD void priv_stack_pop(unsigned) {
  PrivCtx *c = priv_current();
  char *m = (char *)c->stack_head;
  if (!m) fail_misuse("stack_pop without a matching stack_push");
  c->stack_head = *(void **)m;
  free(m);
  priv_release();
}

// SPMD serial code: every thread of the block calls push/pop in the same order (uniform,
// converged code); one frame is shared by the whole team.
OMPGPU_COLD void *spmd_stack_push(unsigned bytes) {
  unsigned cnt = warp_round_up(blockDim.x);
  barrier_sync<BARRIER_REGION>(cnt);
  if (threadIdx.x == 0) team_state.spmd_frame = team_stack_push(bytes);
  barrier_sync<BARRIER_REGION>(cnt);
  return *(void *volatile *)&team_state.spmd_frame;
}
OMPGPU_COLD void spmd_stack_pop(unsigned bytes) {
  barrier_sync<BARRIER_REGION>(warp_round_up(blockDim.x));
  if (threadIdx.x == 0) team_stack_pop(bytes);
}

}  // namespace detail

// ---------------------------------------------------------------------------------------
// Soft stack API
// ---------------------------------------------------------------------------------------
// 16-byte aligned storage of `bytes`. On the generic master it comes from the team stack;
// in SPMD serial code it is collective (all threads, same order, returns one shared frame,
// includes two team barriers); inside a parallel region the frame is private to the thread.
OMPGPU_DEV void *stack_push(unsigned bytes) {
  detail::ThreadState s = detail::thr();
  if (!s.par()) {
    if (detail::team_state.mode == MODE_GENERIC) return detail::team_stack_push(bytes);
    return detail::spmd_stack_push(bytes);
  }
  return detail::priv_stack_push(bytes);
}

// The same, but on the generic master the frame comes from the team's global slice even when
// the shared slice has room. Popped with stack_pop.
OMPGPU_DEV void *stack_push_global(unsigned bytes) {
  detail::ThreadState s = detail::thr();
  if (!s.par() && detail::team_state.mode == MODE_GENERIC) return detail::team_stack_push_slow((bytes + 15u) & ~15u);
  return stack_push(bytes);
}

// Pops the most recent push of the same context (LIFO), same byte count.
OMPGPU_DEV void stack_pop(unsigned bytes) {
  detail::ThreadState s = detail::thr();
  if (!s.par()) {
    if (detail::team_state.mode == MODE_GENERIC) {
      detail::team_stack_pop(bytes);
      return;
    }
    detail::spmd_stack_pop(bytes);
    return;
  }
  detail::priv_stack_pop(bytes);
}

// RAII frame for a function's escaping locals.
struct StackFrame {
  void *base;
  unsigned bytes;
  OMPGPU_DEV explicit StackFrame(unsigned n) : base(stack_push(n)), bytes(n) {}
  OMPGPU_DEV ~StackFrame() { stack_pop(bytes); }
  StackFrame(const StackFrame &) = delete;
  StackFrame &operator=(const StackFrame &) = delete;
};

}  // namespace ompgpu

#endif  // OMPGPU_DEVICE_STATE_CUH
