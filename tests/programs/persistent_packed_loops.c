/* covers: host loops of target regions whose teams are packed several to a block (one-warp teams of
   thread_limit(32), teams of 16 lanes sized to their inner loop) run as one persistent kernel: a
   level-synchronous BFS (a team per node, its lanes on the node's edges, a flag updated to and from
   the device each level), repeated row sums with a team-local accumulator and a parallel reduction,
   a region with 16-lane teams; and a loop whose packed region calls omp_get_team_num (its kernel
   then runs a team per block and the loop runs as written). Each checked against the host. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

enum { NODES = 3000, ROWS = 700, COLS = 96 };

static unsigned mix(unsigned x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  return x;
}

static int bfs(void) {
  int *start = malloc(sizeof(int) * (NODES + 1)), *level = malloc(sizeof(int) * NODES);
  start[0] = 0;
  for (int u = 0; u < NODES; u++) start[u + 1] = start[u] + 1 + (int)(mix((unsigned)u) % 5);
  const int ne = start[NODES];
  int *edges = malloc(sizeof(int) * ne);
  for (int u = 0; u < NODES; u++) {
    edges[start[u]] = (u + 1) % NODES;   /* a ring: every node is reached */
    for (int e = start[u] + 1; e < start[u + 1]; e++) edges[e] = (int)(mix((unsigned)e * 31u + 7u) % NODES);
  }
  for (int i = 0; i < NODES; i++) level[i] = i ? -1 : 0;
  int changed = 1, depth = 0;
#pragma omp target data map(to: start[0:NODES + 1], edges[0:ne]) map(tofrom: level[0:NODES]) map(alloc: changed)
  for (depth = 0; changed; depth++) {
    changed = 0;
#pragma omp target update to(changed)
#pragma omp target teams distribute thread_limit(32) firstprivate(depth) map(tofrom: changed)
    for (int u = 0; u < NODES; u++) {
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
#pragma omp target update from(changed)
  }
  /* the same on the host, breadth first */
  int *ref = malloc(sizeof(int) * NODES), *queue = malloc(sizeof(int) * NODES), head = 0, tail = 0, wrong = 0;
  for (int i = 0; i < NODES; i++) ref[i] = -1;
  ref[0] = 0;
  queue[tail++] = 0;
  while (head < tail) {
    int u = queue[head++];
    for (int e = start[u]; e < start[u + 1]; e++)
      if (ref[edges[e]] < 0) {
        ref[edges[e]] = ref[u] + 1;
        queue[tail++] = edges[e];
      }
  }
  int deepest = 0;
  for (int i = 0; i < NODES; i++) {
    wrong += ref[i] != level[i];
    if (ref[i] > deepest) deepest = ref[i];
  }
  printf("bfs: %d wrong levels, %s\n", wrong, depth == deepest + 1 ? "one level past the deepest" : "wrong depth");
  free(start), free(level), free(edges), free(ref), free(queue);
  return wrong == 0 && depth == deepest + 1;
}

static int row_sums(void) {
  /* each team sums its own row with its lanes (a parallel reduction), then updates the row's entry alone */
  static double a[ROWS * COLS], x[ROWS], ref[ROWS];
  static int visits[ROWS];
  for (int i = 0; i < ROWS * COLS; i++) a[i] = (double)(mix((unsigned)i) % 100) / 64.0;
  for (int i = 0; i < ROWS; i++) x[i] = ref[i] = 1.0 + (double)(i % 7);
  int sweeps = 0;
  double scale = 1.0;
#pragma omp target data map(to: a[0:ROWS * COLS]) map(tofrom: x[0:ROWS], visits[0:ROWS])
  while (sweeps < 6) {
#pragma omp target teams distribute thread_limit(32) firstprivate(scale)
    for (int i = 0; i < ROWS; i++) {
      visits[i]++;
      double s = 0.0;
#pragma omp parallel for reduction(+: s)
      for (int j = 0; j < COLS; j++) s += a[i * COLS + j] * x[i];
      x[i] = s * scale / COLS;
    }
#pragma omp target teams distribute thread_limit(16)
    for (int i = 0; i < ROWS; i++) {
#pragma omp parallel for
      for (int j = 0; j < 16; j++) a[i * COLS + j] = a[i * COLS + j] * 0.5 + (double)j / 32.0;
    }
    scale *= 1.25;
    sweeps++;
  }
  static double ha[ROWS * COLS];
  for (int i = 0; i < ROWS * COLS; i++) ha[i] = (double)(mix((unsigned)i) % 100) / 64.0;
  double hscale = 1.0;
  for (int sweep = 0; sweep < 6; sweep++) {
    for (int i = 0; i < ROWS; i++) {
      double s = 0.0;
      for (int j = 0; j < COLS; j++) s += ha[i * COLS + j] * ref[i];
      ref[i] = s * hscale / COLS;
    }
    for (int i = 0; i < ROWS; i++)
      for (int j = 0; j < 16; j++) ha[i * COLS + j] = ha[i * COLS + j] * 0.5 + (double)j / 32.0;
    hscale *= 1.25;
  }
  int wrong = 0;
  for (int i = 0; i < ROWS; i++) {
    wrong += visits[i] != 6;
    double d = x[i] - ref[i];
    wrong += (d < 0 ? -d : d) > 1e-9 * (ref[i] < 0 ? -ref[i] : ref[i]) + 1e-12;
  }
  printf("row sums: %d sweeps, %d wrong\n", sweeps, wrong);
  return wrong == 0;
}

static int team_numbers(void) {
  enum { T = 512 };
  static int seen[T];
  int rounds = 0;
#pragma omp target data map(tofrom: seen[0:T])
  for (int r = 0; r < 3; r++) {
#pragma omp target teams distribute thread_limit(32)
    for (int i = 0; i < T; i++) {
      int n = 0;
#pragma omp parallel for reduction(+: n)
      for (int j = 0; j < 32; j++) n += 1;
      if (omp_get_team_num() < omp_get_num_teams()) seen[i] += n;
    }
    rounds++;
  }
  int wrong = 0;
  for (int i = 0; i < T; i++) wrong += seen[i] != 96;
  printf("team numbers: %d rounds, %d wrong\n", rounds, wrong);
  return wrong == 0;
}

int main(void) {
  int ok = bfs();
  ok &= row_sums();
  ok &= team_numbers();
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
