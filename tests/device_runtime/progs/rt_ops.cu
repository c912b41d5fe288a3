// Device-runtime test program: reductions (every RedOp x every type, generic teams of
// several sizes incl. a partial warp, SPMD blocks incl. partial last warps, teams of one,
// several teams into one target) and atomics (every AtomicOp x every type: contention and
// exact old/new semantics, sub-word neighbours); a lean SPMD team with a partial last warp.
#include "harness.cuh"

using ompgpu::RedOp;
using ompgpu::AtomicOp;

// Host mirror of the C semantics of `a op= b` in type T.
template <class T>
T host_apply(int op, T a, T b) {
  switch (op) {
    case ompgpu::ATOMIC_ADD: return (T)(a + b);
    case ompgpu::ATOMIC_SUB: return (T)(a - b);
    case ompgpu::ATOMIC_SUB_REV: return (T)(b - a);
    case ompgpu::ATOMIC_MUL: return (T)(a * b);
    case ompgpu::ATOMIC_DIV: return (T)(a / b);
    case ompgpu::ATOMIC_DIV_REV: return (T)(b / a);
    case ompgpu::ATOMIC_MIN: return b < a ? b : a;
    case ompgpu::ATOMIC_MAX: return a < b ? b : a;
    case ompgpu::ATOMIC_LAND: return (T)(a && b);
    case ompgpu::ATOMIC_LOR: return (T)(a || b);
    case ompgpu::ATOMIC_ASSIGN: return b;
  }
  if constexpr (std::is_integral<T>::value) {
    switch (op) {
      case ompgpu::ATOMIC_BAND: return (T)(a & b);
      case ompgpu::ATOMIC_BOR: return (T)(a | b);
      case ompgpu::ATOMIC_BXOR: return (T)(a ^ b);
      case ompgpu::ATOMIC_SHL: return (T)(a << b);
      case ompgpu::ATOMIC_SHR: return (T)(a >> b);
      case ompgpu::ATOMIC_SHL_REV: return (T)(b << a);
      case ompgpu::ATOMIC_SHR_REV: return (T)(b >> a);
    }
  }
  return b;
}

// Contribution of (global) thread t for op (host and device).
template <class T>
__host__ __device__ T contrib(int op, int t, int special) {
  const int bits = sizeof(T) * 8 > 32 ? 32 : (int)sizeof(T) * 8;
  const bool sgn = std::is_signed<T>::value;
  switch (op) {
    case ompgpu::RED_ADD: return (T)(t % 7 + 1);
    case ompgpu::RED_MUL: return (T)((t % 32 == 5) ? 2 : 1);
    case ompgpu::RED_MIN:
    case ompgpu::RED_MAX: {
      int v = (t * 37 + special * 11) % 101;
      if (sgn) v -= 50;
      return (T)v;
    }
    case ompgpu::RED_LAND: return (T)(t == special ? 0 : 1 + t % 3);
    case ompgpu::RED_LOR: return (T)(t == special ? 2 : 0);
    default: break;
  }
  if constexpr (std::is_integral<T>::value) {
    switch (op) {
      case ompgpu::RED_BAND: return (t % 3 == 0) ? (T) ~((T)1 << ((t * 5) % bits)) : (T)~(T)0;
      case ompgpu::RED_BOR: return (t % 3 == 0) ? (T)((T)1 << ((t * 7) % bits)) : (T)0;
      case ompgpu::RED_BXOR: return (T)(t * 2654435761u + 12345u);
    }
  }
  return (T)0;
}

template <class T>
constexpr bool op_valid(int op) {
  return std::is_integral<T>::value || !(op == ompgpu::RED_BAND || op == ompgpu::RED_BOR || op == ompgpu::RED_BXOR);
}

// Out-of-line wrappers: the tests pass the operator at run time, so every call site would
// otherwise inline the runtime's whole operator switch (slow to compile). Generated code
// passes constants and gets the folded inline code.
template <class T>
__device__ OMPGPU_NOINLINE void t_reduce(int op, T *target, T v) {
  ompgpu::reduce<T>((RedOp)op, target, v);
}
template <class T>
__device__ OMPGPU_NOINLINE T t_update(int op, T *p, T v) {
  return ompgpu::atomic_update<T>((AtomicOp)op, p, v);
}
template <class T>
__device__ OMPGPU_NOINLINE T t_update_new(int op, T *p, T v) {
  return ompgpu::atomic_update_new<T>((AtomicOp)op, p, v);
}
template <class T>
__device__ OMPGPU_NOINLINE T t_apply(int op, T a, T b) {
  return ompgpu::detail::op_apply<T>((AtomicOp)op, a, b);
}

// ---------------- reductions: generic ----------------
struct PackR {
  void *target;
  int op;
  int special;
};
template <class T>
__device__ void __omp_outlined_red(void *args) {
  PackR *p = (PackR *)args;
  RedOp op = (RedOp)p->op;
  int t = omp_get_thread_num() + blockIdx.x * 1024;
  T priv = ompgpu::red_identity<T>(op);
  priv = t_apply<T>(op, priv, contrib<T>(op, t, p->special));
  t_reduce<T>(op, (T *)p->target, priv);
}
template <class T>
__global__ void __launch_bounds__(OMPGPU_MAX_BLOCK) k_red_generic(T *target, int op, int special, int nt, int master) {
  ompgpu::kernel_init_generic();
  OMPGPU_TEST_WORKER_LOOP(case 1 : __omp_outlined_red<T>(OMPGPU_TEST_ARGS(PackR)); break;)
  PackR pack = {target, op, special};
  ompgpu::fork(1, &pack, sizeof pack, nt);
  if (master) {  // team of one
    t_reduce<T>(op, target, contrib<T>(op, 100000 + blockIdx.x, special));
  }
  ompgpu::kernel_end_generic();
}
// ---------------- reductions: SPMD ----------------
template <class T>
__global__ void __launch_bounds__(OMPGPU_MAX_BLOCK) k_red_spmd(T *target, int op, int special) {
  ompgpu::kernel_init_spmd();
  RedOp rop = (RedOp)op;
  int t = omp_get_thread_num() + blockIdx.x * 1024;
  T priv = ompgpu::red_identity<T>(rop);
  priv = t_apply<T>(op, priv, contrib<T>(op, t, special));
  t_reduce<T>(op, target, priv);
}

template <class T>
static T red_expected(int op, int special, int grid, int ts, bool master, T init) {
  T acc = init;
  for (int g = 0; g < grid; g++)
    for (int t = 0; t < ts; t++) acc = host_apply<T>(op, acc, contrib<T>(op, g * 1024 + t, special));
  if (master)
    for (int g = 0; g < grid; g++) acc = host_apply<T>(op, acc, contrib<T>(op, 100000 + g, special));
  return acc;
}

template <class T>
static T red_init(int op) {
  if (op == ompgpu::RED_MUL || op == ompgpu::RED_LAND) return (T)1;
  if (op == ompgpu::RED_LOR) return (T)0;
  if constexpr (std::is_integral<T>::value)
    if (op == ompgpu::RED_BAND) return (T)~(T)0;
  return (T)3;
}

template <class T>
static bool same(T a, T b) {
  return a == b;
}

template <class T>
static void test_red_type(const char *tname) {
  char name[96];
  snprintf(name, sizeof name, "reduce<%s> all ops", tname);
  BEGIN_TEST(name);
  DevBuf<T> target(1);
  const int grid = 3;
  for (int op = 0; op <= 8; op++) {
    if (!op_valid<T>(op)) continue;
    for (int special : {-1, 7}) {
      if (special == 7 && !(op == ompgpu::RED_LAND || op == ompgpu::RED_LOR || op == ompgpu::RED_MIN)) continue;
      T init = red_init<T>(op);
      // generic: block, nt
      const int cfg[][2] = {{64, 0}, {160, 5}, {160, 1}, {160, 0}, {1024, 0}};
      for (auto &c : cfg) {
        if (g_quick && (c[0] == 1024 || c[1] == 1)) continue;
        for (int master : {0, 1}) {
          target.put(std::vector<T>{init});
          OMPGPU_LAUNCH_KERNEL(k_red_generic<T>, grid, c[0], 0, 0, target.d, op, special, c[1], master);
          dev_errors_ok("red generic");
          T got = target.get()[0];
          T want = red_expected<T>(op, special, grid, expect_team_size(c[0], c[1]), master, init);
          HCHECK(same(got, want), "generic op %d block %d nt %d master %d: got %g want %g", op, c[0], c[1], master,
                 (double)got, (double)want);
        }
      }
      for (int blk : {20, 32, 100, 256}) {
        if (g_quick && blk == 256) continue;
        target.put(std::vector<T>{init});
        OMPGPU_LAUNCH_KERNEL(k_red_spmd<T>, grid, blk, 0, 0, target.d, op, special);
        dev_errors_ok("red spmd");
        T got = target.get()[0];
        T want = red_expected<T>(op, special, grid, blk, false, init);
        HCHECK(same(got, want), "spmd op %d block %d: got %g want %g", op, blk, (double)got, (double)want);
      }
    }
  }
  END_TEST();
}

// ---------------- atomics ----------------
// (a) contention: every team thread applies op with its contribution (commutative ops, SUB)
struct PackA {
  void *x;
  int op;
};
template <class T>
__device__ void __omp_outlined_atomic(void *args) {
  PackA *p = (PackA *)args;
  int t = omp_get_thread_num() + blockIdx.x * 1024;
  int cop = p->op == ompgpu::ATOMIC_SUB ? (int)ompgpu::RED_ADD : p->op;  // SUB uses ADD contributions
  T v = contrib<T>(cop, t, -1);
  t_update<T>(p->op, (T *)p->x, v);
  T *arr = (T *)p->x + 1;  // a second copy updated through atomic_update_new
  t_update_new<T>(p->op, arr, v);
}
template <class T>
__global__ void __launch_bounds__(OMPGPU_MAX_BLOCK) k_atomic_contention(T *x, int op, int nt) {
  ompgpu::kernel_init_generic();
  OMPGPU_TEST_WORKER_LOOP(case 1 : __omp_outlined_atomic<T>(OMPGPU_TEST_ARGS(PackA)); break;)
  PackA pack = {x, op};
  ompgpu::fork(1, &pack, sizeof pack, nt);
  ompgpu::kernel_end_generic();
}

// (b) exact semantics, one thread: for each (a, b): old and new of atomic_update / _new
template <class T>
__global__ void k_atomic_semantics(const T *a, const T *b, int n, int op, T *olds, T *news, T *finals) {
  ompgpu::kernel_init_spmd();
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    T x = a[i];
    T *px = &finals[2 * i];  // global memory
    ompgpu::atomic_write<T>(px, x);
    olds[i] = t_update<T>(op, px, b[i]);
    T *py = &finals[2 * i + 1];
    ompgpu::atomic_write<T>(py, x);
    news[i] = t_update_new<T>(op, py, b[i]);
  }
}

// (c) sub-word neighbours: thread t updates element t % 8 of a small array
template <class T>
__global__ void k_atomic_neighbours(T *arr, int iters) {
  ompgpu::kernel_init_spmd();
  for (int i = 0; i < iters; i++) ompgpu::atomic_update<T>(ompgpu::ATOMIC_ADD, &arr[threadIdx.x % 8], (T)1);
}

template <class T>
static void test_atomic_type(const char *tname) {
  char name[96];
  snprintf(name, sizeof name, "atomics<%s> all ops", tname);
  BEGIN_TEST(name);
  const int grid = 2;
  DevBuf<T> x(2);
  // contention
  for (int op : {0, 1, 2, 3, 4, 5, 6, 7, 8, (int)ompgpu::ATOMIC_SUB}) {
    if (!op_valid<T>(op)) continue;
    for (int b : {64, 1024}) {
      if (g_quick && b == 1024) continue;
      int ts = expect_team_size(b, 0);
      T init = red_init<T>(op);
      x.put(std::vector<T>{init, init});
      OMPGPU_LAUNCH_KERNEL(k_atomic_contention<T>, grid, b, 0, 0, x.d, op, 0);
      dev_errors_ok("atomic contention");
      T want = init;
      int cop = op == ompgpu::ATOMIC_SUB ? 0 : op;
      for (int g = 0; g < grid; g++)
        for (int t = 0; t < ts; t++) want = host_apply<T>(op, want, contrib<T>(cop, g * 1024 + t, -1));
      auto got = x.get();
      HCHECK(same(got[0], want) && same(got[1], want), "op %d block %d: got %g / %g want %g", op, b, (double)got[0],
             (double)got[1], (double)want);
    }
  }
  // exact semantics for every op
  const int n = 12;
  std::vector<T> ha(n), hb(n);
  for (int i = 0; i < n; i++) {
    ha[i] = (T)(i * 3 + 5);
    hb[i] = (T)(i % 4 + 1);
  }
  if (std::is_signed<T>::value) {
    ha[1] = (T)-7;
    hb[2] = (T)-3;
  }
  ha[5] = (T)0;
  hb[6] = (T)0;
  hb[7] = (T)1;
  DevBuf<T> da(n), db(n), dold(n), dnew(n), dfin(2 * n);
  da.put(ha);
  db.put(hb);
  for (int op = 0; op <= (int)ompgpu::ATOMIC_SHR_REV; op++) {
    bool integral = std::is_integral<T>::value;
    if (!integral && (op == 4 || op == 5 || op == 6 || op == 11 || op == 12 || op == 16 || op == 17)) continue;
    std::vector<T> hb2 = hb, ha2 = ha;
    if (op == ompgpu::ATOMIC_DIV) hb2[6] = (T)5;      // no division by zero
    if (op == ompgpu::ATOMIC_DIV_REV) ha2[5] = (T)5;
    if (op == ompgpu::ATOMIC_SHL || op == ompgpu::ATOMIC_SHR)
      for (int i = 0; i < n; i++) hb2[i] = (T)(i % 3);  // small, non-negative shift counts
    if (op == ompgpu::ATOMIC_SHL_REV || op == ompgpu::ATOMIC_SHR_REV)
      for (int i = 0; i < n; i++) ha2[i] = (T)(i % 3);
    db.put(hb2);
    da.put(ha2);
    OMPGPU_LAUNCH_KERNEL(k_atomic_semantics<T>, 1, 32, 0, 0, da.d, db.d, n, op, dold.d, dnew.d, dfin.d);
    dev_errors_ok("atomic semantics");
    auto o = dold.get(), nw = dnew.get(), f = dfin.get();
    for (int i = 0; i < n; i++) {
      T want = host_apply<T>(op, ha2[i], hb2[i]);
      HCHECK(same(o[i], ha2[i]) && same(f[2 * i], want) && same(nw[i], want) && same(f[2 * i + 1], want),
             "op %d case %d: a=%g b=%g old=%g x=%g new=%g y=%g want %g", op, i, (double)ha2[i], (double)hb2[i],
             (double)o[i], (double)f[2 * i], (double)nw[i], (double)f[2 * i + 1], (double)want);
    }
  }
  db.put(hb);
  da.put(ha);
  // neighbours
  if (sizeof(T) < 4) {
    DevBuf<T> arr(8);
    OMPGPU_LAUNCH_KERNEL(k_atomic_neighbours<T>, 1, 256, 0, 0, arr.d, 3);
    dev_errors_ok("neighbours");
    auto h = arr.get();
    for (int i = 0; i < 8; i++) HCHECK(same(h[i], (T)(32 * 3)), "neighbour %d = %g", i, (double)h[i]);
  }
  END_TEST();
}

#define FOR_TYPES(X)                                                                                               \
  X(char) X(signed char) X(unsigned char) X(short) X(unsigned short) X(int) X(unsigned) X(long) X(unsigned long) \
      X(long long) X(unsigned long long) X(float) X(double)

// A lean SPMD kernel (no kernel_init) with a team of num_threads(40): a partial last warp, so the
// team meets on the counting barrier, whose count and round live in team state that nothing set
// up. On a GPU shared memory starts undefined: the kernel writes garbage there first, as a GPU
// may hold; spmd_sized_begin must zero it, or the team waits for a count it never reaches.
extern "C" __global__ void __launch_bounds__(OMPGPU_MAX_BLOCK) __omp_offloading_lean_sized(int *out, int rounds) {
  if (threadIdx.x == 0) {
    ompgpu::detail::team_state.count_bar_arrived = 12345u;
    ompgpu::detail::team_state.count_bar_round = 77u;
  }
  ompgpu::block_barrier();
  const unsigned ts = ompgpu::spmd_team_size(40);
  ompgpu::spmd_sized_begin(ts);
  if (threadIdx.x < ts) {
    for (int r = 0; r < rounds; r++) {
      if (threadIdx.x == (unsigned)r % ts) atomicAdd(&out[blockIdx.x], 1);
      ompgpu::known_team_barrier(ts);   // every thread sees the round's one increment
      if (out[blockIdx.x] != r + 1) atomicAdd(&out[gridDim.x + blockIdx.x], 1);
      ompgpu::known_team_barrier(ts);
    }
  }
}

// Shared memory starts undefined in every block: under the emulator a kernel's shared variable
// (OMPGPU_SHARED_STARTS_UNDEFINED after its declaration) and the runtime's own shared state are
// garbage (0xA5 bytes) at each block's start, not what the last block on that OS thread left; a
// second pass of the declaration in the block leaves what the block stored.
extern "C" __global__ void __omp_offloading_shared_undefined(unsigned long long *out) {
  OMPGPU_SHARED unsigned x;
  OMPGPU_SHARED_STARTS_UNDEFINED(x);
  if (threadIdx.x == 0) {
    out[4 * blockIdx.x] = x;
    out[4 * blockIdx.x + 2] = ompgpu::detail::allreduce_slots[0][0];
    out[4 * blockIdx.x + 3] = ompgpu::detail::team_state.count_bar_arrived;
    ompgpu::detail::allreduce_slots[0][0] = 1;
    ompgpu::detail::team_state.count_bar_arrived = 2;
    x = 7;
  }
  __syncthreads();
  OMPGPU_SHARED_STARTS_UNDEFINED(x);
  if (threadIdx.x == 1) out[4 * blockIdx.x + 1] = x;
}

static void test_shared_starts_undefined() {
  BEGIN_TEST("shared memory starts as garbage in every block (emulator), a block's stores stay");
  DevBuf<unsigned long long> out(4 * 4);
  OMPGPU_LAUNCH_KERNEL(__omp_offloading_shared_undefined, 4, 64, 0, 0, out.d);
  dev_errors_ok("shared_undefined");
  auto h = out.get();
  for (int b = 0; b < 4; b++) {
    HCHECK(h[4 * b + 1] == 7, "block %d: the second pass of the declaration changed x to %llu", b, h[4 * b + 1]);
#ifdef OMPGPU_EMU
    HCHECK(h[4 * b] == 0xA5A5A5A5ull && h[4 * b + 2] == 0xA5A5A5A5A5A5A5A5ull && h[4 * b + 3] == 0xA5A5A5A5ull,
           "block %d started with x %llx, reduction slot %llx, barrier count %llx", b, h[4 * b], h[4 * b + 2], h[4 * b + 3]);
#endif
  }
  END_TEST();
}

static void test_lean_sized_team() {
  BEGIN_TEST("lean SPMD team of 40 threads: the counting barrier's state zeroed before use");
  DevBuf<int> out(2 * 4);
  for (int blk : {64, 128}) {
    out.zero();
    OMPGPU_LAUNCH_KERNEL(__omp_offloading_lean_sized, 4, blk, 0, 0, out.d, 5);
    dev_errors_ok("lean_sized");
    auto h = out.get();
    for (int b = 0; b < 4; b++)
      HCHECK(h[b] == 5 && h[4 + b] == 0, "block size %d, block %d: %d rounds, %d threads saw a wrong count", blk, b, h[b],
             h[4 + b]);
  }
  END_TEST();
}

int main() {
  test_shared_starts_undefined();
  test_lean_sized_team();
#define RUN(T) test_red_type<T>(#T);
  FOR_TYPES(RUN)
#undef RUN
#define RUN(T) test_atomic_type<T>(#T);
  FOR_TYPES(RUN)
#undef RUN
  test_red_type<bool>("bool");
  if (g_failures) {
    printf("FAILURES: %d\n", g_failures);
    return 1;
  }
  printf("ALL PASS\n");
  return 0;
}
