// transfer.c in CUDA: cudaMemcpy between device memory and pageable (malloc) or pinned
// (cudaMallocHost) host memory; both ways at once on two host threads.
//   transfer_cuda pageable|pinned [max_mb]
#include <algorithm>
#include <thread>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

static double now(void) {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv) {
  const bool pinned = argc > 1 && strcmp(argv[1], "pinned") == 0;
  const long max_mb = argc > 2 ? atol(argv[2]) : 4096;
  int ok = 1;
  cudaFree(0);
  for (size_t size = 4096; size <= (size_t)max_mb << 20; size *= 4) {
    unsigned char *h = nullptr, *d = nullptr;
    if (pinned) {
      if (cudaMallocHost(&h, size) != cudaSuccess) return 3;
    } else {
      h = (unsigned char *)malloc(size);
    }
    if (cudaMalloc(&d, size) != cudaSuccess) return 3;
    for (size_t i = 0; i < size; i++) h[i] = (unsigned char)(i * 7 + 1);
    const int reps = size <= ((size_t)64 << 20) ? 9 : 3;
    double to[9], from[9];
    for (int r = 0; r < reps; r++) {
      double t = now();
      cudaMemcpy(d, h, size, cudaMemcpyHostToDevice);
      to[r] = now() - t;
      t = now();
      cudaMemcpy(h, d, size, cudaMemcpyDeviceToHost);
      from[r] = now() - t;
    }
    double both[9];
    {   // both ways at once: h to the device on this thread, g from another device buffer on another
      unsigned char *g = nullptr, *d2 = nullptr;
      if (pinned) {
        if (cudaMallocHost(&g, size) != cudaSuccess) return 3;
      } else {
        g = (unsigned char *)malloc(size);
      }
      memset(g, 0, size);
      if (cudaMalloc(&d2, size) != cudaSuccess) return 3;
      cudaMemcpy(d2, h, size, cudaMemcpyHostToDevice);
      for (int r = 0; r < reps; r++) {
        double t = now();
        std::thread other([&] { cudaMemcpy(g, d2, size, cudaMemcpyDeviceToHost); });
        cudaMemcpy(d, h, size, cudaMemcpyHostToDevice);
        other.join();
        both[r] = now() - t;
      }
      for (size_t i = 0; i < size; i += 4093) ok &= g[i] == (unsigned char)(i * 7 + 1);
      cudaFree(d2);
      if (pinned) cudaFreeHost(g);
      else free(g);
    }
    memset(h, 0, size);
    if (cudaMemcpy(h, d, size, cudaMemcpyDeviceToHost) != cudaSuccess) ok = 0;
    for (size_t i = 0; i < size; i += 4093) ok &= h[i] == (unsigned char)(i * 7 + 1);
    double fresh[9];
    for (int r = 0; r < reps; r++) {   // into fresh memory (malloc'd, never touched; pinned: a new cudaMallocHost)
      unsigned char *f = nullptr;
      if (pinned) {
        if (cudaMallocHost(&f, size) != cudaSuccess) return 3;
      } else {
        f = (unsigned char *)malloc(size);
      }
      double t = now();
      cudaMemcpy(f, d, size, cudaMemcpyDeviceToHost);
      fresh[r] = now() - t;
      if (pinned) cudaFreeHost(f);
      else free(f);
    }
    std::sort(to, to + reps);
    std::sort(from, from + reps);
    std::sort(fresh, fresh + reps);
    std::sort(both, both + reps);
    printf("transfer bytes %zu to_gbs %.3f from_gbs %.3f fresh_from_gbs %.3f both_gbs %.3f\n", size,
           size / to[reps / 2] / 1e9, size / from[reps / 2] / 1e9, size / fresh[reps / 2] / 1e9,
           size / both[reps / 2] / 1e9);
    fflush(stdout);
    cudaFree(d);
    if (pinned) cudaFreeHost(h);
    else free(h);
  }
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
