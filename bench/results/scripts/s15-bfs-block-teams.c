/* Session 15: bench/bfs/bfs.c with a team of BFS_TEAM threads (default 128: a team per block)
   instead of 32 (packed teams), to time the block-team path of skip conditions tested ahead. */
/* bfs, OpenMP offload (see bfs.h); the host loops over levels until none changes. Kernel time is
 * the whole loop of levels (the updates of the flag included): nothing but the levels' constructs
 * runs in the loop, so ompgpu may run it as one persistent kernel (issue 50).
 * Nested (default): `target teams distribute` over the nodes; the master tests whether the
 * node is on the current level, the team visits its edges (`parallel for`).
 * -DSPMD: `target teams distribute parallel for` over the nodes, each thread visiting its
 * node's edges alone. */
#include "../../bfs/bfs.h"
#ifndef BFS_TEAM
#define BFS_TEAM 128
#endif

int main(int argc, char **argv) {
  const int n = bench_arg(argc, argv, 1, 1048576);
  int *edges, *start = bfs_make(n, &edges);
  const int ne = start[n];
  int *level = (int *)bench_alloc(sizeof(int) * n);
  bench_warmup();
  for (int rep = 0, reps = bench_reps(); rep < reps; rep++) {
    for (int i = 0; i < n; i++) level[i] = i ? -1 : 0;
    double t0 = BENCH_NOW(), k0 = 0, k1 = 0;
    int changed = 1;
#pragma omp target data map(to: start[0:n + 1], edges[0:ne]) map(tofrom: level[0:n]) map(alloc: changed)
    {
    k0 = BENCH_NOW();
    for (int depth = 0; changed; depth++) {
      changed = 0;
#pragma omp target update to(changed)
#ifndef SPMD
#pragma omp target teams distribute thread_limit(BFS_TEAM) firstprivate(depth) map(tofrom: changed)
      for (int u = 0; u < n; u++) {
        if (level[u] != depth) continue;
        const int first = start[u], last = start[u + 1];
#pragma omp parallel for
        for (int e = first; e < last; e++) {
          int v = edges[e];
          if (level[v] < 0) {
            level[v] = depth + 1;
#pragma omp atomic write
            changed = 1;
          }
        }
      }
#else
#pragma omp target teams distribute parallel for firstprivate(depth) map(tofrom: changed)
      for (int u = 0; u < n; u++) {
        if (level[u] != depth) continue;
        for (int e = start[u]; e < start[u + 1]; e++) {
          int v = edges[e];
          if (level[v] < 0) {
            level[v] = depth + 1;
#pragma omp atomic write
            changed = 1;
          }
        }
      }
#endif
#pragma omp target update from(changed)
    }
    k1 = BENCH_NOW();
    }
    bench_report("bfs", rep, k1 - k0, BENCH_NOW() - t0);
  }
  return bench_finish(bfs_check(start, edges, n, level));
}
