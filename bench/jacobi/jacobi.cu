/* jacobi, hand-written CUDA (see jacobi.h). By default a host loop of two kernels a sweep, the
 * largest change cleared before and read back after each sweep, as a CUDA programmer writes it
 * first; the change is a non-negative double, so its bits order as integers (atomicMax on them).
 * -DCOOPERATIVE: the whole loop in one cooperative kernel (cudaLaunchCooperativeKernel, a grid the
 * GPU holds at once, grid-stride loops, grid.sync()): the ceiling for a loop of short sweeps.
 *     ./jacobi_cuda [side] */
#include "jacobi.h"
#ifdef COOPERATIVE
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
#endif

__device__ void block_max(double v, unsigned long long *err) {
  __shared__ double part[32];
  for (int off = 16; off; off >>= 1) v = fmax(v, __shfl_down_sync(0xffffffffu, v, off));
  if ((threadIdx.x & 31) == 0) part[threadIdx.x >> 5] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    v = threadIdx.x < (blockDim.x + 31) / 32 ? part[threadIdx.x] : 0.0;
    for (int off = 16; off; off >>= 1) v = fmax(v, __shfl_down_sync(0xffffffffu, v, off));
    if (threadIdx.x == 0) atomicMax(err, (unsigned long long)__double_as_longlong(v));
  }
  __syncthreads();
}

__global__ void sweep(const double *u, double *unew, int side, unsigned long long *err) {
  const int inner = side - 2;
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  double change = 0.0;
  if (k < inner * inner) {
    const int i = k / inner + 1, j = k % inner + 1;
    const double v = 0.25 * (u[(i - 1) * side + j] + u[(i + 1) * side + j] + u[i * side + j - 1] + u[i * side + j + 1]);
    unew[i * side + j] = v;
    change = fabs(v - u[i * side + j]);
  }
  block_max(change, err);
}

__global__ void copy_back(double *u, const double *unew, int side) {
  const int inner = side - 2;
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < inner * inner) {
    const int i = k / inner + 1, j = k % inner + 1;
    u[i * side + j] = unew[i * side + j];
  }
}

#ifdef COOPERATIVE
/* errs[s % 2] is sweep s's largest change; the other one is cleared for the next sweep */
__global__ void sweep_all(double *u, double *unew, int side, unsigned long long *errs, int *sweeps) {
  cg::grid_group grid = cg::this_grid();
  const int inner = side - 2;
  int s = 0;
  double err = 1.0;
  for (; err > JC_TOL && s < JC_MAXIT; s++) {
    unsigned long long *e = &errs[s & 1];
    if (grid.thread_rank() == 0) errs[(s + 1) & 1] = 0;
    double change = 0.0;
    for (long long k = grid.thread_rank(); k < (long long)inner * inner; k += grid.size()) {
      const int i = (int)(k / inner) + 1, j = (int)(k % inner) + 1;
      const double v = 0.25 * (u[(i - 1) * side + j] + u[(i + 1) * side + j] + u[i * side + j - 1] + u[i * side + j + 1]);
      unew[i * side + j] = v;
      change = fmax(change, fabs(v - u[i * side + j]));
    }
    block_max(change, e);
    grid.sync();
    for (long long k = grid.thread_rank(); k < (long long)inner * inner; k += grid.size()) {
      const int i = (int)(k / inner) + 1, j = (int)(k % inner) + 1;
      u[i * side + j] = unew[i * side + j];
    }
    err = __longlong_as_double((long long)*(volatile unsigned long long *)e);
    grid.sync();
  }
  if (grid.thread_rank() == 0) *sweeps = s;
}
#endif

int main(int argc, char **argv) {
  const int side = bench_arg(argc, argv, 1, JC_SIDE), n = side * side, inner = side - 2;
  double *u = (double *)bench_alloc(sizeof(double) * n), *unew = (double *)bench_alloc(sizeof(double) * n);
  bench_warmup();
  int sweeps = 0;
  for (int rep = 0, reps = bench_reps(); rep < reps; rep++) {
    jc_init(u, side);
    jc_init(unew, side);
    double t0 = bench_clock();
    double *d_u, *d_unew;
    unsigned long long *d_err;
    CUDA_CHECK(cudaMalloc(&d_u, sizeof(double) * n));
    CUDA_CHECK(cudaMalloc(&d_unew, sizeof(double) * n));
    CUDA_CHECK(cudaMalloc(&d_err, 4 * sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemcpy(d_u, u, sizeof(double) * n, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_unew, unew, sizeof(double) * n, cudaMemcpyHostToDevice));
    double k0 = bench_clock();
#ifdef COOPERATIVE
    int per_sm = 0, sms = 0, dev = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, sweep_all, 256, 0));
    CUDA_CHECK(cudaMemset(d_err, 0, 4 * sizeof(unsigned long long)));
    int *d_sweeps = (int *)(d_err + 2);
    void *args[] = {&d_u, &d_unew, (void *)&side, &d_err, &d_sweeps};
    CUDA_CHECK(cudaLaunchCooperativeKernel((void *)sweep_all, per_sm * sms, 256, args, 0, 0));
    CUDA_CHECK(cudaMemcpy(&sweeps, d_sweeps, sizeof(int), cudaMemcpyDeviceToHost));
#else
    const int blocks = (inner * inner + 255) / 256;
    double err = 1;
    for (sweeps = 0; err > JC_TOL && sweeps < JC_MAXIT; sweeps++) {
      CUDA_CHECK(cudaMemset(d_err, 0, sizeof(unsigned long long)));
      BENCH_LAUNCH(sweep, blocks, 256, (const double *)d_u, d_unew, side, d_err);
      BENCH_LAUNCH(copy_back, blocks, 256, d_u, (const double *)d_unew, side);
      CUDA_CHECK(cudaGetLastError());
      unsigned long long bits;
      CUDA_CHECK(cudaMemcpy(&bits, d_err, sizeof bits, cudaMemcpyDeviceToHost));
      memcpy(&err, &bits, sizeof err);
    }
#endif
    double k1 = bench_clock();
    CUDA_CHECK(cudaMemcpy(u, d_u, sizeof(double) * n, cudaMemcpyDeviceToHost));
    cudaFree(d_u); cudaFree(d_unew); cudaFree(d_err);
    bench_report("jacobi", rep, k1 - k0, bench_clock() - t0);
  }
  return bench_finish(jc_check(u, side, sweeps));
}
