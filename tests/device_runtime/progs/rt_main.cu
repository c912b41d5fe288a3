// Device-runtime test program: generic (warp-specialized) and SPMD kernels written in the
// shape the compiler generates (docs/CONTRACTS.md), covering fork/join and team sizes, API
// queries, in-region barriers, serialized nested regions, the soft stack (shared, global
// fallback, private frames, overflow), big argument packs, every worksharing schedule
// including nowait loops, distribute, critical, single, locks, wtime.
// Usage: rt_main            run all tests, print PASS/FAIL lines, exit 0 iff all pass
//        rt_main overflow   provoke a soft-stack overflow (must abort with the report)
#include "harness.cuh"

// `limit`: the team's thread limit given to kernel_init_generic (0: none, every worker)
__device__ int expect_ts_dev(int nt, int limit = 0) {
  int nw = (int)blockDim.x - 32;
  if (limit > 0 && limit < nw) nw = limit;
  int ts = (nt <= 0 || nt > nw) ? nw : nt;
  return ts;
}

// =====================================================================================
// 1. fork/join, team sizes, API queries
// =====================================================================================
struct PackQ {
  int *hits;
  int ts;
};

__device__ void __omp_outlined_queries(void *args) {
  PackQ *p = (PackQ *)args;
  int t = omp_get_thread_num();
  EXPECT_EQ_I(t, threadIdx.x);
  EXPECT_EQ_I(omp_get_num_threads(), p->ts);
  EXPECT_EQ_I(omp_get_level(), 1);
  EXPECT_EQ_I(omp_get_active_level(), p->ts > 1 ? 1 : 0);
  EXPECT_EQ_I(omp_in_parallel(), p->ts > 1 ? 1 : 0);
  EXPECT_EQ_I(omp_get_ancestor_thread_num(0), 0);
  EXPECT_EQ_I(omp_get_ancestor_thread_num(1), t);
  EXPECT_EQ_I(omp_get_ancestor_thread_num(2), -1);
  EXPECT_EQ_I(omp_get_team_size(0), 1);
  EXPECT_EQ_I(omp_get_team_size(1), p->ts);
  EXPECT_EQ_I(omp_get_team_size(2), -1);
  EXPECT_EQ_I(omp_get_max_threads(), 1);
  EXPECT_EQ_I(omp_get_team_num(), blockIdx.x);
  EXPECT(!ompgpu::can_fork());
  EXPECT_EQ_I(ompgpu::single_begin(), t == 0);
  atomicAdd(&p->hits[blockIdx.x * 1024 + t], 1);
}

extern "C" __global__ void __launch_bounds__(OMPGPU_MAX_BLOCK) __omp_offloading_queries(int *hits, int nt, int icv, int rounds,
                                                                                        unsigned limit) {
  ompgpu::kernel_init_generic(limit);
  OMPGPU_TEST_WORKER_LOOP(case 1 : __omp_outlined_queries(OMPGPU_TEST_ARGS(PackQ)); break;)
  EXPECT_EQ_I(omp_get_thread_num(), 0);
  EXPECT_EQ_I(omp_get_num_threads(), 1);
  EXPECT_EQ_I(omp_get_level(), 0);
  EXPECT_EQ_I(omp_get_active_level(), 0);
  EXPECT_EQ_I(omp_in_parallel(), 0);
  EXPECT_EQ_I(omp_get_team_num(), blockIdx.x);
  EXPECT_EQ_I(omp_get_num_teams(), gridDim.x);
  EXPECT_EQ_I(omp_get_thread_limit(), expect_ts_dev(0, (int)limit));
  EXPECT_EQ_I(omp_is_initial_device(), 0);
  EXPECT_EQ_I(omp_get_ancestor_thread_num(0), 0);
  EXPECT_EQ_I(omp_get_team_size(0), 1);
  EXPECT(ompgpu::can_fork());
  EXPECT(ompgpu::single_begin());
  if (icv > 0) omp_set_num_threads(icv);
  EXPECT_EQ_I(omp_get_max_threads(), expect_ts_dev(icv, (int)limit));
  ompgpu::barrier();  // no-op outside a region
  for (int r = 0; r < rounds; r++) {
    PackQ pack;
    pack.hits = hits;
    pack.ts = expect_ts_dev(nt > 0 ? nt : icv, (int)limit);
    if (ompgpu::can_fork()) {
      ompgpu::fork(1, &pack, sizeof pack, nt);
    } else {
      ompgpu::serialized_begin();
      __omp_outlined_queries(&pack);
      ompgpu::serialized_end();
    }
  }
  EXPECT_EQ_I(omp_get_level(), 0);
  ompgpu::kernel_end_generic();
}

// A generic kernel with no worker warps: every region is serialized on the master.
struct NoWorkersPack {
  int *cnt;
};
__device__ void __omp_outlined_noworkers(void *args) {
  int *cnt = *(int **)args;
  EXPECT_EQ_I(omp_get_level(), 1);
  EXPECT_EQ_I(omp_get_active_level(), 0);
  EXPECT_EQ_I(omp_in_parallel(), 0);
  EXPECT_EQ_I(omp_get_thread_num(), 0);
  EXPECT_EQ_I(omp_get_num_threads(), 1);
  EXPECT_EQ_I(omp_get_ancestor_thread_num(1), 0);
  EXPECT_EQ_I(omp_get_team_size(1), 1);
  long long lo, hi, s = 0;
  ompgpu::WsLoop wsl1 = ompgpu::ws_dispatch_init(ompgpu::WS_DYNAMIC, 100, 3);
  while (ompgpu::ws_dispatch_next(wsl1, &lo, &hi))
    for (long long i = lo; i < hi; i++) s += i;
  ompgpu::ws_dispatch_fini(wsl1);
  EXPECT_EQ_I(s, 4950);
  ompgpu::barrier();
  atomicAdd(cnt, 1);
}
extern "C" __global__ void __launch_bounds__(OMPGPU_MAX_BLOCK) __omp_offloading_noworkers(int *cnt) {
  ompgpu::kernel_init_generic();
  OMPGPU_TEST_WORKER_LOOP(case 1 : __omp_outlined_noworkers(OMPGPU_TEST_ARGS(NoWorkersPack)); break;)
  EXPECT(!ompgpu::can_fork());
  struct {
    int *c;
  } pack = {cnt};
  if (ompgpu::can_fork())
    ompgpu::fork(1, &pack, sizeof pack, 0);
  else {
    ompgpu::serialized_begin();
    __omp_outlined_noworkers(&pack);
    ompgpu::serialized_end();
  }
  ompgpu::kernel_end_generic();
}

static void test_fork_queries() {
  {
    BEGIN_TEST("generic fork/join team sizes and queries");
    const int blocks[] = {64, 96, 160, 1024};
    const int nts[] = {0, 1, 5, 31, 32, 33, 100, 2000};
    const int grid = 2, rounds = 3;
    DevBuf<int> hits(grid * 1024);
    // limit: the team's thread_limit below its workers (a generic block's workers are whole warps)
    for (int b : blocks)
      for (int nt : nts)
        for (int icv : {0, 40})
        for (int limit : {0, 16, 40}) {
          if (icv && nt) continue;
          if (g_quick && (b == 96 || b == 1024 || nt == 1 || nt == 31 || nt == 100 || (limit && icv))) continue;
          hits.zero();
          OMPGPU_LAUNCH_KERNEL(__omp_offloading_queries, grid, b, 0, 0, hits.d, nt, icv, rounds, (unsigned)limit);
          if (!dev_errors_ok("queries")) {
            printf("  (block %d nt %d icv %d limit %d)\n", b, nt, icv, limit);
            continue;
          }
          const int workers = limit > 0 && limit < b - 32 ? limit + 32 : b;
          int ts = expect_team_size(workers, nt > 0 ? nt : icv);
          auto h = hits.get();
          int bad = 0;
          for (int g = 0; g < grid; g++)
            for (int t = 0; t < 1024; t++)
              if (h[g * 1024 + t] != (t < ts ? rounds : 0)) bad++;
          HCHECK(bad == 0, "block %d nt %d icv %d limit %d: %d wrong hit counts", b, nt, icv, limit, bad);
        }
    END_TEST();
  }
  {
    BEGIN_TEST("generic kernel without workers serializes");
    DevBuf<int> cnt(1);
    OMPGPU_LAUNCH_KERNEL(__omp_offloading_noworkers, 3, 32, 0, 0, cnt.d);
    dev_errors_ok("noworkers");
    HCHECK(cnt.get()[0] == 3, "count %d", cnt.get()[0]);
    END_TEST();
  }
}

// =====================================================================================
// 2. in-region barriers (bar 7 with count / __syncwarp for teams inside one warp)
// =====================================================================================
struct PackB {
  int *buf;
  int iters;
};
__device__ void __omp_outlined_barrier(void *args) {
  PackB *p = (PackB *)args;
  int t = omp_get_thread_num(), n = omp_get_num_threads();
  volatile int *buf = p->buf + blockIdx.x * 1024;
  for (int it = 0; it < p->iters; it++) {
    buf[t] = it * 4096 + t;
    ompgpu::barrier();
    int nb = (t + 1) % n, nb2 = (t + 33) % n;
    EXPECT_EQ_I(buf[nb], it * 4096 + nb);
    EXPECT_EQ_I(buf[nb2], it * 4096 + nb2);
    ompgpu::barrier();
  }
}
extern "C" __global__ void __launch_bounds__(OMPGPU_MAX_BLOCK) __omp_offloading_barrier(int *buf, int nt, int iters) {
  ompgpu::kernel_init_generic();
  OMPGPU_TEST_WORKER_LOOP(case 1 : __omp_outlined_barrier(OMPGPU_TEST_ARGS(PackB)); break;)
  PackB pack = {buf, iters};
  for (int r = 0; r < 2; r++) ompgpu::fork(1, &pack, sizeof pack, nt);
  ompgpu::kernel_end_generic();
}

static void test_barrier() {
  BEGIN_TEST("in-region barrier");
  DevBuf<int> buf(2 * 1024);
  const int cfg[][2] = {{160, 2}, {160, 5}, {160, 31}, {160, 0}, {96, 33}, {1024, 0}, {1024, 100}};
  for (auto &c : cfg) {
    if (g_quick && c[0] == 1024 && c[1] == 0) continue;
    OMPGPU_LAUNCH_KERNEL(__omp_offloading_barrier, 2, c[0], 0, 0, buf.d, c[1], 20);
    if (!dev_errors_ok("barrier")) printf("  (block %d nt %d)\n", c[0], c[1]);
  }
  END_TEST();
}

// =====================================================================================
// 3. serialized nested regions, private frames, team-of-one loops
// =====================================================================================
struct PackInner {
  int outer_t;
  int outer_n;
  long long *acc;
  int depth;
};
__device__ void __omp_outlined_inner(void *args);

__device__ void check_serialized(const PackInner *p) {
  int lvl = 1 + p->depth;  // the worker's level 1 + serialized depth
  EXPECT_EQ_I(omp_get_level(), lvl);
  EXPECT_EQ_I(omp_get_thread_num(), 0);
  EXPECT_EQ_I(omp_get_num_threads(), 1);
  EXPECT_EQ_I(omp_get_active_level(), p->outer_n > 1 ? 1 : 0);
  EXPECT_EQ_I(omp_in_parallel(), p->outer_n > 1 ? 1 : 0);
  EXPECT_EQ_I(omp_get_ancestor_thread_num(1), p->outer_t);
  EXPECT_EQ_I(omp_get_ancestor_thread_num(lvl), 0);
  EXPECT_EQ_I(omp_get_ancestor_thread_num(lvl + 1), -1);
  EXPECT_EQ_I(omp_get_team_size(1), p->outer_n);
  EXPECT_EQ_I(omp_get_team_size(lvl), 1);
  EXPECT_EQ_I(omp_get_max_threads(), 1);
  EXPECT(!ompgpu::can_fork());
  EXPECT(ompgpu::single_begin());
}

__device__ void __omp_outlined_inner(void *args) {
  PackInner *p = (PackInner *)args;
  check_serialized(p);
  long long lo, hi;
  // whole space in one piece for static
  EXPECT(ompgpu::ws_static_block(1000, &lo, &hi));
  EXPECT_EQ_I(lo, 0);
  EXPECT_EQ_I(hi, 1000);
  EXPECT_EQ_I(ompgpu::ws_static_chunk_first(7), 0);
  EXPECT_EQ_I(ompgpu::ws_static_chunk_stride(7), 7);
  ompgpu::barrier();
  // dynamic loop of a team of one; its body nests one more serialized region
  long long s = 0;
  ompgpu::WsLoop wsl2 = ompgpu::ws_dispatch_init(ompgpu::WS_GUIDED, 64, 2);
  while (ompgpu::ws_dispatch_next(wsl2, &lo, &hi)) {
    for (long long i = lo; i < hi; i++) {
      s += i;
      if (p->depth == 1 && i % 16 == 0) {
        ompgpu::StackFrame f(sizeof(long long));  // private frame
        long long *acc2 = (long long *)f.base;
        *acc2 = 0;
        PackInner in2 = {p->outer_t, p->outer_n, acc2, 2};
        ompgpu::serialized_begin();
        __omp_outlined_inner(&in2);
        ompgpu::serialized_end();
        EXPECT_EQ_I(*acc2, 2016);
        check_serialized(p);
      }
    }
  }
  ompgpu::ws_dispatch_fini(wsl2);
  ompgpu::reduce<long long>(ompgpu::RED_ADD, p->acc, s);
}

struct PackOuter {
  int *ok;
};
__device__ void __omp_outlined_outer(void *args) {
  PackOuter *p = (PackOuter *)args;
  int t = omp_get_thread_num(), n = omp_get_num_threads();
  ompgpu::StackFrame f(sizeof(long long) * 3);  // a worker's escaping locals: private
  long long *acc = (long long *)f.base;
  acc[0] = 0;
  acc[1] = 77;
  acc[2] = 88;
  PackInner in = {t, n, acc, 1};
  if (ompgpu::can_fork()) {
    EXPECT(0);
  } else {
    ompgpu::serialized_begin();
    __omp_outlined_inner(&in);
    ompgpu::serialized_end();
  }
  EXPECT_EQ_I(acc[0], 2016);
  EXPECT_EQ_I(acc[1], 77);
  EXPECT_EQ_I(acc[2], 88);
  EXPECT_EQ_I(omp_get_level(), 1);
  EXPECT_EQ_I(omp_get_thread_num(), t);
  atomicAdd(p->ok, 1);
}

// master: nested serialized region inside its own team-of-one dynamic loop
__device__ void __omp_outlined_master_inner(void *args) {
  long long *s = *(long long **)args;
  EXPECT_EQ_I(omp_get_level(), 1);
  long long lo, hi;
  ompgpu::WsLoop wsl3 = ompgpu::ws_dispatch_init(ompgpu::WS_DYNAMIC, 10, 1);
  while (ompgpu::ws_dispatch_next(wsl3, &lo, &hi))
    for (long long i = lo; i < hi; i++) *s += i;
  ompgpu::ws_dispatch_fini(wsl3);
}

extern "C" __global__ void __launch_bounds__(OMPGPU_MAX_BLOCK) __omp_offloading_nested(int *ok, long long *msum, int nt) {
  ompgpu::kernel_init_generic();
  OMPGPU_TEST_WORKER_LOOP(case 1 : __omp_outlined_outer(OMPGPU_TEST_ARGS(PackOuter)); break;)
  PackOuter pack = {ok};
  ompgpu::fork(1, &pack, sizeof pack, nt);
  ompgpu::fork(1, &pack, sizeof pack, nt);
  // master team-of-one loops, nested
  ompgpu::StackFrame f(sizeof(long long));
  long long *s = (long long *)f.base;
  *s = 0;
  long long lo, hi;
  ompgpu::WsLoop wsl4 = ompgpu::ws_dispatch_init(ompgpu::WS_DYNAMIC, 5, 1);
  while (ompgpu::ws_dispatch_next(wsl4, &lo, &hi)) {
    for (long long i = lo; i < hi; i++) {
      struct {
        long long *s;
      } in = {s};
      ompgpu::serialized_begin();
      __omp_outlined_master_inner(&in);
      ompgpu::serialized_end();
    }
  }
  ompgpu::ws_dispatch_fini(wsl4);
  if (ompgpu::can_fork()) ompgpu::fork(1, &pack, sizeof pack, nt);  // forks still work afterwards
  msum[blockIdx.x] = *s;
  ompgpu::kernel_end_generic();
}

static void test_nested() {
  BEGIN_TEST("serialized nested regions, private frames, team-of-one loops");
  DevBuf<int> ok(1);
  DevBuf<long long> msum(2);
  const int cfg[][2] = {{64, 0}, {160, 5}, {256, 0}};
  for (auto &c : cfg) {
    ok.zero();
    OMPGPU_LAUNCH_KERNEL(__omp_offloading_nested, 2, c[0], 0, 0, ok.d, msum.d, c[1]);
    if (!dev_errors_ok("nested")) printf("  (block %d nt %d)\n", c[0], c[1]);
    int ts = expect_team_size(c[0], c[1]);
    HCHECK(ok.get()[0] == 2 * 3 * ts, "block %d: %d outer threads completed, want %d", c[0], ok.get()[0], 6 * ts);
    auto m = msum.get();
    HCHECK(m[0] == 225 && m[1] == 225, "master nested loop sums %lld %lld", m[0], m[1]);
  }
  END_TEST();
}

// =====================================================================================
// 4. master soft stack: shared slice, global slice, big packs
// =====================================================================================
struct PackS {
  unsigned long long *counter;  // on the master's soft stack (shared memory)
  int *big;                     // on the master's soft stack (global slice)
  int nbig;
};
__device__ void __omp_outlined_stack(void *args) {
  PackS *p = (PackS *)args;
  atomicAdd(p->counter, 1ull);
  int t = omp_get_thread_num(), n = omp_get_num_threads();
  for (int i = t; i < p->nbig; i += n) p->big[i] = i * 3 + 1;
}

struct BigPack {
  int v[300];
  int *out;
};
__device__ void __omp_outlined_bigpack(void *args) {
  BigPack *p = (BigPack *)args;
  int t = omp_get_thread_num();
  p->out[blockIdx.x * 1024 + t] = p->v[t % 300];
}
struct MidPack {
  long long v[62];  // 496 + 8 bytes: fits the 512-byte buffer
  int *out;
};
__device__ void __omp_outlined_midpack(void *args) {
  MidPack *p = (MidPack *)args;
  int t = omp_get_thread_num();
  p->out[blockIdx.x * 1024 + t] += (int)p->v[t % 62];
}
struct OddPack {  // the 13 bytes the master forks with (int* + 5 bytes)
  unsigned char b[13];
};
__device__ void __omp_outlined_oddpack(void *args) {
  unsigned char *b = (unsigned char *)args;  // 13 bytes: int* + 5 bytes
  int *out;
  memcpy(&out, b, sizeof out);
  int t = omp_get_thread_num();
  out[blockIdx.x * 1024 + t] += b[8] + b[12];
}

extern "C" __global__ void __launch_bounds__(OMPGPU_MAX_BLOCK) __omp_offloading_stack(int *out, int nbig, int nt) {
  ompgpu::kernel_init_generic();
  OMPGPU_TEST_WORKER_LOOP(case 1 : __omp_outlined_stack(OMPGPU_TEST_ARGS(PackS)); break; case 2 : __omp_outlined_bigpack(OMPGPU_TEST_ARGS(BigPack));
                          break; case 3 : __omp_outlined_midpack(OMPGPU_TEST_ARGS(MidPack)); break;
                          case 4 : __omp_outlined_oddpack(OMPGPU_TEST_ARGS(OddPack)); break;)
  int ts = expect_ts_dev(nt);
  for (int round = 0; round < 3; round++) {
    ompgpu::StackFrame f1(sizeof(unsigned long long));
    unsigned long long *counter = (unsigned long long *)f1.base;
    EXPECT_EQ_I(((uintptr_t)counter) & 15, 0);
#if !defined(OMPGPU_EMU) && defined(__CUDA_ARCH__)
    EXPECT(__isShared(counter));
#endif
    *counter = 0;
    {
      ompgpu::StackFrame f2((unsigned)nbig * sizeof(int));  // larger than the shared slice
      int *big = (int *)f2.base;
#if !defined(OMPGPU_EMU) && defined(__CUDA_ARCH__)
      EXPECT(__isGlobal(big));
#endif
      PackS pack = {counter, big, nbig};
      ompgpu::fork(1, &pack, sizeof pack, nt);
      EXPECT_EQ_I(*counter, ts);
      long long bad = 0;
      for (int i = 0; i < nbig; i++) bad += big[i] != i * 3 + 1;
      EXPECT_EQ_I(bad, 0);
      {
        ompgpu::StackFrame f3(100);  // stays in the global slice
        EXPECT((char *)f3.base >= (char *)big + nbig * sizeof(int));
      }
    }
    // back in shared memory: the next frame follows f1
    void *q = ompgpu::stack_push(16);
    EXPECT(q == (void *)((char *)counter + 16));
    ompgpu::stack_pop(16);
  }
  // argument packs: > 512 bytes (soft stack), 504 bytes (team state), odd size (void* form)
  BigPack bp;
  for (int i = 0; i < 300; i++) bp.v[i] = 1000 + i;
  bp.out = out;
  ompgpu::fork(2, &bp, sizeof bp, nt);
  MidPack mp;
  for (int i = 0; i < 62; i++) mp.v[i] = i;
  mp.out = out;
  ompgpu::fork(3, &mp, sizeof mp, nt);
  unsigned char odd[13];
  memcpy(odd, &out, sizeof out);
  for (int i = 8; i < 13; i++) odd[i] = (unsigned char)i;
  ompgpu::fork(4, (const void *)odd, 13, nt);
  ompgpu::kernel_end_generic();
}

static void test_stack() {
  BEGIN_TEST("master soft stack and argument packs");
  DevBuf<int> out(3 * 1024);
  const int cfg[][2] = {{64, 0}, {160, 0}, {1024, 0}, {160, 7}};
  for (auto &c : cfg) {
    out.zero();
    OMPGPU_LAUNCH_KERNEL(__omp_offloading_stack, 3, c[0], 0, 0, out.d, 3000, c[1]);
    if (!dev_errors_ok("stack")) printf("  (block %d)\n", c[0]);
    int ts = expect_team_size(c[0], c[1]);
    auto h = out.get();
    int bad = 0;
    for (int g = 0; g < 3; g++)
      for (int t = 0; t < ts; t++)
        if (h[g * 1024 + t] != 1000 + t % 300 + t % 62 + 8 + 12) bad++;
    HCHECK(bad == 0, "block %d: %d wrong pack values", c[0], bad);
  }
  END_TEST();
}

// =====================================================================================
// 5. worksharing in generic regions: every schedule, consecutive nowait loops, resets
// =====================================================================================
struct PackW {
  int *hits;
  long long n;
  long long chunk;
  int kind;  // 0 static block, 1 static chunk, 2 dynamic, 3 guided
  int nloops;
};

__device__ void run_loops(const PackW *p, int *hits) {
  long long n = p->n, lo, hi;
  for (int L = 0; L < p->nloops; L++) {  // consecutive loops, nowait (no barrier between)
    int *h = hits + L * n;
    if (p->kind == 0) {
      if (ompgpu::ws_static_block(n, &lo, &hi))
        for (long long i = lo; i < hi; i++) atomicAdd(&h[i], 1);
    } else if (p->kind == 1) {
      long long c = p->chunk;
      for (long long s = ompgpu::ws_static_chunk_first(c); s < n; s += ompgpu::ws_static_chunk_stride(c))
        for (long long i = s; i < s + c && i < n; i++) atomicAdd(&h[i], 1);
    } else {
      ompgpu::WsLoop wsl5 = ompgpu::ws_dispatch_init(p->kind == 2 ? ompgpu::WS_DYNAMIC : ompgpu::WS_GUIDED, n, p->chunk);
      while (ompgpu::ws_dispatch_next(wsl5, &lo, &hi)) {
        EXPECT(lo < hi && hi <= n);
        if (p->kind == 2) {
          EXPECT_EQ_I(lo % p->chunk, 0);
          EXPECT(hi - lo == p->chunk || hi == n);
        } else {
          EXPECT(hi - lo >= p->chunk || hi == n);
        }
        for (long long i = lo; i < hi; i++) atomicAdd(&h[i], 1);
      }
      ompgpu::ws_dispatch_fini(wsl5);
    }
  }
}
__device__ void __omp_outlined_ws(void *args) {
  PackW *p = (PackW *)args;
  run_loops(p, p->hits + (long long)blockIdx.x * p->nloops * p->n);
  ompgpu::barrier();
}

extern "C" __global__ void __launch_bounds__(OMPGPU_MAX_BLOCK) __omp_offloading_ws(int *hits, long long n, long long chunk, int kind, int nloops, int nt, int master_loops) {
  ompgpu::kernel_init_generic();
  OMPGPU_TEST_WORKER_LOOP(case 1 : __omp_outlined_ws(OMPGPU_TEST_ARGS(PackW)); break;)
  PackW pack = {hits, n, chunk, kind, nloops};
  for (int r = 0; r < 3; r++) {  // three regions: dispatch state must reset between them
    ompgpu::fork(1, &pack, sizeof pack, nt);
    if (master_loops) run_loops(&pack, hits + (long long)blockIdx.x * nloops * n);  // team of one
  }
  ompgpu::kernel_end_generic();
}

static void test_ws_generic() {
  BEGIN_TEST("worksharing in generic regions");
  const long long ns[] = {0, 1, 37, 1000, 100003};
  const int kinds[] = {0, 1, 2, 3};
  const int grid = 2, nloops = 5;
  DevBuf<int> hits(grid * nloops * 100003);
  for (int kind : kinds)
    for (long long n : ns)
      for (int b : {64, 160, 1024})
        for (int nt : {0, 5}) {
          if (n == 100003 && b == 64) continue;
          if (g_quick && (n == 100003 || n == 1 || b == 1024)) continue;
          for (long long chunk : {1LL, 7LL}) {
            if (kind == 0 && chunk != 1) continue;
            int master = (n <= 1000);
            hits.zero();
            OMPGPU_LAUNCH_KERNEL(__omp_offloading_ws, grid, b, 0, 0, hits.d, n, chunk, kind, nloops, nt, master);
            char what[128];
            snprintf(what, sizeof what, "kind %d n %lld block %d nt %d chunk %lld", kind, n, b, nt, chunk);
            dev_errors_ok(what);
            DevBuf<int> *hp = &hits;
            auto h = hp->get();
            long long bad = 0;
            int want = 3 * (1 + master);
            for (long long i = 0; i < grid * nloops * n; i++) bad += h[i] != want;
            HCHECK(bad == 0, "%s: %lld iterations with wrong counts", what, bad);
          }
        }
  END_TEST();
}

// =====================================================================================
// 6. SPMD kernels
// =====================================================================================
extern "C" __global__ void __launch_bounds__(OMPGPU_MAX_BLOCK) __omp_offloading_spmd(int *hits, int *bar, long long n, long long chunk, int kind, int nloops) {
  ompgpu::kernel_init_spmd();
  int t = omp_get_thread_num(), nth = omp_get_num_threads();
  EXPECT_EQ_I(t, threadIdx.x);
  EXPECT_EQ_I(nth, blockDim.x);
  EXPECT_EQ_I(omp_get_level(), 1);
  EXPECT_EQ_I(omp_in_parallel(), blockDim.x > 1 ? 1 : 0);
  EXPECT_EQ_I(omp_get_team_size(1), blockDim.x);
  EXPECT_EQ_I(omp_get_ancestor_thread_num(1), t);
  EXPECT_EQ_I(omp_get_thread_limit(), blockDim.x);
  EXPECT(!ompgpu::can_fork());
  EXPECT_EQ_I(ompgpu::single_begin(), t == 0);
  EXPECT_EQ_I(ompgpu::spmd_is_team_leader(), t == 0);
  // barrier
  volatile int *b = bar + blockIdx.x * 1024;
  for (int it = 0; it < 10; it++) {
    b[t] = it * 4096 + t;
    ompgpu::barrier();
    int nb = (t + 1) % nth, nb2 = (t + 33) % nth;
    EXPECT_EQ_I(b[nb], it * 4096 + nb);
    EXPECT_EQ_I(b[nb2], it * 4096 + nb2);
    ompgpu::barrier();
  }
  // worksharing
  PackW p = {hits, n, chunk, kind, nloops};
  run_loops(&p, hits + (long long)blockIdx.x * nloops * n);
  ompgpu::barrier();
  run_loops(&p, hits + (long long)blockIdx.x * nloops * n);
  // nested serialized region in SPMD
  ompgpu::serialized_begin();
  EXPECT_EQ_I(omp_get_level(), 2);
  EXPECT_EQ_I(omp_get_thread_num(), 0);
  EXPECT_EQ_I(omp_get_ancestor_thread_num(1), t);
  ompgpu::serialized_end();
}

static void test_spmd() {
  BEGIN_TEST("SPMD kernels: queries, barrier, worksharing");
  const int grid = 2, nloops = 3;
  DevBuf<int> hits(grid * nloops * 20011);
  DevBuf<int> bar(grid * 1024);
  for (int blk : {20, 32, 100, 256, 1024})
    for (int kind : {0, 1, 2, 3})
      for (long long n : {0LL, 5LL, 999LL, 20011LL}) {
        if (g_quick && (n == 20011 || blk == 1024 || blk == 256)) continue;
        long long chunk = kind == 2 ? 3 : 2;
        hits.zero();
        OMPGPU_LAUNCH_KERNEL(__omp_offloading_spmd, grid, blk, 0, 0, hits.d, bar.d, n, chunk, kind, nloops);
        char what[128];
        snprintf(what, sizeof what, "spmd block %d kind %d n %lld", blk, kind, n);
        dev_errors_ok(what);
        auto h = hits.get();
        long long bad = 0;
        for (long long i = 0; i < grid * nloops * n; i++) bad += h[i] != 2;
        HCHECK(bad == 0, "%s: %lld wrong", what, bad);
      }
  END_TEST();
}

// SPMD kernel with serial code and bracketed parallel regions; collective soft stack.
extern "C" __global__ void __launch_bounds__(OMPGPU_MAX_BLOCK) __omp_offloading_spmd_serial(int *out) {
  ompgpu::kernel_init_spmd(0);
  EXPECT_EQ_I(omp_get_level(), 0);
  EXPECT_EQ_I(omp_get_thread_num(), 0);
  EXPECT_EQ_I(omp_get_num_threads(), 1);
  EXPECT_EQ_I(omp_in_parallel(), 0);
  EXPECT_EQ_I(omp_get_max_threads(), blockDim.x);
  ompgpu::StackFrame f(sizeof(int) * 2);  // team-shared variables of the serial code
  int *x = (int *)f.base;
  if (ompgpu::spmd_is_team_leader()) {
    x[0] = 5;
    x[1] = 0;
  }
  ompgpu::spmd_parallel_begin();
  EXPECT_EQ_I(omp_get_level(), 1);
  EXPECT_EQ_I(omp_get_thread_num(), threadIdx.x);
  EXPECT_EQ_I(x[0], 5);
  atomicAdd(&x[1], 1);
  long long lo, hi;
  ompgpu::WsLoop wsl6 = ompgpu::ws_dispatch_init(ompgpu::WS_DYNAMIC, 1000, 10);
  while (ompgpu::ws_dispatch_next(wsl6, &lo, &hi))
    for (long long i = lo; i < hi; i++) atomicAdd(&out[blockIdx.x * 1000 + i], 1);
  ompgpu::ws_dispatch_fini(wsl6);
  ompgpu::spmd_parallel_end();
  EXPECT_EQ_I(omp_get_level(), 0);
  EXPECT_EQ_I(x[1], blockDim.x);
  {
    ompgpu::StackFrame g(8000);  // collective frame in the global slice
    int *y = (int *)g.base;
    if (ompgpu::spmd_is_team_leader()) y[1999] = 42;
    ompgpu::spmd_parallel_begin();
    EXPECT_EQ_I(((volatile int *)y)[1999], 42);
    ompgpu::spmd_parallel_end();
  }
}

static void test_spmd_serial() {
  BEGIN_TEST("SPMD serial code, bracketed regions, collective soft stack");
  DevBuf<int> out(3 * 1000);
  for (int blk : {20, 64, 256}) {
    out.zero();
    OMPGPU_LAUNCH_KERNEL(__omp_offloading_spmd_serial, 3, blk, 0, 0, out.d);
    dev_errors_ok("spmd_serial");
    auto h = out.get();
    int bad = 0;
    for (int v : h) bad += v != 1;
    HCHECK(bad == 0, "block %d: %d wrong", blk, bad);
  }
  END_TEST();
}

// combined `teams distribute parallel for` shape (SPMD) and distribute chunks
extern "C" __global__ void __launch_bounds__(OMPGPU_MAX_BLOCK) __omp_offloading_dist(int *hits, long long n, long long dchunk) {
  ompgpu::kernel_init_spmd();
  if (dchunk <= 0) {
    long long tlo, thi;
    if (ompgpu::distribute_static_block(n, &tlo, &thi)) {
      long long lo, hi;
      if (ompgpu::ws_static_block(thi - tlo, &lo, &hi))
        for (long long i = tlo + lo; i < tlo + hi; i++) atomicAdd(&hits[i], 1);
    }
  } else {
    for (long long c = ompgpu::distribute_chunk_first(dchunk); c < n; c += ompgpu::distribute_chunk_stride(dchunk)) {
      long long m = (c + dchunk < n ? c + dchunk : n) - c, lo, hi;
      if (ompgpu::ws_static_block(m, &lo, &hi))
        for (long long i = c + lo; i < c + hi; i++) atomicAdd(&hits[i], 1);
    }
  }
}

static void test_distribute() {
  BEGIN_TEST("distribute static block / chunk");
  DevBuf<int> hits(100000);
  for (long long n : {1LL, 1000LL, 100000LL})
    for (int grid : {1, 7, 132})
      if (!g_quick || grid != 132)
      for (long long dc : {0LL, 1LL, 300LL}) {
        hits.zero();
        OMPGPU_LAUNCH_KERNEL(__omp_offloading_dist, grid, 128, 0, 0, hits.d, n, dc);
        dev_errors_ok("dist");
        auto h = hits.get();
        long long bad = 0;
        for (long long i = 0; i < 100000; i++) bad += h[i] != (i < n ? 1 : 0);
        HCHECK(bad == 0, "n %lld grid %d chunk %lld: %lld wrong", n, grid, dc, bad);
      }
  END_TEST();
}

// the grid loop of a combined `distribute parallel for` (every team gets the whole range) and
// its tile form: every iteration exactly once; a tile thread's iterations are one block
__global__ void __launch_bounds__(OMPGPU_MAX_BLOCK) k_grid_loops(int *hits, int *gaps, long long n, long long tile_bytes) {
  long long first, stride, end;
  if (tile_bytes > 0)
    ompgpu::tile_loop_bounds(n, blockDim.x, tile_bytes, &first, &stride, &end);
  else
    ompgpu::grid_loop_bounds(n, blockDim.x, &first, &stride, &end);
  long long prev = -1;
  for (long long c = first; c < end; c += stride) {
    atomicAdd(&hits[c], 1);
    if (tile_bytes > 0 && prev >= 0 && c != prev + 1) atomicAdd(gaps, 1);
    prev = c;
  }
}

static void test_grid_loops() {
  BEGIN_TEST("grid and tile loop bounds");
  DevBuf<int> hits(100000), gaps(1);
  // OMPGPU_L2_BYTES / tile bytes threads in flight: from a handful to more than the grid has
  for (long long tile : {0LL, OMPGPU_L2_BYTES / 3, OMPGPU_L2_BYTES / 100, OMPGPU_L2_BYTES / 5000, 1LL})
    for (long long n : {1LL, 1000LL, 100000LL})
      for (int grid : {1, 7, 132}) {
        hits.zero();
        gaps.zero();
        OMPGPU_LAUNCH_KERNEL(k_grid_loops, grid, 128, 0, 0, hits.d, gaps.d, n, tile);
        dev_errors_ok("grid loops");
        auto h = hits.get();
        long long bad = 0;
        for (long long i = 0; i < 100000; i++) bad += h[i] != (i < n ? 1 : 0);
        HCHECK(bad == 0 && gaps.get()[0] == 0, "n %lld grid %d tile bytes %lld: %lld wrong, %d gaps", n, grid, tile, bad,
               gaps.get()[0]);
      }
  END_TEST();
}

// =====================================================================================
// 7. critical, single, locks, flush, wtime
// =====================================================================================
__device__ int g_crit_lock;
__device__ int g_crit_counter;
__device__ omp_lock_t g_lock;
__device__ int g_lock_counter;
__device__ omp_nest_lock_t g_nest;
__device__ int g_nest_counter;
__device__ int g_single_count;
__device__ omp_lock_t g_lock1;
__device__ omp_nest_lock_t g_nest1;

struct PackC {
  int iters;
};
__device__ void __omp_outlined_sync(void *args) {
  PackC *p = (PackC *)args;
  for (int i = 0; i < p->iters; i++) {
    ompgpu::critical_enter(&g_crit_lock);
    volatile int *c = &g_crit_counter;
    *c = *c + 1;
    ompgpu::critical_exit(&g_crit_lock);

    omp_set_lock(&g_lock);
    volatile int *l = &g_lock_counter;
    *l = *l + 1;
    omp_unset_lock(&g_lock);

    omp_set_nest_lock(&g_nest);
    omp_set_nest_lock(&g_nest);
    EXPECT_EQ_I(omp_test_nest_lock(&g_nest), 3);
    volatile int *nc = &g_nest_counter;
    *nc = *nc + 1;
    omp_unset_nest_lock(&g_nest);
    omp_unset_nest_lock(&g_nest);
    omp_unset_nest_lock(&g_nest);
  }
  if (ompgpu::single_begin()) atomicAdd(&g_single_count, 1);
  ompgpu::barrier();
  ompgpu::flush();
}

extern "C" __global__ void __launch_bounds__(OMPGPU_MAX_BLOCK) __omp_offloading_sync(int iters, int nt, double *times) {
  ompgpu::kernel_init_generic();
  OMPGPU_TEST_WORKER_LOOP(case 1 : __omp_outlined_sync(OMPGPU_TEST_ARGS(PackC)); break;)
  double t0 = omp_get_wtime();
  PackC pack = {iters};
  ompgpu::fork(1, &pack, sizeof pack, nt);
  ompgpu::fork(1, &pack, sizeof pack, nt);
  if (blockIdx.x == 0) {  // lock tests by one thread
    omp_lock_t &l = g_lock1;
    omp_init_lock(&l);
    EXPECT_EQ_I(omp_test_lock(&l), 1);
    EXPECT_EQ_I(omp_test_lock(&l), 0);
    omp_unset_lock(&l);
    EXPECT_EQ_I(omp_test_lock(&l), 1);
    omp_unset_lock(&l);
    omp_destroy_lock(&l);
    omp_nest_lock_t &nl = g_nest1;
    omp_init_nest_lock(&nl);
    EXPECT_EQ_I(omp_test_nest_lock(&nl), 1);
    EXPECT_EQ_I(omp_test_nest_lock(&nl), 2);
    omp_unset_nest_lock(&nl);
    omp_unset_nest_lock(&nl);
    omp_destroy_nest_lock(&nl);
  }
  double t1 = omp_get_wtime();
  EXPECT(t1 >= t0);
  EXPECT(omp_get_wtick() > 0.0 && omp_get_wtick() < 0.01);
  if (blockIdx.x == 0) {
    times[0] = t0;
    times[1] = t1;
  }
  ompgpu::kernel_end_generic();
}

static void test_sync() {
  BEGIN_TEST("critical, single, locks, wtime");
  DevBuf<double> times(2);
  const int grid = 4, iters = 20;
  for (int b : {64, 160}) {
    int z = 0;
    CK(cudaMemcpyToSymbol(g_crit_counter, &z, sizeof z));
    CK(cudaMemcpyToSymbol(g_lock_counter, &z, sizeof z));
    CK(cudaMemcpyToSymbol(g_nest_counter, &z, sizeof z));
    CK(cudaMemcpyToSymbol(g_single_count, &z, sizeof z));
    OMPGPU_LAUNCH_KERNEL(__omp_offloading_sync, grid, b, 0, 0, iters, 0, times.d);
    dev_errors_ok("sync");
    int ts = expect_team_size(b, 0), c = 0, l = 0, nc = 0, s = 0;
    CK(cudaMemcpyFromSymbol(&c, g_crit_counter, sizeof c));
    CK(cudaMemcpyFromSymbol(&l, g_lock_counter, sizeof l));
    CK(cudaMemcpyFromSymbol(&nc, g_nest_counter, sizeof nc));
    CK(cudaMemcpyFromSymbol(&s, g_single_count, sizeof s));
    int want = grid * 2 * ts * iters;
    HCHECK(c == want, "critical counter %d want %d", c, want);
    HCHECK(l == want, "lock counter %d want %d", l, want);
    HCHECK(nc == want, "nest lock counter %d want %d", nc, want);
    HCHECK(s == grid * 2, "single executed %d times, want %d", s, grid * 2);
    auto t = times.get();
    HCHECK(t[1] >= t[0] && t[1] - t[0] < 10.0, "wtime %f %f", t[0], t[1]);
  }
  END_TEST();
}

// =====================================================================================
// 8. soft stack overflow (separate run: it aborts)
// =====================================================================================
extern "C" __global__ void __launch_bounds__(OMPGPU_MAX_BLOCK) __omp_offloading_overflow(int *out) {
  ompgpu::kernel_init_generic();
  OMPGPU_TEST_WORKER_LOOP(case 1 : break;)
  ompgpu::StackFrame a(1000);
  ompgpu::StackFrame b(OMPGPU_SOFT_STACK_GLOBAL + 16);  // cannot fit anywhere
  out[0] = (int)(uintptr_t)b.base;
  ompgpu::kernel_end_generic();
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "overflow")) {
    DevBuf<int> out(1);
    OMPGPU_LAUNCH_KERNEL(__omp_offloading_overflow, 1, 64, 0, 0, out.d);
    cudaError_t e = cudaDeviceSynchronize();
    printf("overflow kernel returned: %s\n", cudaGetErrorString(e));
    return e == cudaSuccess ? 0 : 1;
  }
  test_fork_queries();
  test_barrier();
  test_nested();
  test_stack();
  test_ws_generic();
  test_spmd();
  test_spmd_serial();
  test_distribute();
  test_grid_loops();
  test_sync();
  if (g_failures) {
    printf("FAILURES: %d\n", g_failures);
    return 1;
  }
  printf("ALL PASS\n");
  return 0;
}
