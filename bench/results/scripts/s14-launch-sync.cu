// Session 14, run 4: the floor under a synchronous target region on this GPU. An empty kernel
// launched and waited for (cudaStreamSynchronize) 2000 times, one at a time, against 2000 launches
// queued and waited for once; also with a 1320-block, 128-thread grid (streamcluster's launch).
#include <chrono>
#include <cstdio>
#include <cuda_runtime.h>
__global__ void empty() {}
static double now_us() {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
int main() {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  for (int i = 0; i < 100; i++) empty<<<1, 32, 0, s>>>();
  cudaStreamSynchronize(s);
  const int n = 2000;
  for (int grid : {1, 1320}) {
    double t0 = now_us();
    for (int i = 0; i < n; i++) {
      empty<<<grid, grid == 1 ? 32 : 128, 0, s>>>();
      cudaStreamSynchronize(s);
    }
    double one = (now_us() - t0) / n;
    t0 = now_us();
    for (int i = 0; i < n; i++) empty<<<grid, grid == 1 ? 32 : 128, 0, s>>>();
    cudaStreamSynchronize(s);
    double queued = (now_us() - t0) / n;
    printf("grid %d: launch+wait %.2f us each, queued %.2f us each\n", grid, one, queued);
  }
  return 0;
}
