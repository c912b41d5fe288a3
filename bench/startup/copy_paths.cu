// The building blocks of a copy between pageable host memory and a device, each measured on
// its own (issue 49), so that the runtime's copy path is chosen from numbers of the machine:
//   - the link: cudaMemcpy from and to pinned memory, each way and both ways at once;
//   - the driver's own pageable path (cudaMemcpy from malloc'd memory);
//   - host memory bandwidth: memcpy by 1..16 threads, with the C library's memcpy and with
//     non-temporal (streaming) stores;
//   - pinning the user's memory for the time of one copy: cudaHostRegister / Unregister of
//     touched and of fresh (never touched) memory, whole and in chunks by several threads;
//   - making fresh pages ready: MADV_POPULATE_WRITE by several threads, and a plain memset.
//   copy_paths [max_mb]   one line per measurement: "what size threads GB/s"
#include <cuda_runtime.h>
#include <emmintrin.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <functional>
#include <thread>
#include <vector>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

static double now() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

#define CHECK(x)                                                                       \
  do {                                                                                 \
    cudaError_t e_ = (x);                                                              \
    if (e_ != cudaSuccess) {                                                           \
      printf("error %s at line %d: %s\n", #x, __LINE__, cudaGetErrorString(e_));       \
      exit(1);                                                                         \
    }                                                                                  \
  } while (0)

static void report(const char *what, size_t size, int threads, double seconds) {
  printf("%s %zu %d %.2f\n", what, size >> 20, threads, size / seconds / 1e9);
  fflush(stdout);
}

// Runs f(piece index, begin, length) over n bytes cut into `threads` pieces on as many threads.
static void parallel(size_t n, int threads, const std::function<void(size_t, size_t)> &f) {
  std::vector<std::thread> t;
  const size_t piece = (n / threads + 4095) / 4096 * 4096;
  for (int i = 1; i < threads; ++i) {
    size_t b = piece * i;
    if (b >= n) break;
    t.emplace_back([&, b] { f(b, std::min(piece, n - b)); });
  }
  f(0, std::min(piece, n));
  for (auto &x : t) x.join();
}

static void stream_copy(void *dst, const void *src, size_t n) {
  char *d = (char *)dst;
  const char *s = (const char *)src;
  while (n && ((uintptr_t)d & 15)) { *d++ = *s++; --n; }
  size_t blocks = n / 64;
  for (size_t i = 0; i < blocks; ++i) {
    __m128i a = _mm_loadu_si128((const __m128i *)s), b = _mm_loadu_si128((const __m128i *)(s + 16));
    __m128i c = _mm_loadu_si128((const __m128i *)(s + 32)), e = _mm_loadu_si128((const __m128i *)(s + 48));
    _mm_stream_si128((__m128i *)d, a);
    _mm_stream_si128((__m128i *)(d + 16), b);
    _mm_stream_si128((__m128i *)(d + 32), c);
    _mm_stream_si128((__m128i *)(d + 48), e);
    d += 64;
    s += 64;
  }
  _mm_sfence();
  memcpy(d, s, n % 64);
}

static char *fresh(size_t n) { return (char *)mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0); }
static char *touched(size_t n) {
  char *p = fresh(n);
  parallel(n, 8, [&](size_t b, size_t l) { memset(p + b, 1, l); });
  return p;
}

int main(int argc, char **argv) {
  const size_t max = (size_t)(argc > 1 ? atol(argv[1]) : 1024) << 20;
  printf("info nproc %d\n", (int)std::thread::hardware_concurrency());
  CHECK(cudaFree(nullptr));
  void *dev, *dev2;
  CHECK(cudaMalloc(&dev, max));
  CHECK(cudaMalloc(&dev2, max));
  cudaStream_t s1, s2;
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  const size_t sizes[] = {(size_t)4 << 20, (size_t)16 << 20, (size_t)64 << 20, (size_t)256 << 20, (size_t)1024 << 20};

  // ---- the link, from pinned memory
  char *pin, *pin2;
  CHECK(cudaHostAlloc((void **)&pin, max, 0));
  CHECK(cudaHostAlloc((void **)&pin2, max, 0));
  memset(pin, 1, max);
  memset(pin2, 1, max);
  for (size_t n : sizes) {
    if (n > max) break;
    double best[3] = {1e9, 1e9, 1e9};
    for (int r = 0; r < 3; ++r) {
      double t = now();
      CHECK(cudaMemcpyAsync(dev, pin, n, cudaMemcpyHostToDevice, s1));
      CHECK(cudaStreamSynchronize(s1));
      best[0] = std::min(best[0], now() - t);
      t = now();
      CHECK(cudaMemcpyAsync(pin, dev, n, cudaMemcpyDeviceToHost, s1));
      CHECK(cudaStreamSynchronize(s1));
      best[1] = std::min(best[1], now() - t);
      t = now();
      CHECK(cudaMemcpyAsync(dev, pin, n, cudaMemcpyHostToDevice, s1));
      CHECK(cudaMemcpyAsync(pin2, dev2, n, cudaMemcpyDeviceToHost, s2));
      CHECK(cudaStreamSynchronize(s1));
      CHECK(cudaStreamSynchronize(s2));
      best[2] = std::min(best[2], now() - t);
    }
    report("pinned_to", n, 1, best[0]);
    report("pinned_from", n, 1, best[1]);
    report("pinned_both_each", n, 1, best[2]);
  }

  // ---- the driver's pageable path
  char *src = touched(max), *dst = touched(max);
  for (size_t n : sizes) {
    if (n > max) break;
    double t = now();
    CHECK(cudaMemcpy(dev, src, n, cudaMemcpyHostToDevice));
    report("pageable_to", n, 1, now() - t);
    t = now();
    CHECK(cudaMemcpy(dst, dev, n, cudaMemcpyDeviceToHost));
    report("pageable_from", n, 1, now() - t);
  }

  // ---- host memory bandwidth, touched to touched (256 MB or max)
  {
    const size_t n = std::min(max, (size_t)256 << 20);
    for (int th : {1, 2, 4, 6, 8, 12, 16}) {
      double b1 = 1e9, b2 = 1e9;
      for (int r = 0; r < 3; ++r) {
        double t = now();
        parallel(n, th, [&](size_t b, size_t l) { memcpy(dst + b, src + b, l); });
        b1 = std::min(b1, now() - t);
        t = now();
        parallel(n, th, [&](size_t b, size_t l) { stream_copy(dst + b, src + b, l); });
        b2 = std::min(b2, now() - t);
      }
      report("memcpy", n, th, b1);
      report("stream_copy", n, th, b2);
    }
    // into pinned (the staging buffer) and out of it
    for (int th : {4, 8, 12}) {
      double b1 = 1e9, b2 = 1e9;
      for (int r = 0; r < 3; ++r) {
        double t = now();
        parallel(n, th, [&](size_t b, size_t l) { stream_copy(pin + b, src + b, l); });
        b1 = std::min(b1, now() - t);
        t = now();
        parallel(n, th, [&](size_t b, size_t l) { stream_copy(dst + b, pin + b, l); });
        b2 = std::min(b2, now() - t);
      }
      report("stream_to_pinned", n, th, b1);
      report("stream_from_pinned", n, th, b2);
    }
  }

  // ---- pinning the user's memory for one copy
  for (size_t n : sizes) {
    if (n > max) break;
    double t = now();
    CHECK(cudaHostRegister(src, n, cudaHostRegisterDefault));
    double reg = now() - t;
    t = now();
    CHECK(cudaMemcpyAsync(dev, src, n, cudaMemcpyHostToDevice, s1));
    CHECK(cudaStreamSynchronize(s1));
    double dma = now() - t;
    t = now();
    CHECK(cudaHostUnregister(src));
    double unreg = now() - t;
    report("register_touched", n, 1, reg);
    report("registered_to", n, 1, dma);
    report("unregister_touched", n, 1, unreg);
    report("register_total_to", n, 1, reg + dma + unreg);
    // fresh memory: registering faults the pages in
    char *f = fresh(n);
    t = now();
    CHECK(cudaHostRegister(f, n, cudaHostRegisterDefault));
    reg = now() - t;
    t = now();
    CHECK(cudaMemcpyAsync(f, dev, n, cudaMemcpyDeviceToHost, s1));
    CHECK(cudaStreamSynchronize(s1));
    dma = now() - t;
    t = now();
    CHECK(cudaHostUnregister(f));
    unreg = now() - t;
    report("register_fresh", n, 1, reg);
    report("registered_from", n, 1, dma);
    report("register_total_fresh_from", n, 1, reg + dma + unreg);
    munmap(f, n);
  }
  // registration in chunks, by several threads at once (does the driver serialise it?)
  for (size_t chunk : {(size_t)4 << 20, (size_t)16 << 20, (size_t)64 << 20}) {
    for (int th : {1, 4, 8}) {
      const size_t n = std::min(max, (size_t)1024 << 20);
      double t = now();
      parallel(n, th, [&](size_t b, size_t l) {
        for (size_t o = b; o < b + l; o += chunk) CHECK(cudaHostRegister(src + o, std::min(chunk, b + l - o), 0));
      });
      double reg = now() - t;
      t = now();
      parallel(n, th, [&](size_t b, size_t l) {
        for (size_t o = b; o < b + l; o += chunk) CHECK(cudaHostUnregister(src + o));
      });
      double unreg = now() - t;
      char name[64];
      snprintf(name, sizeof name, "register_chunks_%zuM", chunk >> 20);
      report(name, n, th, reg);
      snprintf(name, sizeof name, "unregister_chunks_%zuM", chunk >> 20);
      report(name, n, th, unreg);
      char *f = fresh(n);
      t = now();
      parallel(n, th, [&](size_t b, size_t l) {
        for (size_t o = b; o < b + l; o += chunk) CHECK(cudaHostRegister(f + o, std::min(chunk, b + l - o), 0));
      });
      reg = now() - t;
      parallel(n, th, [&](size_t b, size_t l) {
        for (size_t o = b; o < b + l; o += chunk) CHECK(cudaHostUnregister(f + o));
      });
      snprintf(name, sizeof name, "register_fresh_chunks_%zuM", chunk >> 20);
      report(name, n, th, reg);
      munmap(f, n);
    }
  }

  // ---- fresh pages made ready
  for (int th : {1, 4, 8, 12}) {
    const size_t n = std::min(max, (size_t)1024 << 20);
    char *f = fresh(n);
    double t = now();
    parallel(n, th, [&](size_t b, size_t l) { madvise(f + b, l, MADV_POPULATE_WRITE); });
    report("populate_fresh", n, th, now() - t);
    munmap(f, n);
    f = fresh(n);
    madvise(f, n, MADV_HUGEPAGE);
    t = now();
    parallel(n, th, [&](size_t b, size_t l) { madvise(f + b, l, MADV_POPULATE_WRITE); });
    report("populate_fresh_huge", n, th, now() - t);
    munmap(f, n);
    f = fresh(n);
    t = now();
    parallel(n, th, [&](size_t b, size_t l) { stream_copy(f + b, src + b, l); });
    report("stream_copy_fresh", n, th, now() - t);
    munmap(f, n);
    f = fresh(n);
    t = now();
    parallel(n, th, [&](size_t b, size_t l) { memcpy(f + b, src + b, l); });
    report("memcpy_fresh", n, th, now() - t);
    munmap(f, n);
  }
  FILE *thp = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
  char line[256] = "";
  if (thp && fgets(line, sizeof line, thp)) printf("info thp %s", line);
  printf("PASS\n");
  return 0;
}
