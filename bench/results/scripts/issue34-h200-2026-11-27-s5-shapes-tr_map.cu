// transpose mappings: B[k][j][i] = A[i][j][k], s=256, team (block of 256) per j plane, like ompgpu's nested kernel
#include <cstdio>
#include <cuda_runtime.h>
template <int TI, int TK>  // lane tile: TI rows of i by TK columns of k per warp (TI*TK == 32)
__global__ void __launch_bounds__(256) tiled(const float *a, float *b, int s) {
  const int j = blockIdx.x;
  const long n = (long)s * s;
  const long plane = (long)j * s;
  for (long q = threadIdx.x; q < n; q += 256) {
    int lane = q & 31; long t = q >> 5;
    long tilesk = s / TK;
    long ti = t / tilesk, tk = t % tilesk;
    int i = ti * TI + lane / TK, k = tk * TK + lane % TK;
    b[(long)k * s * s + plane + i] = a[(long)i * s * s + plane + k];
  }
}
__global__ void smem(const float *a, float *b, int s) {
  __shared__ float tile[32][33];
  const int j = blockIdx.z, i0 = blockIdx.y * 32, k0 = blockIdx.x * 32;
  for (int r = threadIdx.y; r < 32; r += blockDim.y) { int i = i0 + r, k = k0 + threadIdx.x; tile[r][threadIdx.x] = a[((long)i * s + j) * s + k]; }
  __syncthreads();
  for (int r = threadIdx.y; r < 32; r += blockDim.y) { int k = k0 + r, i = i0 + threadIdx.x; b[((long)k * s + j) * s + i] = tile[threadIdx.x][r]; }
}
// team per plane, smem tiles walked by the team (one 32x32 tile per 8 warps at a time)
__global__ void __launch_bounds__(256) smem_team(const float *a, float *b, int s) {
  __shared__ float tile[32][33];
  const int j = blockIdx.x; const long plane = (long)j * s;
  const int tx = threadIdx.x & 31, ty = threadIdx.x >> 5;
  for (int t = 0; t < (s / 32) * (s / 32); t++) {
    int i0 = (t / (s / 32)) * 32, k0 = (t % (s / 32)) * 32;
    for (int r = ty; r < 32; r += 8) tile[r][tx] = a[(long)(i0 + r) * s * s + plane + k0 + tx];
    __syncthreads();
    for (int r = ty; r < 32; r += 8) b[(long)(k0 + r) * s * s + plane + i0 + tx] = tile[tx][r];
    __syncthreads();
  }
}
int main() {
  int s = 256; long n = (long)s * s * s;
  float *a, *b; cudaMalloc(&a, n * 4); cudaMalloc(&b, n * 4);
  float *h = (float *)malloc(n * 4), *hb = (float *)malloc(n * 4);
  for (long x = 0; x < n; x++) h[x] = (float)x;
  cudaMemcpy(a, h, n * 4, cudaMemcpyHostToDevice);
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  const char *names[] = {"row 1x32 (now)", "tile 2x16", "tile 4x8", "tile 8x4", "tile 16x2", "smem 32x32 grid", "smem team per plane"};
  for (int v = 0; v < 7; v++) {
    float best = 1e9;
    for (int rep = 0; rep < 7; rep++) {
      cudaMemset(b, 0, n * 4);
      cudaEventRecord(e0);
      switch (v) {
        case 0: tiled<1, 32><<<s, 256>>>(a, b, s); break;
        case 1: tiled<2, 16><<<s, 256>>>(a, b, s); break;
        case 2: tiled<4, 8><<<s, 256>>>(a, b, s); break;
        case 3: tiled<8, 4><<<s, 256>>>(a, b, s); break;
        case 4: tiled<16, 2><<<s, 256>>>(a, b, s); break;
        case 5: smem<<<dim3(s / 32, s / 32, s), dim3(32, 8)>>>(a, b, s); break;
        case 6: smem_team<<<s, 256>>>(a, b, s); break;
      }
      cudaEventRecord(e1); cudaEventSynchronize(e1);
      float ms; cudaEventElapsedTime(&ms, e0, e1); if (ms < best) best = ms;
    }
    cudaMemcpy(hb, b, n * 4, cudaMemcpyDeviceToHost);
    long bad = 0;
    for (long i = 0; i < s; i++) for (long j = 0; j < s; j++) for (long k = 0; k < s; k++) bad += hb[(k * s + j) * s + i] != h[(i * s + j) * s + k];
    printf("%-22s %.4f ms  bad=%ld\n", names[v], best, bad);
  }
}
