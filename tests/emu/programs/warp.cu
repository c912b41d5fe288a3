// Warp collectives: shuffles (all four, with width), votes, __activemask, match, reduce,
// disjoint masks in one warp, collectives after lanes exited.
#include "compat.cuh"

#define FULL 0xffffffffu
enum { N_RES = 20 };

__global__ void warp_ops(long long *res) {
  unsigned t = threadIdx.x, lane = t % 32;
  long long *r = res + t * N_RES;
  r[0] = __shfl_sync(FULL, (int)(lane * 3), (int)(lane + 5) % 32);
  r[1] = __shfl_up_sync(FULL, (int)lane, 1);
  r[2] = __shfl_down_sync(FULL, (int)lane, 3, 16);
  int s = (int)lane;
  for (int m = 16; m; m >>= 1) s += __shfl_xor_sync(FULL, s, m);
  r[3] = s;
  double dv = __shfl_sync(FULL, 0.5 * lane, 31 - (int)lane);
  r[4] = (long long)(dv * 2);
  r[5] = __shfl_down_sync(FULL, (long long)lane << 40, 1);
  r[6] = __ballot_sync(FULL, lane % 3 == 0);
  r[7] = __any_sync(FULL, lane == 17) * 10 + __all_sync(FULL, lane < 40) * 100 + __all_sync(FULL, lane != 4);
  r[8] = __activemask();
  if (lane < 10)
    r[9] = __activemask();
  else
    r[9] = __activemask();
  r[10] = __match_any_sync(FULL, (int)(lane / 4));
  r[11] = __reduce_add_sync(FULL, (unsigned)lane);
  // two disjoint groups in one warp
  if (lane < 16)
    r[12] = __shfl_sync(0x0000ffffu, (int)lane + 100, 15);
  else
    r[12] = __shfl_sync(0xffff0000u, (int)lane + 200, 16);
  __syncwarp();
  r[13] = __shfl_xor_sync(FULL, (float)lane, 1, 2) == (float)(lane ^ 1);
  int pred = 0;
  r[14] = __match_all_sync(FULL, 7, &pred);
  r[15] = pred;
  r[16] = __reduce_max_sync(FULL, (int)lane - 10) * 1000 + __reduce_min_sync(FULL, (int)lane - 10);
  r[17] = __shfl_up_sync(FULL, (unsigned)lane, 4, 8);
}

// Lanes 16..31 of each warp leave; the others keep using collectives over lanes 0..15.
__global__ void after_exit(int *res) {
  unsigned t = threadIdx.x, lane = t % 32;
  if (lane >= 16) return;
  int v = __shfl_down_sync(0x0000ffffu, (int)lane, 8, 16);
  unsigned b = __ballot_sync(0x0000ffffu, 1);
  unsigned a = __activemask();
  __syncwarp(0x0000ffffu);
  res[t * 3 + 0] = v;
  res[t * 3 + 1] = (int)b;
  res[t * 3 + 2] = (int)a;
}

int main() {
  const int nt = 64;
  long long *d;
  CHECK(cudaMalloc(&d, nt * N_RES * sizeof(long long)));
  CHECK(cudaMemset(d, 0, nt * N_RES * sizeof(long long)));
  OMPGPU_LAUNCH_KERNEL(warp_ops, 2, nt, 0, 0, d);
  CHECK(cudaGetLastError());
  static long long h[nt * N_RES];
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int t = 0; t < nt; t++) {
    long long l = t % 32;
    long long want[18] = {
        ((l + 5) % 32) * 3,
        l == 0 ? 0 : l - 1,
        (l % 16) + 3 < 16 ? l + 3 : l,
        496,
        31 - l,
        l == 31 ? (31ll << 40) : ((l + 1) << 40),
        0x49249249ll,
        10 + 100 + 0,
        0xffffffffll,
        l < 10 ? 0x3ffll : 0xfffffc00ll,
        0xfll << (l / 4 * 4),
        496,
        l < 16 ? 115 : 216,
        1,
        0xffffffffll,
        1,
        21 * 1000 - 10,
        (l % 8) < 4 ? l : l - 4,
    };
    for (int k = 0; k < 18; k++)
      if (h[t * N_RES + k] != want[k]) {
        if (bad < 10) printf("thread %d result %d: %lld, want %lld\n", t, k, h[t * N_RES + k], want[k]);
        bad++;
      }
  }
  printf("warp %s (%d bad)\n", bad ? "FAIL" : "ok", bad);

  int *d2;
  CHECK(cudaMalloc(&d2, nt * 3 * sizeof(int)));
  CHECK(cudaMemset(d2, 0, nt * 3 * sizeof(int)));
  OMPGPU_LAUNCH_KERNEL(after_exit, 1, nt, 0, 0, d2);
  CHECK(cudaGetLastError());
  int h2[nt * 3];
  CHECK(cudaMemcpy(h2, d2, sizeof h2, cudaMemcpyDeviceToHost));
  bad = 0;
  for (int t = 0; t < nt; t++) {
    int l = t % 32;
    if (l >= 16) continue;
    int want[3] = {l + 8 < 16 ? l + 8 : l, 0xffff, 0xffff};
    for (int k = 0; k < 3; k++)
      if (h2[t * 3 + k] != want[k]) {
        if (bad < 10) printf("after_exit thread %d result %d: %d, want %d\n", t, k, h2[t * 3 + k], want[k]);
        bad++;
      }
  }
  printf("after_exit %s (%d bad)\n", bad ? "FAIL" : "ok", bad);
  return 0;
}
