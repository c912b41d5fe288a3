/* btree, hand-written CUDA: one block of 256 threads per query, one key per thread,
 * __syncthreads_count for the child index at each level.   ./btree_cuda [records] [queries] */
#include "btree.h"

__global__ void __launch_bounds__(BT_ORDER) lookup(const int *key, const int *ptr, const int *count, int root, int height,
                                                   const int *q, int *answer) {
  __shared__ int hit;
  const int query = q[blockIdx.x], s = threadIdx.x;
  int node = root;
  for (int level = 1; level < height; level++) {
    int c = __syncthreads_count(s >= 1 && s < count[node] && key[node * BT_ORDER + s] <= query);
    node = ptr[node * BT_ORDER + c];
  }
  if (s == 0) hit = -1;
  __syncthreads();
  if (s < count[node] && key[node * BT_ORDER + s] == query) hit = ptr[node * BT_ORDER + s];
  __syncthreads();
  if (s == 0) answer[blockIdx.x] = hit;
}

int main(int argc, char **argv) {
  const int n = bench_arg(argc, argv, 1, 1048576), nq = bench_arg(argc, argv, 2, 65536);
  bt_tree t = bt_build(n);
  const long slots = (long)t.nodes * BT_ORDER;
  int *q = (int *)bench_alloc(sizeof(int) * nq), *answer = (int *)bench_alloc(sizeof(int) * nq);
  bt_queries(q, nq, n);
  bench_warmup();
  cudaEvent_t e0, e1;
  CUDA_CHECK(cudaEventCreate(&e0));
  CUDA_CHECK(cudaEventCreate(&e1));
  for (int rep = 0, reps = bench_reps(); rep < reps; rep++) {
    double t0 = bench_clock();
    int *d_key, *d_ptr, *d_count, *d_q, *d_answer;
    CUDA_CHECK(cudaMalloc(&d_key, sizeof(int) * slots));
    CUDA_CHECK(cudaMalloc(&d_ptr, sizeof(int) * slots));
    CUDA_CHECK(cudaMalloc(&d_count, sizeof(int) * t.nodes));
    CUDA_CHECK(cudaMalloc(&d_q, sizeof(int) * nq));
    CUDA_CHECK(cudaMalloc(&d_answer, sizeof(int) * nq));
    CUDA_CHECK(cudaMemcpy(d_key, t.key, sizeof(int) * slots, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_ptr, t.ptr, sizeof(int) * slots, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_count, t.count, sizeof(int) * t.nodes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_q, q, sizeof(int) * nq, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaEventRecord(e0));
    BENCH_LAUNCH(lookup, nq, BT_ORDER, (const int *)d_key, (const int *)d_ptr, (const int *)d_count, t.root, t.height,
                 (const int *)d_q, d_answer);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventRecord(e1));
    float ms = bench_event_ms(e0, e1);
    CUDA_CHECK(cudaMemcpy(answer, d_answer, sizeof(int) * nq, cudaMemcpyDeviceToHost));
    cudaFree(d_key); cudaFree(d_ptr); cudaFree(d_count); cudaFree(d_q); cudaFree(d_answer);
    bench_report("btree", rep, ms * 1e-3, bench_clock() - t0);
  }
  return bench_finish(bt_check(&t, q, nq, answer));
}
