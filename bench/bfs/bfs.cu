/* bfs, hand-written CUDA: one thread per node per level.   ./bfs_cuda [nodes] */
#include "bfs.h"

__global__ void visit(const int *start, const int *edges, int n, int depth, int *level, int *changed) {
  int u = blockIdx.x * blockDim.x + threadIdx.x;
  if (u >= n || level[u] != depth) return;
  for (int e = start[u]; e < start[u + 1]; e++) {
    int v = edges[e];
    if (level[v] < 0) {
      level[v] = depth + 1;
      *changed = 1;
    }
  }
}

int main(int argc, char **argv) {
  const int n = bench_arg(argc, argv, 1, 1048576);
  int *edges, *start = bfs_make(n, &edges);
  const int ne = start[n];
  int *level = (int *)bench_alloc(sizeof(int) * n);
  bench_warmup();
  cudaEvent_t e0, e1;
  CUDA_CHECK(cudaEventCreate(&e0));
  CUDA_CHECK(cudaEventCreate(&e1));
  for (int rep = 0, reps = bench_reps(); rep < reps; rep++) {
    for (int i = 0; i < n; i++) level[i] = i ? -1 : 0;
    double t0 = bench_clock();
    int *d_start, *d_edges, *d_level, *d_changed;
    CUDA_CHECK(cudaMalloc(&d_start, sizeof(int) * (n + 1)));
    CUDA_CHECK(cudaMalloc(&d_edges, sizeof(int) * ne));
    CUDA_CHECK(cudaMalloc(&d_level, sizeof(int) * n));
    CUDA_CHECK(cudaMalloc(&d_changed, sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_start, start, sizeof(int) * (n + 1), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_edges, edges, sizeof(int) * ne, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_level, level, sizeof(int) * n, cudaMemcpyHostToDevice));
    float ms = 0;
    for (int depth = 0, changed = 1; changed; depth++) {
      CUDA_CHECK(cudaMemset(d_changed, 0, sizeof(int)));
      CUDA_CHECK(cudaEventRecord(e0));
      BENCH_LAUNCH(visit, (n + 255) / 256, 256, (const int *)d_start, (const int *)d_edges, n, depth, d_level, d_changed);
      CUDA_CHECK(cudaGetLastError());
      CUDA_CHECK(cudaEventRecord(e1));
      ms += bench_event_ms(e0, e1);
      CUDA_CHECK(cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost));
    }
    CUDA_CHECK(cudaMemcpy(level, d_level, sizeof(int) * n, cudaMemcpyDeviceToHost));
    cudaFree(d_start); cudaFree(d_edges); cudaFree(d_level); cudaFree(d_changed);
    bench_report("bfs", rep, ms * 1e-3, bench_clock() - t0);
  }
  return bench_finish(bfs_check(start, edges, n, level));
}
