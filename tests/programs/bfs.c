/* covers: bfs level loop (Rodinia shape): host do-while launching two target teams distribute parallel for kernels per level inside target data, a stop flag mapped tofrom each level, graph in CSR form from malloc, benign same-value races on cost */
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>

#define NN 5000
#define DEG 4

int main(void) {
  int *start = malloc((NN + 1) * sizeof *start);
  int *edges = malloc(NN * DEG * sizeof *edges);
  char *mask = malloc(NN), *upd = malloc(NN), *visited = malloc(NN);
  int *cost = malloc(NN * sizeof *cost);
  unsigned s = 7u;
  for (int v = 0; v < NN; v++) {
    start[v] = v * DEG;
    edges[v * DEG + 0] = (v + 1) % NN;
    for (int e = 1; e < DEG; e++) {
      s = s * 1103515245u + 12345u;
      edges[v * DEG + e] = (int)((s >> 8) % NN);
    }
    mask[v] = upd[v] = visited[v] = 0;
    cost[v] = -1;
  }
  start[NN] = NN * DEG;
  int src = 17;
  mask[src] = 1;
  visited[src] = 1;
  cost[src] = 0;

  int levels = 0;
  bool stop;
#pragma omp target data map(to: start[0:NN + 1], edges[0:NN * DEG]) map(tofrom: mask[0:NN], upd[0:NN], visited[0:NN], cost[0:NN])
  do {
    stop = false;
#pragma omp target teams distribute parallel for
    for (int v = 0; v < NN; v++) {
      if (mask[v]) {
        mask[v] = 0;
        for (int e = start[v]; e < start[v + 1]; e++) {
          int w = edges[e];
          if (!visited[w]) {
            cost[w] = cost[v] + 1;
            upd[w] = 1;
          }
        }
      }
    }
#pragma omp target teams distribute parallel for map(tofrom: stop)
    for (int v = 0; v < NN; v++) {
      if (upd[v]) {
        mask[v] = 1;
        visited[v] = 1;
        stop = true;
        upd[v] = 0;
      }
    }
    levels++;
  } while (stop);

  /* reference: queue-based bfs */
  int *rc = malloc(NN * sizeof *rc), *queue = malloc(NN * sizeof *queue);
  for (int v = 0; v < NN; v++) rc[v] = -1;
  int qh = 0, qt = 0;
  rc[src] = 0;
  queue[qt++] = src;
  while (qh < qt) {
    int v = queue[qh++];
    for (int e = start[v]; e < start[v + 1]; e++)
      if (rc[edges[e]] < 0) {
        rc[edges[e]] = rc[v] + 1;
        queue[qt++] = edges[e];
      }
  }
  int ok = 1, maxc = 0, reached = 0;
  long csum = 0;
  int per_level[64] = {0};
  for (int v = 0; v < NN; v++) {
    if (rc[v] != cost[v]) ok = 0;
    if (cost[v] >= 0) {
      reached++;
      csum += cost[v];
      if (cost[v] > maxc) maxc = cost[v];
      if (cost[v] < 64) per_level[cost[v]]++;
    }
  }
  printf("levels run=%d reached=%d max cost=%d cost sum=%ld\n", levels, reached, maxc, csum);
  printf("level sizes:");
  for (int l = 0; l <= maxc && l < 64; l++) printf(" %d", per_level[l]);
  printf("\n");
  printf("%s\n", ok ? "PASS" : "FAIL");
  free(start);
  free(edges);
  free(mask);
  free(upd);
  free(visited);
  free(cost);
  free(rc);
  free(queue);
  return 0;
}
