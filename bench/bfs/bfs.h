/* bfs: level-synchronous breadth-first search from node 0 over a random graph in CSR form
 * (1M nodes, 1 to 11 edges each plus a ring edge so every node is reached). One kernel per
 * level: every node on the current level labels its unvisited neighbours with level + 1.
 * Shared by bfs.c (OpenMP) and bfs.cu.     ./bfs [nodes=1048576] */
#ifndef BFS_H
#define BFS_H
#include "../common/bench.h"

static int *bfs_make(int n, int **edges_out) {
  int *start = (int *)bench_alloc(sizeof(int) * (n + 1));
  for (int u = 0; u < n; u++) start[u + 1] = start[u] + 2 + (int)(bench_hash(u) % 11);
  int *edges = (int *)bench_alloc(sizeof(int) * start[n]);
  for (int u = 0; u < n; u++) {
    edges[start[u]] = (u + 1) % n;
    for (int e = start[u] + 1; e < start[u + 1]; e++) edges[e] = (int)(bench_hash(e * 31 + 7) % (unsigned)n);
  }
  *edges_out = edges;
  return start;
}

static int bfs_check(const int *start, const int *edges, int n, const int *level) {
  int *ref = (int *)bench_alloc(sizeof(int) * n), *queue = (int *)bench_alloc(sizeof(int) * n);
  for (int i = 0; i < n; i++) ref[i] = -1;
  int head = 0, tail = 0, depth = 0;
  ref[0] = 0;
  queue[tail++] = 0;
  while (head < tail) {
    int u = queue[head++];
    for (int e = start[u]; e < start[u + 1]; e++)
      if (ref[edges[e]] < 0) {
        ref[edges[e]] = ref[u] + 1;
        if (ref[u] + 1 > depth) depth = ref[u] + 1;
        queue[tail++] = edges[e];
      }
  }
  int bad = 0;
  for (int i = 0; i < n; i++) bad += ref[i] != level[i];
  printf("bfs: %d nodes, %d edges, depth %d, %d wrong levels\n", n, start[n], depth, bad);
  free(ref);
  free(queue);
  return bad == 0;
}
#endif
