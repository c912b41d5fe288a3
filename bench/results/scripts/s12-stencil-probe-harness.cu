// Session 12 stencil probe: the generated ompgpu kernel (included) against CUDA's 32x8 kernel and
// hand variants of the index arithmetic, each 20 sweeps timed with events, back to back.
#include GENERATED
#include <cstdio>
#include <vector>
#include <algorithm>
#define IN(i, j) in[(long)(i) * n + (j)]
#define W(k) (1.0 / (2.0 * (k) * R))
#define RING(k) + IN(i, j - (k)) * -W(k) + IN(i, j + (k)) * W(k) + IN(i - (k), j) * -W(k) + IN(i + (k), j) * W(k)
#if R == 1
#define STAR RING(1)
#elif R == 2
#define STAR RING(1) RING(2)
#elif R == 3
#define STAR RING(1) RING(2) RING(3)
#else
#define STAR RING(1) RING(2) RING(3) RING(4)
#endif
__global__ void cuda2d(const double *in, double *out, int n) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x + R;
  const int i = blockIdx.y * blockDim.y + threadIdx.y + R;
  if (i < n - R && j < n - R) out[(long)i * n + j] += 0.0 STAR;
}
// 1-D grid, one 8x32 tile a block, tile = blockIdx / tiles1 (32-bit)
__global__ void tile1d(const double *in, double *out, int n, int tiles1) {
  const unsigned t = blockIdx.x, ti = t / tiles1, tj = t - ti * tiles1;
  const int j = tj * 32 + (threadIdx.x & 31) + R, i = ti * 8 + (threadIdx.x >> 5) + R;
  if (i < n - R && j < n - R) out[(long)i * n + j] += 0.0 STAR;
}
// grid-stride over tiles, 32-bit
__global__ void tilestride(const double *in, double *out, int n, int tiles1, int ntiles) {
  for (unsigned t = blockIdx.x; t < ntiles; t += gridDim.x) {
    const unsigned ti = t / tiles1, tj = t - ti * tiles1;
    const int j = tj * 32 + (threadIdx.x & 31) + R, i = ti * 8 + (threadIdx.x >> 5) + R;
    if (i < n - R && j < n - R) out[(long)i * n + j] += 0.0 STAR;
  }
}
// the same with __restrict__ const pointers (read-only path)
__global__ void tilestride_nc(const double *__restrict__ in, double *__restrict__ out, int n, int tiles1, int ntiles) {
  for (unsigned t = blockIdx.x; t < ntiles; t += gridDim.x) {
    const unsigned ti = t / tiles1, tj = t - ti * tiles1;
    const int j = tj * 32 + (threadIdx.x & 31) + R, i = ti * 8 + (threadIdx.x >> 5) + R;
    if (i < n - R && j < n - R) out[(long)i * n + j] += 0.0 STAR;
  }
}
static float timed(const char *name, int reps, bool sync_each, void (*launch)(void *), void *ctx) {
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  std::vector<float> v;
  for (int r = 0; r < reps; r++) {
    cudaEventRecord(a);
    for (int s = 0; s < 20; s++) { launch(ctx); if (sync_each) cudaStreamSynchronize(0); }
    cudaEventRecord(b); cudaEventSynchronize(b);
    float ms; cudaEventElapsedTime(&ms, a, b); v.push_back(ms);
  }
  cudaError_t e = cudaGetLastError();
  std::sort(v.begin(), v.end());
  printf("R%d %-28s %s median %.3f ms min %.3f  %s\n", R, name, sync_each ? "sync" : "async", v[v.size() / 2], v[0], e ? cudaGetErrorString(e) : "");
  return v[v.size() / 2];
}
struct Ctx { int n; double *in, *out; int grid; int tiles1, ntiles; };
static Ctx C;
int main(int argc, char **argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 4096;
  const long nn = (long)n * n;
  int dev = 0, sms = 0; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  std::vector<double> h(nn); for (long k = 0; k < nn; k++) h[k] = (k * 7919 % 1024) / 64.0;
  cudaMalloc(&C.in, nn * 8); cudaMalloc(&C.out, nn * 8);
  cudaMemcpy(C.in, h.data(), nn * 8, cudaMemcpyHostToDevice); cudaMemset(C.out, 0, nn * 8);
  C.n = n; const int inner = n - 2 * R; C.tiles1 = (inner + 31) / 32; C.ntiles = (inner + 7) / 8 * C.tiles1;
  int occ = 0; cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, ompgpu_user::__omp_offloading_main_l27, 256, 0);
  int occ2 = 0; cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ2, cuda2d, 256, 0);
  cudaFuncAttributes fa; cudaFuncGetAttributes(&fa, ompgpu_user::__omp_offloading_main_l27);
  cudaFuncAttributes fb; cudaFuncGetAttributes(&fb, cuda2d);
  printf("R%d sms %d ompgpu kernel: %d regs, occupancy %d blocks/SM; cuda2d %d regs, %d blocks/SM; tiles %d\n", R, sms, fa.numRegs, occ, fb.numRegs, occ2, C.ntiles);
  const int reps = 9;
  for (int pass = 0; pass < 2; pass++) {
    timed("cuda2d", reps, pass, [](void *) { cuda2d<<<dim3(C.tiles1, (C.n - 2 * R + 7) / 8), dim3(32, 8)>>>(C.in, C.out, C.n); }, 0);
    for (int waves : {1, 2, 4, 8, 0}) {
      C.grid = waves ? std::min(C.ntiles, waves * occ * sms) : C.ntiles;
      char nm[64]; snprintf(nm, 64, "ompgpu-gen waves=%d (%d)", waves, C.grid);
      timed(nm, reps, pass, [](void *) { ompgpu_user::__omp_offloading_main_l27<<<C.grid, 256>>>(C.n, C.out, C.in); }, 0);
    }
    timed("tile1d", reps, pass, [](void *) { tile1d<<<C.ntiles, 256>>>(C.in, C.out, C.n, C.tiles1); }, 0);
    for (int waves : {1, 4}) {
      C.grid = std::min(C.ntiles, waves * occ2 * sms);
      char nm[64]; snprintf(nm, 64, "tilestride waves=%d", waves);
      timed(nm, reps, pass, [](void *) { tilestride<<<C.grid, 256>>>(C.in, C.out, C.n, C.tiles1, C.ntiles); }, 0);
      snprintf(nm, 64, "tilestride_nc waves=%d", waves);
      timed(nm, reps, pass, [](void *) { tilestride_nc<<<C.grid, 256>>>(C.in, C.out, C.n, C.tiles1, C.ntiles); }, 0);
    }
  }
  return 0;
}
