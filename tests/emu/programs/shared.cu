// Shared memory is per block: static __shared__ at namespace and function scope, dynamic
// shared memory, __syncthreads and its _count/_and/_or forms.
#include "compat.cuh"

static __shared__ int ns_buf[256];

__device__ float *scratch() {
  static __shared__ float fbuf[256];
  return fbuf;
}

__global__ void blocks(int *out, int *dyn_out) {
  __shared__ int total;
  unsigned t = threadIdx.x, n = blockDim.x;
  int *dyn = (int *)OMPGPU_DYNAMIC_SHARED();
  if (t == 0) total = 0;
  ns_buf[t] = blockIdx.x * 1000 + t;
  scratch()[t] = (float)blockIdx.x;
  dyn[t] = -(int)(blockIdx.x * 1000 + t);
  __syncthreads();
  int left = ns_buf[(t + 1) % n];
  atomicAdd(&total, left - (int)blockIdx.x * 1000);
  int ok = left == (int)(blockIdx.x * 1000 + (t + 1) % n) && scratch()[(t + 7) % n] == (float)blockIdx.x &&
           dyn[(t + 3) % n] == -(int)(blockIdx.x * 1000 + (t + 3) % n);
  int cnt = __syncthreads_count(ok);
  int all = __syncthreads_and(ok);
  int any = __syncthreads_or(t == 5);
  int none = __syncthreads_or(0);
  // tree reduction in shared memory
  for (unsigned s = n / 2; s > 0; s >>= 1) {
    if (t < s) ns_buf[t] += ns_buf[t + s];
    __syncthreads();
  }
  if (t == 0) {
    out[blockIdx.x * 6 + 0] = cnt;
    out[blockIdx.x * 6 + 1] = all;
    out[blockIdx.x * 6 + 2] = any;
    out[blockIdx.x * 6 + 3] = none;
    out[blockIdx.x * 6 + 4] = ns_buf[0];
    out[blockIdx.x * 6 + 5] = total;
  }
  dyn_out[blockIdx.x * n + t] = dyn[t];
}

int main() {
  const int nb = 16, nt = 256;
  int *d, *dd;
  CHECK(cudaMalloc(&d, nb * 6 * sizeof(int)));
  CHECK(cudaMalloc(&dd, nb * nt * sizeof(int)));
  OMPGPU_LAUNCH_KERNEL(blocks, nb, nt, nt * sizeof(int), 0, d, dd);
  CHECK(cudaGetLastError());
  int h[nb * 6], hd[nb * nt];
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hd, dd, sizeof hd, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int b = 0; b < nb; b++) {
    int sum = b * 1000 * nt + nt * (nt - 1) / 2;
    int want[6] = {nt, 1, 1, 0, sum, nt * (nt - 1) / 2};
    for (int k = 0; k < 6; k++)
      if (h[b * 6 + k] != want[k]) {
        if (bad < 5) printf("block %d value %d: %d, want %d\n", b, k, h[b * 6 + k], want[k]);
        bad++;
      }
    for (int t = 0; t < nt; t++)
      if (hd[b * nt + t] != -(b * 1000 + t)) bad++;
  }
  printf("shared %s (%d bad)\n", bad ? "FAIL" : "ok", bad);
  return 0;
}
