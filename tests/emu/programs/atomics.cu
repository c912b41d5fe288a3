// Atomics of every type CUDA has them for, and a CAS spin lock taken by every thread.
#include "compat.cuh"

struct Counters {
  int i_add, i_sub, i_min, i_max, i_and, i_or, i_xor, i_exch;
  unsigned u_add, u_sub, u_min, u_max, u_inc, u_dec, u_and, u_or, u_xor;
  unsigned long long ull_add, ull_min, ull_max, ull_and, ull_or, ull_xor, ull_exch, ull_cas;
  long long ll_min, ll_max, ll_and, ll_or, ll_xor;
  float f_add, f_exch;
  double d_add;
  unsigned short us_cas;
  int i_cas;
  int blk_add;
};

__global__ void all_atomics(Counters *c) {
  int t = (int)(blockIdx.x * blockDim.x + threadIdx.x);  // 0..1023
  atomicAdd(&c->i_add, 2);
  atomicSub(&c->i_sub, 1);
  atomicMin(&c->i_min, 500 - t);
  atomicMax(&c->i_max, t - 500);
  atomicAnd(&c->i_and, ~(1 << (t % 31)));
  atomicOr(&c->i_or, 1 << (t % 31));
  atomicXor(&c->i_xor, t);
  atomicExch(&c->i_exch, 7);
  atomicAdd(&c->u_add, 3u);
  atomicSub(&c->u_sub, 1u);
  atomicMin(&c->u_min, (unsigned)t + 10u);
  atomicMax(&c->u_max, (unsigned)t * 2u);
  atomicInc(&c->u_inc, 99u);
  atomicDec(&c->u_dec, 1000u);
  atomicAnd(&c->u_and, 0xffff0000u | (unsigned)t);
  atomicOr(&c->u_or, (unsigned)t << 8);
  atomicXor(&c->u_xor, 0x5u);
  atomicAdd(&c->ull_add, 1ull << 33);
  atomicMin(&c->ull_min, (unsigned long long)t + (1ull << 40));
  atomicMax(&c->ull_max, (unsigned long long)t << 32);
  atomicAnd(&c->ull_and, ~(1ull << (t % 64)));
  atomicOr(&c->ull_or, 1ull << (t % 64));
  atomicXor(&c->ull_xor, 1ull << 50);
  atomicExch(&c->ull_exch, 9ull);
  atomicMin(&c->ll_min, (long long)t - (1ll << 40));
  atomicMax(&c->ll_max, (long long)t - 2000);
  atomicAnd(&c->ll_and, ~(1ll << (t % 63)));
  atomicOr(&c->ll_or, 1ll << (t % 63));
  atomicXor(&c->ll_xor, 3ll);
  atomicAdd(&c->f_add, 0.5f);
  atomicExch(&c->f_exch, 2.5f);
  atomicAdd(&c->d_add, 0.25);
  // CAS counters: retry until our increment lands
  unsigned short us = c->us_cas, seen;
  while ((seen = atomicCAS(&c->us_cas, us, (unsigned short)(us + 1))) != us) us = seen;
  unsigned long long ul = c->ull_cas, useen;
  while ((useen = atomicCAS(&c->ull_cas, ul, ul + 5)) != ul) ul = useen;
  int iv = c->i_cas, iseen;
  while ((iseen = atomicCAS(&c->i_cas, iv, iv + 1)) != iv) iv = iseen;
  atomicAdd_block(&c->blk_add, 1);
}

__device__ int lock_word;
__device__ volatile int in_critical;
__device__ int max_in_critical;

__global__ void spin_lock(int *counter) {
  // every thread of every block takes the lock once
  while (atomicCAS(&lock_word, 0, 1) != 0) {
  }
  __threadfence();
  int inside = ++in_critical;
  if (inside > max_in_critical) max_in_critical = inside;
  int v = *(volatile int *)counter;
  *(volatile int *)counter = v + 1;
  --in_critical;
  __threadfence();
  atomicExch(&lock_word, 0);
}

int main() {
  Counters h;
  memset(&h, 0, sizeof h);
  h.i_min = 1 << 30;
  h.i_max = -(1 << 30);
  h.i_and = -1;
  h.u_min = ~0u;
  h.u_and = ~0u;
  h.u_dec = 0;
  h.ull_min = ~0ull;
  h.ull_and = ~0ull;
  h.ll_min = 1ll << 60;
  h.ll_max = -(1ll << 60);
  h.ll_and = -1;
  h.i_sub = 5000;
  h.u_sub = 5000;
  Counters *d;
  CHECK(cudaMalloc(&d, sizeof h));
  CHECK(cudaMemcpy(d, &h, sizeof h, cudaMemcpyHostToDevice));
  OMPGPU_LAUNCH_KERNEL(all_atomics, 4, 256, 0, 0, d);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
  int xor_all = 0;
  for (int t = 0; t < 1024; t++) xor_all ^= t;
  unsigned dec = 0;
  for (int t = 0; t < 1024; t++) dec = (dec == 0 || dec > 1000u) ? 1000u : dec - 1;
  struct { const char *name; long long got, want; } checks[] = {
      {"i_add", h.i_add, 2048},
      {"i_sub", h.i_sub, 5000 - 1024},
      {"i_min", h.i_min, 500 - 1023},
      {"i_max", h.i_max, 1023 - 500},
      {"i_and", h.i_and, (int)0x80000000},
      {"i_or", h.i_or, 0x7fffffff},
      {"i_xor", h.i_xor, xor_all},
      {"i_exch", h.i_exch, 7},
      {"u_add", h.u_add, 3072},
      {"u_sub", h.u_sub, 5000 - 1024},
      {"u_min", h.u_min, 10},
      {"u_max", h.u_max, 2046},
      {"u_inc", h.u_inc, 1024 % 100},
      {"u_dec", h.u_dec, dec},
      {"u_and", h.u_and, 0xffff0000u},
      {"u_or", h.u_or, 0x3ff00},
      {"u_xor", h.u_xor, 0},
      {"ull_add", (long long)h.ull_add, 1024ll << 33},
      {"ull_min", (long long)h.ull_min, 1ll << 40},
      {"ull_max", (long long)h.ull_max, 1023ll << 32},
      {"ull_and", (long long)h.ull_and, 0},
      {"ull_or", (long long)h.ull_or, -1},
      {"ull_xor", (long long)h.ull_xor, 0},
      {"ull_exch", (long long)h.ull_exch, 9},
      {"ll_min", h.ll_min, -(1ll << 40)},
      {"ll_max", h.ll_max, 1023 - 2000},
      {"ll_and", h.ll_and, (long long)(1ull << 63)},
      {"ll_or", h.ll_or, 0x7fffffffffffffffll},
      {"ll_xor", h.ll_xor, 0},
      {"f_add", (long long)(h.f_add * 10), 5120},
      {"f_exch", (long long)(h.f_exch * 10), 25},
      {"d_add", (long long)(h.d_add * 100), 25600},
      {"us_cas", h.us_cas, 1024},
      {"ull_cas", (long long)h.ull_cas, 5120},
      {"i_cas", h.i_cas, 1024},
      {"blk_add", h.blk_add, 1024},
  };
  int bad = 0;
  for (auto &c : checks)
    if (c.got != c.want) {
      printf("%s: %lld, want %lld\n", c.name, c.got, c.want);
      bad++;
    }
  printf("atomics %s (%d bad)\n", bad ? "FAIL" : "ok", bad);

  int *counter;
  CHECK(cudaMalloc(&counter, sizeof(int)));
  CHECK(cudaMemset(counter, 0, sizeof(int)));
  OMPGPU_LAUNCH_KERNEL(spin_lock, 8, 256, 0, 0, counter);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  int hc = 0, maxin = 0;
  CHECK(cudaMemcpy(&hc, counter, sizeof hc, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpyFromSymbol(&maxin, max_in_critical, sizeof maxin));
  printf("spin_lock %s (counter %d, at most %d inside)\n", hc == 2048 && maxin == 1 ? "ok" : "FAIL", hc, maxin);
  return 0;
}
