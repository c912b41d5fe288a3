// Test harness shared by the device-runtime test programs: device-side EXPECT that counts
// failures in __device__ globals, host-side launch/check helpers. Compiles with nvcc and
// under the emulator (g++ -DOMPGPU_EMU -include cuda_emu.h).
#pragma once
#include "ompgpu_device.cuh"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

__device__ int g_err_count;
__device__ int g_err_line;
__device__ int g_err_a;
__device__ int g_err_b;

// Record a failed device-side expectation (first one wins the line number).
#define EXPECT(cond) EXPECT_EQ_I((int)(bool)(cond), 1)
#define EXPECT_EQ_I(a, b)                                   \
  do {                                                      \
    long long _va = (long long)(a), _vb = (long long)(b);   \
    if (_va != _vb) {                                       \
      if (atomicAdd(&g_err_count, 1) == 0) {                \
        g_err_line = __LINE__;                              \
        g_err_a = (int)_va;                                 \
        g_err_b = (int)_vb;                                 \
      }                                                     \
    }                                                       \
  } while (0)

#define CK(call)                                                                          \
  do {                                                                                    \
    cudaError_t _e = (call);                                                              \
    if (_e != cudaSuccess) {                                                              \
      printf("CUDA error %s at %s:%d: %s\n", cudaGetErrorString(_e), __FILE__, __LINE__, #call); \
      exit(2);                                                                            \
    }                                                                                     \
  } while (0)

// OMPGPU_TEST_QUICK=1 (the emulator): fewer configurations
static const bool g_quick = getenv("OMPGPU_TEST_QUICK") != nullptr;
static int g_failures = 0;
static const char *g_test = "";

static void dev_errors_reset() {
  int z = 0;
  CK(cudaMemcpyToSymbol(g_err_count, &z, sizeof z));
  CK(cudaMemcpyToSymbol(g_err_line, &z, sizeof z));
}

// After a kernel: synchronize, collect device-side EXPECT failures.
static bool dev_errors_ok(const char *what) {
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  int n = 0, line = 0, a = 0, b = 0;
  CK(cudaMemcpyFromSymbol(&n, g_err_count, sizeof n));
  if (n) {
    CK(cudaMemcpyFromSymbol(&line, g_err_line, sizeof line));
    CK(cudaMemcpyFromSymbol(&a, g_err_a, sizeof a));
    CK(cudaMemcpyFromSymbol(&b, g_err_b, sizeof b));
    printf("FAIL %s [%s]: %d device expectation(s) failed, first at line %d (%d != %d)\n", g_test, what, n, line, a, b);
    g_failures++;
    dev_errors_reset();
    return false;
  }
  return true;
}

#define HCHECK(cond, ...)                              \
  do {                                                 \
    if (!(cond)) {                                     \
      printf("FAIL %s (line %d): ", g_test, __LINE__); \
      printf(__VA_ARGS__);                             \
      printf("\n");                                    \
      g_failures++;                                    \
    }                                                  \
  } while (0)

template <class T>
struct DevBuf {
  T *d = nullptr;
  size_t n = 0;
  explicit DevBuf(size_t count) : n(count) {
    CK(cudaMalloc((void **)&d, count * sizeof(T) + 16));
    CK(cudaMemset(d, 0, count * sizeof(T) + 16));
  }
  ~DevBuf() { cudaFree(d); }
  // element-wise through a plain array (std::vector<bool> has no data())
  std::vector<T> get() const {
    T *tmp = new T[n];
    CK(cudaMemcpy(tmp, d, n * sizeof(T), cudaMemcpyDeviceToHost));
    std::vector<T> h(tmp, tmp + n);
    delete[] tmp;
    return h;
  }
  void put(const std::vector<T> &h) {
    T *tmp = new T[n];
    for (size_t i = 0; i < n; i++) tmp[i] = h[i];
    CK(cudaMemcpy(d, tmp, n * sizeof(T), cudaMemcpyHostToDevice));
    delete[] tmp;
  }
  void zero() { CK(cudaMemset(d, 0, n * sizeof(T))); }
  DevBuf(const DevBuf &) = delete;
};

// Team size a generic fork gets (mirror of the runtime's rule).
static int expect_team_size(int block, int nt) {
  int nw = block - 32;
  int ts = (nt <= 0 || nt > nw) ? nw : nt;
  return ts;
}

#define BEGIN_TEST(name) \
  g_test = name;         \
  dev_errors_reset();    \
  int _fail_before = g_failures;
#define END_TEST()                                        \
  dev_errors_ok("kernel");                                \
  if (g_failures == _fail_before) printf("PASS %s\n", g_test);

// The worker half of a generated generic kernel (contract shape), with the switch cases
// given as the macro argument; a case passes OMPGPU_TEST_ARGS(P) to a work function whose
// pack type is P. The workers load 16 bytes of pack with the fork word (generated kernels
// load as many as their largest pack up to 64), so both paths of ForkPack are exercised.
#define OMPGPU_TEST_PACK_WORDS 4u
#define OMPGPU_TEST_ARGS(P) const_cast<void *>(ompgpu::ForkPack<P, OMPGPU_TEST_PACK_WORDS>(w).get())
#define OMPGPU_TEST_WORKER_LOOP(CASES)                     \
  if (ompgpu::is_worker()) {                               \
    for (;;) {                                             \
      const auto w = ompgpu::worker_wait<OMPGPU_TEST_PACK_WORDS>(); \
      if (w.fn == ompgpu::WORK_EXIT) break;                \
      if (ompgpu::worker_in_team()) {                      \
        switch (w.fn) { CASES }                            \
      }                                                    \
      ompgpu::worker_join();                               \
    }                                                      \
    return;                                                \
  }
