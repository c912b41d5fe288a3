// Hand-written fork/join "floor" benchmark (the EPCC floor for `parallel` overhead).
// NOT included by the runtime. Build and run on a GPU:
//   nvcc -std=c++17 -O3 -arch=sm_90 -I ompgpu/runtime/device ompgpu/runtime/device/bench_floor.cu -o bench_floor
//   ./bench_floor [reps]
// Per worker count W*32 (32..992) and one team, it reports clock64 cycles per fork-join:
//   floor_sync     pure master warp + named barriers: the master's 31 idle lanes exit at
//                  kernel start; per round the master stores a word to shared memory and
//                  does barrier.sync 8 (fork) + barrier.sync 8 (join); the workers do
//                  barrier.sync 8, read the word, barrier.sync 8. Nothing else.
//   floor_bar      the same with bar.sync (the .aligned form)
//   floor_arrive   bar.sync forms; the master only arrives at the fork barrier (bar.arrive 8)
//                  and waits at a separate join barrier (bar.sync 9)
//   runtime_fork   the runtime's ompgpu::fork with an empty work function, generated-kernel
//                  shape (worker loop with switch dispatch)
//   runtime_barrier  ompgpu::barrier() inside a generic region of all workers, per barrier
//   spmd_barrier   ompgpu::barrier() in an SPMD kernel of W*32 threads
//   raw_barrier_sync7 / raw_bar_sync7   the bare instructions, W*32 threads
//   syncthreads    a plain __syncthreads() round in a block of W*32 threads (reference)
// The barrier primitives come from synchronization.cuh (the only place with inline PTX).
#include "ompgpu_device.cuh"

#include <stdio.h>
#include <stdlib.h>

namespace {

__shared__ volatile int floor_word;

// Variant: Aligned = bar.sync instead of barrier.sync; SplitJoin = the master only
// *arrives* at the fork barrier (id 8) and waits at a separate join barrier (id 9).
template <bool Aligned>
__device__ __forceinline__ void bsync8(unsigned n) {
  if (Aligned) ompgpu::barrier_sync_aligned<ompgpu::BARRIER_FORK_JOIN>(n);
  else ompgpu::barrier_sync<ompgpu::BARRIER_FORK_JOIN>(n);
}
constexpr ompgpu::BarrierId kJoin9 = (ompgpu::BarrierId)9;

template <bool Aligned, bool SplitJoin>
__global__ void floor_kernel(int reps, long long *cycles) {
  const unsigned m = blockDim.x - 32u;
  if (threadIdx.x > m) return;  // lanes 1..31 of the master warp leave at once
  if (threadIdx.x < m) {        // workers
    for (;;) {
      bsync8<Aligned>(blockDim.x);
      if (floor_word < 0) return;
      if (SplitJoin) ompgpu::barrier_sync_aligned<kJoin9>(blockDim.x);
      else bsync8<Aligned>(blockDim.x);
    }
  }
  // master
  long long t0 = 0;
  for (int r = -10; r < reps; r++) {  // 10 warm-up rounds
    if (r == 0) t0 = clock64();
    floor_word = r + 100;  // >= 0: keep going
    if (SplitJoin) {
      ompgpu::barrier_arrive_aligned<ompgpu::BARRIER_FORK_JOIN>(blockDim.x);
      ompgpu::barrier_sync_aligned<kJoin9>(blockDim.x);
    } else {
      bsync8<Aligned>(blockDim.x);
      bsync8<Aligned>(blockDim.x);
    }
  }
  long long t1 = clock64();
  floor_word = -1;
  bsync8<Aligned>(blockDim.x);
  *cycles = t1 - t0;
}

// In-region barrier cost among `blockDim.x` threads (SPMD-like, all threads):
// 0 = ompgpu::barrier() in an SPMD kernel, 1 = raw barrier.sync 7, 2 = raw bar.sync 7.
template <int Kind>
__global__ void region_barrier_kernel(int reps, long long *cycles) {
  if (Kind == 0) ompgpu::kernel_init_spmd();
  long long t0 = 0;
  for (int r = -10; r < reps; r++) {
    if (r == 0) t0 = clock64();
    if (Kind == 0) ompgpu::barrier();
    else if (Kind == 1) ompgpu::barrier_sync<ompgpu::BARRIER_REGION>(blockDim.x);
    else ompgpu::barrier_sync_aligned<ompgpu::BARRIER_REGION>(blockDim.x);
  }
  if (threadIdx.x == 0) *cycles = clock64() - t0;
}

struct EmptyPack {
  int *sink;
};
__device__ void outlined_empty(void *args) {
  (void)args;
}
struct BarPack {
  int reps;
  long long *cycles;
};
__device__ void outlined_barriers(void *args) {
  BarPack *p = (BarPack *)args;
  long long t0 = 0;
  for (int r = -10; r < p->reps; r++) {
    if (r == 0) t0 = clock64();
    ompgpu::barrier();
  }
  if (omp_get_thread_num() == 0) *p->cycles = clock64() - t0;
}

__global__ void __launch_bounds__(1024) runtime_kernel(int reps, long long *fork_cycles, long long *bar_cycles) {
  ompgpu::kernel_init_generic();
  if (ompgpu::is_worker()) {
    for (;;) {
      constexpr unsigned words = ompgpu::prefetch_words<EmptyPack, BarPack>();
      const auto w = ompgpu::worker_wait<words>();
      if (w.fn == ompgpu::WORK_EXIT) break;
      if (w.in_team()) {
        switch (w.fn) {
          case 1: outlined_empty(const_cast<void *>(ompgpu::ForkPack<EmptyPack, words>(w).get())); break;
          case 2: outlined_barriers(const_cast<void *>(ompgpu::ForkPack<BarPack, words>(w).get())); break;
        }
      }
      ompgpu::worker_join();
    }
    return;
  }
  EmptyPack pack = {nullptr};
  long long t0 = 0;
  for (int r = -10; r < reps; r++) {
    if (r == 0) t0 = clock64();
    ompgpu::fork(1, &pack, sizeof pack, 0);
  }
  *fork_cycles = clock64() - t0;
  BarPack bp = {reps, bar_cycles};
  ompgpu::fork(2, &bp, sizeof bp, 0);
  ompgpu::kernel_end_generic();
}

__global__ void syncthreads_kernel(int reps, long long *cycles) {
  long long t0 = 0;
  for (int r = -10; r < reps; r++) {
    if (r == 0) t0 = clock64();
    __syncthreads();
  }
  if (threadIdx.x == 0) *cycles = clock64() - t0;
}

#define CK(x)                                                                                \
  do {                                                                                       \
    cudaError_t e_ = (x);                                                                    \
    if (e_ != cudaSuccess) {                                                                 \
      fprintf(stderr, "bench_floor: %s failed: %s\n", #x, cudaGetErrorString(e_));          \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

}  // namespace

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 10000;
  const int N = 9;
  long long *d;
  CK(cudaMalloc(&d, N * sizeof(long long)));
  printf("# cycles per round (clock64), one team; floor_*: master warp + named barriers only\n");
  printf("workers,floor_sync,floor_bar,floor_arrive,runtime_fork,runtime_barrier,spmd_barrier,raw_barrier_sync7,raw_bar_sync7,syncthreads\n");
  const int counts[] = {32, 64, 96, 128, 192, 256, 384, 512, 768, 992};
  for (int workers : counts) {
    long long h[N];
    floor_kernel<false, false><<<1, workers + 32>>>(reps, d + 0);
    floor_kernel<true, false><<<1, workers + 32>>>(reps, d + 1);
    floor_kernel<true, true><<<1, workers + 32>>>(reps, d + 2);
    runtime_kernel<<<1, workers + 32>>>(reps, d + 3, d + 4);
    region_barrier_kernel<0><<<1, workers>>>(reps, d + 5);
    region_barrier_kernel<1><<<1, workers>>>(reps, d + 6);
    region_barrier_kernel<2><<<1, workers>>>(reps, d + 7);
    syncthreads_kernel<<<1, workers>>>(reps, d + 8);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    printf("%d", workers);
    for (int i = 0; i < N; i++) printf(",%.1f", (double)h[i] / reps);
    printf("\n");
  }
  CK(cudaFree(d));
  return 0;
}
