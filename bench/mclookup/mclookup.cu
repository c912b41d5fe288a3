/* mclookup, hand-written CUDA: one thread per lookup, 256 threads per block. */
#include "mclookup.h"

__global__ void lookup(const double *energy, const double *xs, const int *count, const int *nuclide, const double *conc,
                       long g, int lookups, double *result) {
  const int l = blockIdx.x * blockDim.x + threadIdx.x;
  if (l < lookups) MC_LOOKUP_BODY(energy, xs, count, nuclide, conc, g, l, result[l]);
}

int main(int argc, char **argv) {
  mc_problem p = mc_make(argc, argv);
  const long g = p.gridpoints, ne = MC_NUCLIDES * g, nx = ne * MC_XS, nm = MC_MATERIALS * MC_MAX_PER_MATERIAL;
  bench_warmup();
  cudaEvent_t e0, e1;
  CUDA_CHECK(cudaEventCreate(&e0));
  CUDA_CHECK(cudaEventCreate(&e1));
  for (int rep = 0, reps = bench_reps(); rep < reps; rep++) {
    double t0 = bench_clock();
    double *d_energy, *d_xs, *d_conc, *d_result;
    int *d_count, *d_nuclide;
    CUDA_CHECK(cudaMalloc(&d_energy, sizeof(double) * ne));
    CUDA_CHECK(cudaMalloc(&d_xs, sizeof(double) * nx));
    CUDA_CHECK(cudaMalloc(&d_conc, sizeof(double) * nm));
    CUDA_CHECK(cudaMalloc(&d_result, sizeof(double) * p.lookups));
    CUDA_CHECK(cudaMalloc(&d_count, sizeof(int) * MC_MATERIALS));
    CUDA_CHECK(cudaMalloc(&d_nuclide, sizeof(int) * nm));
    CUDA_CHECK(cudaMemcpy(d_energy, p.energy, sizeof(double) * ne, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_xs, p.xs, sizeof(double) * nx, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_conc, p.conc, sizeof(double) * nm, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_count, p.count, sizeof(int) * MC_MATERIALS, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_nuclide, p.nuclide, sizeof(int) * nm, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaEventRecord(e0));
    BENCH_LAUNCH(lookup, (p.lookups + 255) / 256, 256, (const double *)d_energy, (const double *)d_xs, (const int *)d_count,
                 (const int *)d_nuclide, (const double *)d_conc, g, p.lookups, d_result);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventRecord(e1));
    float ms = bench_event_ms(e0, e1);
    CUDA_CHECK(cudaMemcpy(p.result, d_result, sizeof(double) * p.lookups, cudaMemcpyDeviceToHost));
    cudaFree(d_energy);
    cudaFree(d_xs);
    cudaFree(d_conc);
    cudaFree(d_result);
    cudaFree(d_count);
    cudaFree(d_nuclide);
    bench_report("mclookup", rep, ms * 1e-3, bench_clock() - t0);
  }
  return bench_finish(mc_check(&p));
}
