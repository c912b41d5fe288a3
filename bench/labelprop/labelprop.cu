/* labelprop, hand-written CUDA (see labelprop.h). By default a host loop of one kernel per round,
 * the flag cleared and read back around each launch, as a CUDA programmer writes it first.
 * -DCOOPERATIVE: the whole loop in one cooperative kernel (cudaLaunchCooperativeKernel, a grid the
 * GPU holds at once, grid-stride loops, grid.sync() between rounds): the ceiling for a loop of
 * short rounds.   ./labelprop_cuda [side] */
#include "labelprop.h"
#ifdef COOPERATIVE
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
#endif

__global__ void propagate(const int *first, const int *adj, int n, int *label, int *changed) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  int best = label[v];
  for (int e = first[v]; e < first[v + 1]; e++) {
    int l = label[adj[e]];
    if (l < best) best = l;
  }
  if (best < label[v]) {
    label[v] = best;
    *changed = 1;
  }
}

#ifdef COOPERATIVE
/* flags[r % 2] is round r's; the other one is cleared for the next round while every thread reads
   this one after the barrier (two grid barriers a round) */
__global__ void propagate_all(const int *first, const int *adj, int n, int *label, int *flags, int *rounds) {
  cg::grid_group grid = cg::this_grid();
  int r = 0;
  for (;; r++) {
    int *changed = &flags[r & 1];
    if (grid.thread_rank() == 0) flags[(r + 1) & 1] = 0;
    for (int v = (int)grid.thread_rank(); v < n; v += (int)grid.size()) {
      int best = label[v];
      for (int e = first[v]; e < first[v + 1]; e++) {
        int l = label[adj[e]];
        if (l < best) best = l;
      }
      if (best < label[v]) {
        label[v] = best;
        *changed = 1;
      }
    }
    grid.sync();
    const int go_on = *(volatile int *)changed;
    grid.sync();
    if (!go_on) break;
  }
  if (grid.thread_rank() == 0) *rounds = r + 1;
}
#endif

int main(int argc, char **argv) {
  const int side = bench_arg(argc, argv, 1, LP_SIDE), n = side * side;
  int *adj, *first = lp_make(side, &adj);
  const int ne = first[n];
  int *label = (int *)bench_alloc(sizeof(int) * n);
  bench_warmup();
  int rounds = 0;
  for (int rep = 0, reps = bench_reps(); rep < reps; rep++) {
    for (int v = 0; v < n; v++) label[v] = lp_initial(v);
    double t0 = bench_clock();
    int *d_first, *d_adj, *d_label, *d_changed;
    CUDA_CHECK(cudaMalloc(&d_first, sizeof(int) * (n + 1)));
    CUDA_CHECK(cudaMalloc(&d_adj, sizeof(int) * (ne > 0 ? ne : 1)));
    CUDA_CHECK(cudaMalloc(&d_label, sizeof(int) * n));
    CUDA_CHECK(cudaMalloc(&d_changed, 3 * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_first, first, sizeof(int) * (n + 1), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_adj, adj, sizeof(int) * ne, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_label, label, sizeof(int) * n, cudaMemcpyHostToDevice));
    double k0 = bench_clock();
#ifdef COOPERATIVE
    int per_sm = 0, sms = 0, dev = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, propagate_all, 256, 0));
    CUDA_CHECK(cudaMemset(d_changed, 0, 3 * sizeof(int)));
    const int *cf = d_first, *ca = d_adj;
    int *flags = d_changed, *d_rounds = d_changed + 2;
    void *args[] = {&cf, &ca, (void *)&n, &d_label, &flags, &d_rounds};
    CUDA_CHECK(cudaLaunchCooperativeKernel((void *)propagate_all, per_sm * sms, 256, args, 0, 0));
    CUDA_CHECK(cudaMemcpy(&rounds, d_rounds, sizeof(int), cudaMemcpyDeviceToHost));
#else
    int changed = 1;
    for (rounds = 0; changed; rounds++) {
      CUDA_CHECK(cudaMemset(d_changed, 0, sizeof(int)));
      BENCH_LAUNCH(propagate, (n + 255) / 256, 256, (const int *)d_first, (const int *)d_adj, n, d_label, d_changed);
      CUDA_CHECK(cudaGetLastError());
      CUDA_CHECK(cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost));
    }
#endif
    double k1 = bench_clock();
    CUDA_CHECK(cudaMemcpy(label, d_label, sizeof(int) * n, cudaMemcpyDeviceToHost));
    cudaFree(d_first); cudaFree(d_adj); cudaFree(d_label); cudaFree(d_changed);
    bench_report("labelprop", rep, k1 - k0, bench_clock() - t0);
  }
  return bench_finish(lp_check(first, adj, n, label, rounds));
}
