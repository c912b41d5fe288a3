/* Shared by every benchmark in bench/ (OpenMP C sources and the CUDA versions):
 * deterministic input generation, command-line sizes, timing and the result lines that
 * bench/run.py parses.
 *
 * Each program prints, per repetition (BENCH_REPS in the environment, default 1):
 *     <name> <variant> rep <i> kernel_ms <t> e2e_ms <t>
 * where kernel_ms is the time spent in the target regions (OpenMP: omp_get_wtime around
 * each region; CUDA: events around each kernel) and e2e_ms the time from mapping the inputs
 * to having the results back on the host. Then it checks the last repetition against a
 * serial CPU reference and prints PASS or FAIL (exit status 0 or 1). */
#ifndef BENCH_H
#define BENCH_H
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* the CUDA versions also build for the CPU through ompgpu's CUDA emulator (tests/bench) */
#if defined(__CUDACC__) || defined(OMPGPU_EMU)
#define BENCH_CUDA 1
#endif

/* the flat kernels name their own OpenMP variants (their .c defines BENCH_VARIANT first) */
#if defined(BENCH_CUDA)
#undef BENCH_VARIANT
#define BENCH_VARIANT "cuda"
#elif defined(BENCH_VARIANT)
#elif defined(SPMD)
#define BENCH_VARIANT "spmd"
#else
#define BENCH_VARIANT "nested"
#endif

static double bench_clock(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* a stateless integer hash: inputs depend only on their index, so every variant and the
 * reference see the same data without sharing a random-number generator */
static unsigned bench_hash(unsigned x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

/* uniform in [0, 1) */
static float bench_unit(unsigned i, unsigned seed) {
  return (float)(bench_hash(i * 2654435761u + seed * 97u + 1u) >> 8) * (1.0f / 16777216.0f);
}

static int bench_arg(int argc, char **argv, int i, int dflt) {
  if (argc > i) {
    int v = atoi(argv[i]);
    if (v > 0) return v;
    fprintf(stderr, "argument %d must be a positive integer, got '%s'\n", i, argv[i]);
    exit(2);
  }
  return dflt;
}

static int bench_reps(void) {
  const char *s = getenv("BENCH_REPS");
  int r = s ? atoi(s) : 1;
  return r < 1 ? 1 : r;
}

static void bench_report(const char *name, int rep, double kernel_s, double e2e_s) {
  printf("%s %s rep %d kernel_ms %.4f e2e_ms %.4f\n", name, BENCH_VARIANT, rep, kernel_s * 1e3, e2e_s * 1e3);
  fflush(stdout);
}

static int bench_finish(int ok) {
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}

static void *bench_alloc(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p) {
    fprintf(stderr, "out of host memory (%zu bytes)\n", bytes);
    exit(2);
  }
  memset(p, 0, bytes);
  return p;
}

#ifdef BENCH_CUDA
#ifdef OMPGPU_EMU
#define BENCH_LAUNCH(kernel, grid, block, ...) OMPGPU_LAUNCH_KERNEL(kernel, grid, block, 0, 0, __VA_ARGS__)
#else
#define BENCH_LAUNCH(kernel, grid, block, ...) kernel<<<(grid), (block)>>>(__VA_ARGS__)
#endif
#define CUDA_CHECK(call)                                                                      \
  do {                                                                                        \
    cudaError_t err_ = (call);                                                                \
    if (err_ != cudaSuccess) {                                                                \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(err_)); \
      exit(3);                                                                                \
    }                                                                                         \
  } while (0)
/* device start-up is not part of any measurement */
static void bench_warmup(void) {
  void *p;
  CUDA_CHECK(cudaMalloc(&p, 16));
  CUDA_CHECK(cudaFree(p));
}
/* kernel time from events around the launches */
static float bench_event_ms(cudaEvent_t a, cudaEvent_t b) {
  float ms = 0;
  CUDA_CHECK(cudaEventSynchronize(b));
  CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
  return ms;
}
#define BENCH_NOW() bench_clock()
#else
#include <omp.h>
#define BENCH_NOW() omp_get_wtime()
/* device start-up and image loading (gcc JIT-compiles its PTX here) are not part of any
 * measurement */
static void bench_warmup(void) {
  int touched = 0;
#pragma omp target map(tofrom: touched)
  touched = 1;
  if (!touched) {
    fprintf(stderr, "warm-up target region did not run\n");
    exit(3);
  }
}
#endif
#endif
