// Does a %globaltimer read right after the master's join barrier wait for the barrier?
// Master warp + one worker warp; the workers spin ~50 us between fork and join.
#include "synchronization.cuh"
#include <cstdio>
__shared__ volatile unsigned word;
__device__ __forceinline__ unsigned long long t_plain() { unsigned long long t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }
__device__ __forceinline__ unsigned long long t_mem() { unsigned long long t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t) :: "memory"); return t; }
__device__ __forceinline__ unsigned long long t_membar() { unsigned long long t; asm volatile("membar.cta;\n\tmov.u64 %0, %%globaltimer;" : "=l"(t) :: "memory"); return t; }
// V == 3: the read waits on a shared-memory load (a branch on it), which cannot run before the barrier
__device__ __forceinline__ unsigned long long t_after_load() {
  unsigned long long t;
  asm volatile("{\n\t.reg .pred p;\n\t.reg .u32 w;\n\tld.volatile.shared.u32 w, [word];\n\tsetp.eq.u32 p, w, 0xdeadbeef;\n\t@p mov.u64 %0, 0;\n\t@!p mov.u64 %0, %%globaltimer;\n\t}" : "=l"(t) :: "memory");
  return t;
}
template <int V> __device__ __forceinline__ unsigned long long rd() { return V == 0 ? t_plain() : V == 1 ? t_mem() : V == 2 ? t_membar() : t_after_load(); }
template <int V> __global__ void k(unsigned long long *out) {
  const unsigned master = blockDim.x - 32u;
  if (threadIdx.x > master) return;
  if (threadIdx.x < master) {
    ompgpu::barrier_sync<ompgpu::BARRIER_FORK_JOIN>(blockDim.x);
    unsigned long long s = t_plain(); while (t_plain() - s < 50000ull) {}
    if (threadIdx.x == 0) word = 1;
    ompgpu::barrier_sync<ompgpu::BARRIER_FORK_JOIN>(blockDim.x);
    return;
  }
  unsigned long long t0 = rd<V>();
  word = 0;
  ompgpu::barrier_sync<ompgpu::BARRIER_FORK_JOIN>(blockDim.x);
  ompgpu::barrier_sync<ompgpu::BARRIER_FORK_JOIN>(blockDim.x);
  unsigned long long t1 = rd<V>();
  out[0] = t1 - t0; out[1] = word;
}
int main() {
  unsigned long long *d, h[2];
  cudaMalloc(&d, 16);
  for (int rep = 0; rep < 2; rep++) {
    k<0><<<1, 64>>>(d); cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost); printf("plain   : %llu ns (word %llu)\n", h[0], h[1]);
    k<1><<<1, 64>>>(d); cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost); printf("memory  : %llu ns (word %llu)\n", h[0], h[1]);
    k<2><<<1, 64>>>(d); cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost); printf("membar  : %llu ns (word %llu)\n", h[0], h[1]);
    k<3><<<1, 64>>>(d); cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost); printf("afterld : %llu ns (word %llu)\n", h[0], h[1]);
  }
  printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
}
