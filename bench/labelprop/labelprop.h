/* labelprop: connected-component labels by propagation until no label changes, on a side x side
 * grid graph in CSR form (4 neighbours, every 7th edge missing, so the components are many and
 * long: hundreds of rounds). One round per host iteration: each vertex takes the smallest label
 * among its own and its neighbours'; a flag says whether any label changed. A host loop of short
 * kernels, the shape of issue 50. Shared by labelprop.c (OpenMP) and labelprop.cu.
 *     ./labelprop [side=128]           (-DLP_LARGE: side 512, 262,144 vertices) */
#ifndef LABELPROP_H
#define LABELPROP_H
/* the variant's name in the results (bench/run.py PROBLEM_VARIANTS); CUDA builds say "cuda" */
#ifdef LP_LARGE
#define BENCH_VARIANT "large"
#else
#define BENCH_VARIANT "small"
#endif
#include "../common/bench.h"

#ifdef LP_LARGE
#define LP_SIDE 512
#else
#define LP_SIDE 128
#endif

static int lp_edge_kept(int u, int v) { return bench_hash((unsigned)(u < v ? u * 2654435761u + v : v * 2654435761u + u)) % 7 != 0; }

static int *lp_make(int side, int **adj_out) {
  const int n = side * side;
  int *first = (int *)bench_alloc(sizeof(int) * (n + 1));
  int *adj = (int *)bench_alloc(sizeof(int) * 4 * n);
  for (int u = 0; u < n; u++) {
    const int r = u / side, c = u % side;
    first[u + 1] = first[u];
    const int nb[4] = {r > 0 ? u - side : -1, r < side - 1 ? u + side : -1, c > 0 ? u - 1 : -1, c < side - 1 ? u + 1 : -1};
    for (int k = 0; k < 4; k++)
      if (nb[k] >= 0 && lp_edge_kept(u, nb[k])) adj[first[u + 1]++] = nb[k];
  }
  *adj_out = adj;
  return first;
}

static int lp_initial(int v) { return (int)(bench_hash((unsigned)v) & 0x3fffffff); }

/* the labels of the fixed point, by the same rounds on the host */
static int lp_check(const int *first, const int *adj, int n, const int *label, int rounds) {
  int *ref = (int *)bench_alloc(sizeof(int) * n), *next = (int *)bench_alloc(sizeof(int) * n);
  for (int v = 0; v < n; v++) ref[v] = lp_initial(v);
  int changed = 1, host_rounds = 0;
  while (changed) {
    changed = 0;
    for (int v = 0; v < n; v++) {
      int best = ref[v];
      for (int e = first[v]; e < first[v + 1]; e++)
        if (ref[adj[e]] < best) best = ref[adj[e]];
      next[v] = best;
      changed |= best != ref[v];
    }
    int *t = ref;
    ref = next;
    next = t;
    host_rounds++;
  }
  int wrong = 0;
  for (int v = 0; v < n; v++) wrong += label[v] != ref[v];
  if (wrong) fprintf(stderr, "labelprop: %d of %d labels wrong\n", wrong, n);
  /* asynchronous rounds may take fewer; never more than the synchronous ones */
  if (rounds > host_rounds) fprintf(stderr, "labelprop: %d rounds, the host took %d\n", rounds, host_rounds);
  free(ref);
  free(next);
  return wrong == 0 && rounds <= host_rounds;
}
#endif
