// Hand-written CUDA floor for the EPCC `parallel` and `barrier` tests: what a fork/join and an
// in-region barrier cost on this GPU when nothing but a master warp and PTX named barriers is
// used. It answers the same stdin/stdout protocol as epcc_omp.c (see there), so the runner
// treats it as one more variant; it knows only the tests below.
//
//   reference  one thread runs REPS delays (the floor's own delay, compiled by nvcc)
//   parallel   one block of T workers + a master warp (the last warp; its lanes 1..31 exit at
//              once). Per repetition the master stores a word in shared memory and meets the
//              workers at named barrier 8 (fork); the workers read the word, run one delay and
//              meet the master at barrier 8 again (join). Timed by the master around REPS
//              fork/joins, as the OpenMP test is timed by the initial thread.
//   barrier    one block of T threads, REPS times: a delay, then bar.sync 7, T. Timed by
//              thread 0, including the launch-free start and one final barrier.
//   clock      (command, not a test) SM clock in MHz: clock64 ticks over 20 ms of globaltimer.
//
// The barrier instructions come from ompgpu's synchronization.cuh (the one home of inline PTX),
// which also makes this file build for the CPU device emulator.
#include "synchronization.cuh"
#include "launch.cuh"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

namespace {

static __shared__ volatile int floor_word;

__device__ float floor_delay_sink;

__device__ __attribute__((noinline)) void floor_delay(int length) {
  float a = 0.0f;
  for (int i = 0; i < length; i++) a += (float)i;
  if (a < 0.0f) floor_delay_sink = a;
}

__global__ void reference_kernel(int reps, int dl, double *seconds) {
  unsigned long long t0 = ompgpu::globaltimer_ns();
  for (int j = 0; j < reps; j++) floor_delay(dl);
  *seconds = 1e-9 * (double)(ompgpu::globaltimer_ns() - t0);
}

__global__ void parallel_kernel(int reps, int dl, double *seconds) {
  const unsigned master = blockDim.x - 32u;
  if (threadIdx.x > master) return;  // lanes 1..31 of the master warp; exited lanes count as arrived
  if (threadIdx.x < master) {
    for (;;) {
      ompgpu::barrier_sync_aligned<ompgpu::BARRIER_FORK_JOIN>(blockDim.x);  // fork
      if (floor_word < 0) return;
      floor_delay(dl);
      ompgpu::barrier_sync_aligned<ompgpu::BARRIER_FORK_JOIN>(blockDim.x);  // join
    }
  }
  unsigned long long t0 = ompgpu::globaltimer_ns();
  for (int j = 0; j < reps; j++) {
    floor_word = j;
    ompgpu::barrier_sync_aligned<ompgpu::BARRIER_FORK_JOIN>(blockDim.x);
    ompgpu::barrier_sync_aligned<ompgpu::BARRIER_FORK_JOIN>(blockDim.x);
  }
  unsigned long long t1 = ompgpu::globaltimer_ns();
  floor_word = -1;
  ompgpu::barrier_sync_aligned<ompgpu::BARRIER_FORK_JOIN>(blockDim.x);
  *seconds = 1e-9 * (double)(t1 - t0);
}

__global__ void barrier_kernel(int reps, int dl, double *seconds) {
  unsigned long long t0 = ompgpu::globaltimer_ns();
  for (int j = 0; j < reps; j++) {
    floor_delay(dl);
    ompgpu::barrier_sync_aligned<ompgpu::BARRIER_REGION>(blockDim.x);
  }
  if (threadIdx.x == 0) *seconds = 1e-9 * (double)(ompgpu::globaltimer_ns() - t0);
}

__global__ void clock_kernel(double *mhz) {
  unsigned long long t0 = ompgpu::globaltimer_ns(), t = t0;
  long long c0 = clock64();
  while (t - t0 < 20000000ull) t = ompgpu::globaltimer_ns();
  long long c1 = clock64();
  *mhz = (double)(c1 - c0) * 1000.0 / (double)(t - t0);
}

bool check(cudaError_t e, const char *what) {
  if (e == cudaSuccess) return true;
  printf("err %s: %s\n", what, cudaGetErrorString(e));
  return false;
}

}  // namespace

int main() {
  double *d_out = nullptr;
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (!check(cudaMalloc((void **)&d_out, sizeof(double)), "cudaMalloc")) return 1;
  printf("ready epcc_floor\n");
  char line[512];
  while (fgets(line, sizeof line, stdin)) {
    char name[64];
    int nthr = 0, reps = 0, dl = 0, iters = 0, chunk = 0;
    if (strncmp(line, "quit", 4) == 0) break;
    if (strncmp(line, "clock", 5) == 0) {
      double mhz = 0.0;
      OMPGPU_LAUNCH_KERNEL(clock_kernel, 1, 1, 0, 0, d_out);
      if (!check(cudaGetLastError(), "launch") || !check(cudaDeviceSynchronize(), "clock kernel")) continue;
      if (!check(cudaMemcpy(&mhz, d_out, sizeof mhz, cudaMemcpyDeviceToHost), "cudaMemcpy")) continue;
      printf("ok %.1f\n", mhz);
      continue;
    }
    if (sscanf(line, "probe %d", &nthr) == 1) {  // the floor always gets what it asks for
      printf("ok %d\n", nthr);
      continue;
    }
    if (sscanf(line, "run %63s %d %d %d %d %d", name, &nthr, &reps, &dl, &iters, &chunk) != 6) {
      printf("err cannot parse: %s", line);
      continue;
    }
    if (strcmp(name, "reference") != 0 && (nthr < 32 || nthr > 992 || nthr % 32 != 0)) {
      printf("err the floor needs whole warps, 32..992 threads\n");
      continue;
    }
    if (strcmp(name, "reference") == 0) OMPGPU_LAUNCH_KERNEL(reference_kernel, 1, 1, 0, 0, reps, dl, d_out);
    else if (strcmp(name, "parallel") == 0) OMPGPU_LAUNCH_KERNEL(parallel_kernel, 1, nthr + 32, 0, 0, reps, dl, d_out);
    else if (strcmp(name, "barrier") == 0) OMPGPU_LAUNCH_KERNEL(barrier_kernel, 1, nthr, 0, 0, reps, dl, d_out);
    else {
      printf("err unknown test %s\n", name);
      continue;
    }
    double seconds = 0.0;
    if (!check(cudaGetLastError(), "launch") || !check(cudaDeviceSynchronize(), name)) continue;
    if (!check(cudaMemcpy(&seconds, d_out, sizeof seconds, cudaMemcpyDeviceToHost), "cudaMemcpy")) continue;
    printf("ok %.9e %d 0 0\n", seconds, reps);  // nothing to check
  }
  cudaFree(d_out);
  return 0;
}
