// Warp-specialized fork/join on named barriers, as generic-mode kernels do it:
// the last warp is the master warp, its lanes 1..31 return at kernel start, lane 0 (the
// master) forks with bar.sync 8 (count = blockDim.x), workers run the region (those below
// the team size; inside it they meet at barrier 7 with count = team warps x 32, or at
// __syncwarp when the team is smaller than a warp) and join with bar.sync 8. Exited lanes
// count as arrived.
//   forkjoin [threads blocks rounds team]     default 256 8 100 0 (0 = all workers)
#include <chrono>
#include "compat.cuh"

enum { BAR_REGION = 7, BAR_FORK_JOIN = 8 };

__global__ void fork_join(int *ok_rounds, int rounds, int team) {
  __shared__ int work;          // round number, -1 = exit
  __shared__ int team_size;
  __shared__ int acc;
  __shared__ int seen;
  const unsigned tid = threadIdx.x, n = blockDim.x, master = n - 32;
  if (tid > master) return;     // lanes 1..31 of the master warp
  if (tid == master) {
    int good = 0;
    for (int r = 0; r < rounds; r++) {
      work = r;
      team_size = team;
      acc = 0;
      seen = -1;
      ompgpu_emu_bar_sync(BAR_FORK_JOIN, n);   // fork
      ompgpu_emu_bar_sync(BAR_FORK_JOIN, n);   // join
      if (acc == team * (r + 1) && (team == 0 || seen == acc)) good++;
    }
    work = -1;
    ompgpu_emu_bar_sync(BAR_FORK_JOIN, n);
    ok_rounds[blockIdx.x] = good;
    return;
  }
  for (;;) {
    ompgpu_emu_bar_sync(BAR_FORK_JOIN, n);     // wait for work
    int w = work;
    if (w < 0) break;
    int ts = team_size;
    if ((int)tid < ts) {
      atomicAdd(&acc, w + 1);                   // a little work
      if (ts >= 32)                             // #pragma omp barrier: whole warps...
        ompgpu_emu_bar_sync(BAR_REGION, (unsigned)ts);
      else                                      // ...or the team's lanes of warp 0
        __syncwarp((ts == 32 ? 0u : (1u << ts)) - 1u);
      if (tid == 0) seen = acc;
    }
    ompgpu_emu_bar_sync(BAR_FORK_JOIN, n);     // join
  }
}

// Whole warps leave; __syncthreads (barrier 0, all threads) still completes for the rest.
__global__ void exited_warps(int *out) {
  __shared__ int v[128];
  unsigned tid = threadIdx.x;
  if (tid / 32 == 1) return;
  v[tid] = (int)tid;
  __syncthreads();
  int x = v[(tid + 64) % 128];
  __syncthreads();
  out[tid] = x;
}

// bar.arrive: producers arrive, consumers wait (the producer/consumer idiom).
__global__ void arrive(int *out) {
  __shared__ int data[64];
  unsigned tid = threadIdx.x;
  if (tid < 64) {
    data[tid] = (int)tid * 2;
    ompgpu_emu_bar_arrive(3, 128);
  } else {
    ompgpu_emu_bar_sync(3, 128);
    out[tid - 64] = data[tid - 64];
  }
}

// Lanes leave from inside a call (PTX exit, ompgpu_emu_thread_exit under the emulator):
// they count as arrived just like lanes that returned.
__device__ void leave_if_idle(unsigned tid) {
  if (tid > 32) ompgpu_emu_thread_exit();
}
__global__ void exit_deep(int *out) {
  __shared__ int v;
  unsigned tid = threadIdx.x;
  leave_if_idle(tid);
  if (tid == 32) v = 77;
  ompgpu_emu_bar_sync(BAR_FORK_JOIN, 64);
  if (tid == 0) out[0] = v;
}

int main(int argc, char **argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 256;
  int blocks = argc > 2 ? atoi(argv[2]) : 8;
  int rounds = argc > 3 ? atoi(argv[3]) : 100;
  int team = argc > 4 ? atoi(argv[4]) : 0;
  if (team <= 0 || team > threads - 32) team = threads - 32;
  if (team >= 32) team -= team % 32;  // as the runtime does: in-region barriers see whole warps
  int *d;
  CHECK(cudaMalloc(&d, blocks * sizeof(int)));
  OMPGPU_LAUNCH_KERNEL(fork_join, 1, threads, 0, 0, d, 1, team);  // warm-up
  CHECK(cudaDeviceSynchronize());
  auto t0 = std::chrono::steady_clock::now();
  OMPGPU_LAUNCH_KERNEL(fork_join, blocks, threads, 0, 0, d, rounds, team);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  static int h[4096];
  if (blocks > 4096) return 2;
  CHECK(cudaMemcpy(h, d, blocks * sizeof(int), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int b = 0; b < blocks; b++)
    if (h[b] != rounds) bad++;
  printf("forkjoin %s (%d threads x %d blocks x %d rounds, team %d, %d bad blocks)\n", bad ? "FAIL" : "ok", threads,
         blocks, rounds, team, bad);
  printf("time %.3f ms\n", ms);

  int *o;
  CHECK(cudaMalloc(&o, 128 * sizeof(int)));
  CHECK(cudaMemset(o, 0xff, 128 * sizeof(int)));
  OMPGPU_LAUNCH_KERNEL(exited_warps, 1, 128, 0, 0, o);
  CHECK(cudaGetLastError());
  int ho[128];
  CHECK(cudaMemcpy(ho, o, sizeof ho, cudaMemcpyDeviceToHost));
  bad = 0;
  for (int t = 0; t < 128; t++) {
    int want = t / 32 == 1 ? -1 : (t + 64) % 128 / 32 == 1 ? -12345 : (t + 64) % 128;
    if (want == -12345) continue;  // read a slot of the exited warp: never written
    if (ho[t] != want) bad++;
  }
  printf("exited_warps %s (%d bad)\n", bad ? "FAIL" : "ok", bad);

  OMPGPU_LAUNCH_KERNEL(arrive, 1, 128, 0, 0, o);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(ho, o, sizeof ho, cudaMemcpyDeviceToHost));
  bad = 0;
  for (int t = 0; t < 64; t++)
    if (ho[t] != 2 * t) bad++;
  printf("arrive %s (%d bad)\n", bad ? "FAIL" : "ok", bad);

  OMPGPU_LAUNCH_KERNEL(exit_deep, 2, 64, 0, 0, o);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(ho, o, sizeof(int), cudaMemcpyDeviceToHost));
  printf("exit_deep %s (%d)\n", ho[0] == 77 ? "ok" : "FAIL", ho[0]);
  return 0;
}
