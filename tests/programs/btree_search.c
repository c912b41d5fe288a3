/* covers: b+tree-like search (Rodinia findK/findRangeK shape): tree stored in flat arrays built on the host, target teams distribute over queries, per level a parallel for over the node's keys with a max reduction picking the child, serial descent between levels, leaf lookup; range-count queries with two descents; struct of node arrays mapped to the device */
#include <stdio.h>
#include <stdlib.h>

#define FAN 16
#define NKEYS 4096 /* = FAN^3 leaf entries under three levels of nodes */
#define NQ 600

typedef struct {
  int keys[FAN];  /* first key of each child */
  int child[FAN]; /* index of child node, or of the leaf block */
  int nkeys;
} node_t;

/* level 0: root; level 1: FAN nodes; level 2: FAN*FAN nodes whose children are leaf blocks of FAN keys */
#define NNODES (1 + FAN + FAN * FAN)

int main(void) {
  static int leaf_keys[NKEYS];
  static int leaf_vals[NKEYS];
  static node_t nodes[NNODES];
  for (int i = 0; i < NKEYS; i++) {
    leaf_keys[i] = i * 3 + (i % 3); /* strictly increasing, with gaps */
    leaf_vals[i] = i * 10 + 7;
  }
  /* level 2: node 1+FAN+b indexes leaf entries b*FAN .. b*FAN+FAN-1 */
  for (int b = 0; b < FAN * FAN; b++) {
    node_t *nd = &nodes[1 + FAN + b];
    nd->nkeys = FAN;
    for (int k = 0; k < FAN; k++) {
      nd->child[k] = b * FAN + k;
      nd->keys[k] = leaf_keys[b * FAN + k];
    }
  }
  /* level 1 and the root */
  for (int m = 0; m < FAN; m++) {
    node_t *nd = &nodes[1 + m];
    nd->nkeys = FAN;
    for (int k = 0; k < FAN; k++) {
      nd->child[k] = 1 + FAN + m * FAN + k;
      nd->keys[k] = nodes[nd->child[k]].keys[0];
    }
  }
  nodes[0].nkeys = FAN;
  for (int k = 0; k < FAN; k++) {
    nodes[0].child[k] = 1 + k;
    nodes[0].keys[k] = nodes[1 + k].keys[0];
  }

  int queries[NQ], lo_q[NQ], hi_q[NQ];
  int found[NQ], counts[NQ];
  for (int j = 0; j < NQ; j++) {
    queries[j] = (j * 7919) % (NKEYS * 3 + 10);
    lo_q[j] = (j * 131) % 12000;
    hi_q[j] = lo_q[j] + (j % 50) * 3;
  }

  /* point queries: level by level, a parallel scan of the node's keys */
#pragma omp target teams distribute num_teams(64) thread_limit(32) map(to: nodes, leaf_keys, leaf_vals, queries) map(from: found)
  for (int j = 0; j < NQ; j++) {
    int key = queries[j];
    int cur = 0;
    int entry = -1;
    for (int level = 0; level < 3; level++) {
      int pick = 0;
#pragma omp parallel for reduction(max: pick)
      for (int k = 0; k < FAN; k++)
        if (k < nodes[cur].nkeys && nodes[cur].keys[k] <= key && k > pick) pick = k;
      if (level < 2)
        cur = nodes[cur].child[pick];
      else
        entry = nodes[cur].child[pick];
    }
    found[j] = (leaf_keys[entry] == key) ? leaf_vals[entry] : -1;
  }

  /* range queries: descend for both ends, count keys between */
#pragma omp target teams distribute parallel for map(to: nodes, leaf_keys, lo_q, hi_q) map(from: counts)
  for (int j = 0; j < NQ; j++) {
    int ends[2];
    for (int e = 0; e < 2; e++) {
      int key = e == 0 ? lo_q[j] - 1 : hi_q[j];
      int cur = 0, entry = -1;
      for (int level = 0; level < 3; level++) {
        int pick = 0;
        for (int k = 1; k < nodes[cur].nkeys; k++)
          if (nodes[cur].keys[k] <= key) pick = k;
        if (level < 2)
          cur = nodes[cur].child[pick];
        else
          entry = nodes[cur].child[pick];
      }
      /* entry is the last key <= key, or 0 when key is below all keys */
      if (leaf_keys[entry] > key) entry = -1;
      ends[e] = entry;
    }
    counts[j] = ends[1] - ends[0];
  }

  /* references by binary search */
  int ok = 1, hits = 0;
  long vsum = 0, csum = 0;
  for (int j = 0; j < NQ; j++) {
    int l = 0, h = NKEYS;
    while (l < h) {
      int m = (l + h) / 2;
      if (leaf_keys[m] < queries[j])
        l = m + 1;
      else
        h = m;
    }
    int want = (l < NKEYS && leaf_keys[l] == queries[j]) ? leaf_vals[l] : -1;
    if (want != found[j]) ok = 0;
    if (found[j] >= 0) {
      hits++;
      vsum += found[j];
    }
    int c = 0;
    for (int i = 0; i < NKEYS; i++) c += leaf_keys[i] >= lo_q[j] && leaf_keys[i] <= hi_q[j];
    if (c != counts[j]) ok = 0;
    csum += counts[j];
  }
  printf("point queries: hits=%d value sum=%ld found[1]=%d found[2]=%d\n", hits, vsum, found[1], found[2]);
  printf("range queries: total=%ld counts[10]=%d counts[49]=%d\n", csum, counts[10], counts[49]);
  printf("%s\n", ok ? "PASS" : "FAIL");
  return 0;
}
