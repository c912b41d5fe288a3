/* lavamd, hand-written CUDA: one block per box, one thread per home particle, each
 * neighbour box's particles staged in shared memory.   ./lavamd_cuda [boxes per side] */
#include "lavamd.h"

__global__ void __launch_bounds__(128) forces(const lm_particle *p, int b, lm_force *fv) {
  __shared__ lm_particle nbp[LM_NPB];
  const int box = blockIdx.x, i = threadIdx.x;
  lm_particle pi;
  if (i < LM_NPB) pi = p[box * LM_NPB + i];
  lm_force f = {0, 0, 0, 0};
  for (int n = 0; n < 27; n++) {
    const int nbx = lm_neighbour(box, n, b);
    if (nbx < 0) continue;
    __syncthreads();
    if (i < LM_NPB) nbp[i] = p[nbx * LM_NPB + i];
    __syncthreads();
    if (i < LM_NPB)
      for (int j = 0; j < LM_NPB; j++) {
        float dx = pi.x - nbp[j].x, dy = pi.y - nbp[j].y, dz = pi.z - nbp[j].z;
        float e = expf(-LM_A2 * (dx * dx + dy * dy + dz * dz));
        f.v += nbp[j].q * e;
        f.x += nbp[j].q * 2 * e * dx;
        f.y += nbp[j].q * 2 * e * dy;
        f.z += nbp[j].q * 2 * e * dz;
      }
  }
  if (i < LM_NPB) fv[box * LM_NPB + i] = f;
}

int main(int argc, char **argv) {
  const int b = bench_arg(argc, argv, 1, 10), nb = b * b * b;
  const long np = (long)nb * LM_NPB;
  lm_particle *p = (lm_particle *)bench_alloc(sizeof(lm_particle) * np);
  lm_force *fv = (lm_force *)bench_alloc(sizeof(lm_force) * np);
  lm_make(p, b);
  bench_warmup();
  cudaEvent_t e0, e1;
  CUDA_CHECK(cudaEventCreate(&e0));
  CUDA_CHECK(cudaEventCreate(&e1));
  for (int rep = 0, reps = bench_reps(); rep < reps; rep++) {
    double t0 = bench_clock();
    lm_particle *d_p;
    lm_force *d_f;
    CUDA_CHECK(cudaMalloc(&d_p, sizeof(lm_particle) * np));
    CUDA_CHECK(cudaMalloc(&d_f, sizeof(lm_force) * np));
    CUDA_CHECK(cudaMemcpy(d_p, p, sizeof(lm_particle) * np, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaEventRecord(e0));
    BENCH_LAUNCH(forces, nb, 128, (const lm_particle *)d_p, b, d_f);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventRecord(e1));
    float ms = bench_event_ms(e0, e1);
    CUDA_CHECK(cudaMemcpy(fv, d_f, sizeof(lm_force) * np, cudaMemcpyDeviceToHost));
    cudaFree(d_p);
    cudaFree(d_f);
    bench_report("lavamd", rep, ms * 1e-3, bench_clock() - t0);
  }
  return bench_finish(lm_check(p, b, fv));
}
