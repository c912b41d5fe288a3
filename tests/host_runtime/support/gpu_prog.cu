// The host runtime (real-CUDA build) with real kernels, for a machine with a GPU.
// Built by test_gpu.py:
//   nvcc -std=c++17 -O2 -arch=sm_90 -I ompgpu/runtime/host gpu_prog.cu libompgpu_host_cuda.a -o gpu_prog
// `gpu_prog <scenario>`: exit 0 = pass, 2 = a CHECK failed.
#include "ompgpu_host.h"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#define CHECK(c)                                                                  \
  do {                                                                            \
    if (!(c)) {                                                                   \
      std::fprintf(stderr, "CHECK failed at gpu_prog.cu:%d: %s\n", __LINE__, #c); \
      std::exit(2);                                                               \
    }                                                                             \
  } while (0)

struct S { int x; double y; };

// ---- kernels and their launch stubs (what the compiler will generate)
extern "C" __global__ void k_scale(double *a, long long lo, long long hi, int n, S *s) {
  long long i = lo + blockIdx.x * (long long)blockDim.x + threadIdx.x;
  for (; i < hi; i += (long long)gridDim.x * blockDim.x) a[i] = 2 * a[i] + n;
  if (blockIdx.x == 0 && threadIdx.x == 0) { s->x += 1; s->y *= 2; }
}
extern "C" int launch_scale(const ompgpu_launch_config *cfg, void **args) {
  k_scale<<<cfg->num_teams, cfg->threads_per_team, cfg->dyn_shmem, (cudaStream_t)cfg->stream>>>(
      *(double **)args[0], 10, *(long long *)args[1], *(int *)args[2], *(S **)args[3]);
  return (int)cudaGetLastError();
}

extern "C" __global__ void k_incr(double *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += 1;
}
extern "C" int launch_incr(const ompgpu_launch_config *cfg, void **args) {
  k_incr<<<cfg->num_teams, cfg->threads_per_team, 0, (cudaStream_t)cfg->stream>>>(*(double **)args[0],
                                                                                   *(int *)args[1]);
  return (int)cudaGetLastError();
}

extern "C" __global__ void k_store(double *p) { p[threadIdx.x] = 1; }
extern "C" int launch_store(const ompgpu_launch_config *cfg, void **args) {
  k_store<<<cfg->num_teams, cfg->threads_per_team, 0, (cudaStream_t)cfg->stream>>>(*(double **)args[0]);
  return (int)cudaGetLastError();
}

static ompgpu_map_entry ent(void *base, void *begin, long long size, int flags, const char *name) {
  ompgpu_map_entry e;
  e.base = base; e.begin = begin; e.size = size; e.flags = flags; e.name = name;
  return e;
}

static ompgpu_kernel_desc kdesc(const char *name, ompgpu_launch_fn fn, int mode) {
  ompgpu_kernel_desc k;
  std::memset(&k, 0, sizeof k);
  k.name = name; k.file = "gpu.c"; k.line = 12; k.col = 9; k.mode = mode; k.launch = fn; k.max_threads = 1024;
  return k;
}

static ompgpu_srcloc LOC = {"gpu.c", 10, 9, "target data"};
#define DEF OMPGPU_DEVICE_DEFAULT
enum { TO = OMPGPU_MAP_TO, FROM = OMPGPU_MAP_FROM, ARG = OMPGPU_MAP_ARG };

static int t_basic() {
  const long long N = 1 << 20;
  int n = 3;
  long long hi = N - 10;
  S s = {1, 1.5};
  double *a = (double *)std::malloc(N * sizeof(double));
  for (long long i = 0; i < N; ++i) a[i] = (double)i;
  ompgpu_map_entry whole = ent(a, a, N * sizeof(double), TO | FROM, "a[0:N]");
  ompgpu_target_data_begin(&LOC, DEF, 1, 1, &whole);
  CHECK(ompgpu_omp_target_is_present(a + 100, 0));
  void *da = ompgpu_get_device_ptr(&LOC, DEF, a);
  CHECK(da && da != a);
  ompgpu_map_entry m[4];
  m[0] = ent(a, a + 10, (N - 20) * (long long)sizeof(double), OMPGPU_MAP_PTR | TO | FROM | ARG, "a[10:N-20]");
  m[1] = ent(&hi, &hi, 0, OMPGPU_MAP_LITERAL | ARG, "hi");
  m[2] = ent(&n, &n, 0, OMPGPU_MAP_LITERAL | ARG, "n");
  m[3] = ent(&s, &s, sizeof s, TO | FROM | ARG, "s");
  ompgpu_kernel_desc k = kdesc("__omp_offloading_basic_l12", launch_scale, OMPGPU_MODE_SPMD);
  CHECK(ompgpu_target(&k, DEF, 1, 0, 0, 4, m) == 0);
  CHECK(s.x == 2 && s.y == 3.0);
  CHECK(a[20] == 20);   // a still mapped by the data region: not copied back yet
  ompgpu_map_entry part = ent(a, a + 5, 20 * sizeof(double), FROM, "a[5:20]");
  ompgpu_target_update(&LOC, DEF, 1, 1, &part);
  CHECK(a[5] == 5 && a[9] == 9 && a[10] == 23 && a[24] == 51 && a[25] == 25);
  ompgpu_target_data_end(&LOC, DEF, 1, 1, &whole);
  for (long long i = 0; i < N; ++i) CHECK(a[i] == ((i >= 10 && i < N - 10) ? 2.0 * i + 3 : (double)i));
  CHECK(!ompgpu_omp_target_is_present(a, 0));
  std::free(a);
  return 0;
}

static int t_api() {
  int dev = ompgpu_omp_get_default_device(), host = ompgpu_omp_get_initial_device();
  CHECK(ompgpu_omp_get_num_devices() >= 1 && host == ompgpu_omp_get_num_devices());
  double h[256], back[256];
  for (int i = 0; i < 256; ++i) h[i] = i;
  double *d = (double *)ompgpu_omp_target_alloc(sizeof h, dev);
  CHECK(d != nullptr);
  CHECK(ompgpu_omp_target_memcpy(d, h, sizeof h, 0, 0, dev, host) == 0);
  CHECK(ompgpu_omp_target_associate_ptr(h, d, sizeof h, 0, dev) == 0);
  int n = 256;
  ompgpu_map_entry m[2];
  m[0] = ent(h, h, sizeof h, TO | FROM | ARG, "h");
  m[1] = ent(&n, &n, 0, OMPGPU_MAP_LITERAL | ARG, "n");
  ompgpu_kernel_desc k = kdesc("__omp_offloading_api_l12", launch_incr, OMPGPU_MODE_SPMD);
  CHECK(ompgpu_target(&k, DEF, 1, 2, 128, 2, m) == 0);
  CHECK(h[7] == 7);   // associated: present, so not copied back
  CHECK(ompgpu_omp_target_memcpy(back, d, sizeof h, 0, 0, host, dev) == 0 && back[7] == 8);
  CHECK(ompgpu_omp_target_disassociate_ptr(h, dev) == 0);
  ompgpu_omp_target_free(d, dev);
  return 0;
}

static int t_threads() {
  const int T = 8, ITERS = 50, n = 4096;
  std::vector<std::vector<double>> data(T, std::vector<double>(n, 0.0));
  static double shared_buf[1024];
  std::vector<std::thread> th;
  for (int t = 0; t < T; ++t)
    th.emplace_back([&, t] {
      ompgpu_kernel_desc k = kdesc("__omp_offloading_thr_l12", launch_incr, OMPGPU_MODE_GENERIC);
      int nn = n;
      for (int it = 0; it < ITERS; ++it) {
        ompgpu_map_entry sh = ent(shared_buf, shared_buf, sizeof shared_buf, TO | FROM, "shared");
        ompgpu_target_data_begin(&LOC, DEF, 1, 1, &sh);
        ompgpu_map_entry m[3];
        m[0] = ent(data[t].data(), data[t].data(), n * (long long)sizeof(double), TO | FROM | ARG, "mine");
        m[1] = ent(&nn, &nn, 0, OMPGPU_MAP_LITERAL | ARG, "n");
        m[2] = ent(shared_buf, shared_buf, sizeof shared_buf, TO | FROM, "shared");
        CHECK(ompgpu_target(&k, DEF, 1, (n + 127) / 128, 96, 3, m) == 0);
        ompgpu_target_data_end(&LOC, DEF, 1, 1, &sh);
      }
    });
  for (auto &x : th) x.join();
  for (int t = 0; t < T; ++t)
    for (int i = 0; i < n; ++i) CHECK(data[t][i] == ITERS);
  CHECK(!ompgpu_omp_target_is_present(shared_buf, 0));
  return 0;
}

static int t_info() {   // default launch configuration, logged
  double a[64] = {0};
  int n = 64;
  ompgpu_map_entry m[2];
  m[0] = ent(a, a, sizeof a, TO | FROM | ARG, "a[0:n]");
  m[1] = ent(&n, &n, 0, OMPGPU_MAP_LITERAL | ARG, "n");
  ompgpu_kernel_desc k = kdesc("__omp_offloading_info_l12", launch_incr, OMPGPU_MODE_GENERIC);
  CHECK(ompgpu_target(&k, DEF, 1, 0, 0, 2, m) == 0);
  k.mode = OMPGPU_MODE_SPMD;
  CHECK(ompgpu_target(&k, DEF, 1, 0, 0, 2, m) == 0);
  CHECK(a[5] == 2);
  return 0;
}

static int t_fault() {   // a captured pointer whose target is not mapped: NULL on the device
  static double unmapped[32];
  double *p = unmapped;
  ompgpu_map_entry m = ent(p, p, 0, OMPGPU_MAP_ATTACH_ONLY | ARG, "p");
  ompgpu_kernel_desc k = kdesc("__omp_offloading_fault_l12", launch_store, OMPGPU_MODE_SPMD);
  ompgpu_target(&k, DEF, 1, 1, 32, 1, &m);
  return 3;
}

static int t_oom() {
  static char small[16];
  ompgpu_map_entry m = ent(small, small, 1LL << 50, 0, "huge[0:n]");
  ompgpu_target_data_begin(&LOC, DEF, 1, 1, &m);
  return 3;
}

static int t_toobig() {   // a launch bound above the device limit: clamped to it
  double a[4] = {0};
  int n = 4;
  ompgpu_map_entry m[2];
  m[0] = ent(a, a, sizeof a, TO | FROM | ARG, "a");
  m[1] = ent(&n, &n, 0, OMPGPU_MAP_LITERAL | ARG, "n");
  ompgpu_kernel_desc k = kdesc("__omp_offloading_big_l12", launch_incr, OMPGPU_MODE_SPMD);
  k.max_threads = 4096;   // the compiler lies about the launch bound
  ompgpu_target(&k, DEF, 1, 1, 0, 2, m);   // clamped to the device limit: must still run
  CHECK(a[0] == 1);
  return 0;
}

int main(int argc, char **argv) {
  const char *t = argc > 1 ? argv[1] : "";
  if (!std::strcmp(t, "basic")) return t_basic();
  if (!std::strcmp(t, "api")) return t_api();
  if (!std::strcmp(t, "threads")) return t_threads();
  if (!std::strcmp(t, "info")) return t_info();
  if (!std::strcmp(t, "fault")) return t_fault();
  if (!std::strcmp(t, "oom")) return t_oom();
  if (!std::strcmp(t, "toobig")) return t_toobig();
  std::fprintf(stderr, "unknown scenario '%s'\n", t);
  return 4;
}
