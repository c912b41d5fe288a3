// Session 16 run 7's probe: what cudaMalloc, cudaFree and a pool's allocation cost on this machine
// by size: the first cudaMalloc of each size, its cudaFree, a second cudaMalloc of the size, and
// cudaMallocAsync from a pool whose release threshold keeps freed memory (first and second).
#include <chrono>
#include <cstdio>
#include <cstdint>

static double us_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t).count();
}

int main() {
  cudaFree(0);
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  const size_t sizes[] = {size_t(1) << 20, size_t(16) << 20, size_t(82) << 20, size_t(256) << 20, size_t(1) << 30,
                          size_t(4) << 30};
  for (size_t bytes : sizes) {
    void *p = nullptr, *q = nullptr;
    auto t = std::chrono::steady_clock::now();
    cudaMalloc(&p, bytes);
    const double first = us_since(t);
    t = std::chrono::steady_clock::now();
    cudaMemsetAsync(p, 0, bytes, s);
    cudaStreamSynchronize(s);
    const double touch = us_since(t);
    t = std::chrono::steady_clock::now();
    cudaFree(p);
    const double freed = us_since(t);
    t = std::chrono::steady_clock::now();
    cudaMalloc(&q, bytes);
    const double second = us_since(t);
    cudaFree(q);
    printf("malloc bytes %zu first_us %.1f memset_us %.1f free_us %.1f second_us %.1f\n", bytes, first, touch, freed, second);
  }
  cudaMemPool_t pool;
  cudaDeviceGetDefaultMemPool(&pool, 0);
  uint64_t keep = UINT64_MAX;
  cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
  for (size_t bytes : sizes) {
    void *p = nullptr;
    auto t = std::chrono::steady_clock::now();
    cudaMallocAsync(&p, bytes, s);
    cudaStreamSynchronize(s);
    const double first = us_since(t);
    cudaFreeAsync(p, s);
    cudaStreamSynchronize(s);
    t = std::chrono::steady_clock::now();
    cudaMallocAsync(&p, bytes, s);
    cudaStreamSynchronize(s);
    const double second = us_since(t);
    cudaFreeAsync(p, s);
    cudaStreamSynchronize(s);
    printf("pool bytes %zu first_us %.1f second_us %.1f\n", bytes, first, second);
  }
  printf("%s\n", cudaGetLastError() == cudaSuccess ? "PASS" : "FAIL");
  return 0;
}
