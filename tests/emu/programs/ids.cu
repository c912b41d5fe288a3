// Thread/block ids in 3-D grids and blocks, warps of a block that is not a multiple of 32.
#include "compat.cuh"

__global__ void ids(unsigned *out, unsigned *ballots) {
  unsigned b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  unsigned nt = blockDim.x * blockDim.y * blockDim.z;
  out[b * nt + t] = (b << 16) | t;
  unsigned m = __ballot_sync(__activemask(), 1);
  if (t % 32 == 0) ballots[b * ((nt + 31) / 32) + t / 32] = m;
}

int main() {
  dim3 grid(3, 2, 2), block(8, 6, 1);  // 48 threads: warp 0 full, warp 1 has 16 lanes
  const unsigned nb = 12, nt = 48, nw = 2;
  unsigned *d, *db;
  CHECK(cudaMalloc(&d, nb * nt * sizeof(unsigned)));
  CHECK(cudaMalloc(&db, nb * nw * sizeof(unsigned)));
  OMPGPU_LAUNCH_KERNEL(ids, grid, block, 0, 0, d, db);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  unsigned h[nb * nt], hb[nb * nw];
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hb, db, sizeof hb, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (unsigned i = 0; i < nb * nt; i++)
    if (h[i] != (((i / nt) << 16) | (i % nt))) bad++;
  for (unsigned i = 0; i < nb * nw; i++)
    if (hb[i] != (i % 2 == 0 ? 0xffffffffu : 0x0000ffffu)) bad++;
  printf("ids %s (%d bad)\n", bad ? "FAIL" : "ok", bad);

  // 1-D: blockIdx/threadIdx/blockDim/gridDim as seen by every thread
  OMPGPU_LAUNCH_KERNEL(ids, dim3(5), dim3(100), 0, 0, d, db);
  CHECK(cudaGetLastError());
  unsigned h1[500];
  CHECK(cudaMemcpy(h1, d, sizeof h1, cudaMemcpyDeviceToHost));
  bad = 0;
  for (unsigned i = 0; i < 500; i++)
    if (h1[i] != (((i / 100) << 16) | (i % 100))) bad++;
  printf("ids1d %s (%d bad)\n", bad ? "FAIL" : "ok", bad);
  return 0;
}
