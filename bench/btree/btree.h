/* btree: exact-match lookups in a static B+ tree of order 256 (the order of Rodinia's
 * b+tree) over n records with keys 1, 3, 5, ... Each node holds up to 256 keys; an inner
 * node's key s is the smallest key under child s. A lookup descends from the root: the
 * child is the number of keys s >= 1 with key <= query; at the leaf it looks for the key.
 * Shared by btree.c (OpenMP) and btree.cu.     ./btree [records=1048576] [queries=65536] */
#ifndef BTREE_H
#define BTREE_H
#include "../common/bench.h"

#define BT_ORDER 256

typedef struct {
  int nodes, height, root;
  int *key;   /* nodes x BT_ORDER */
  int *ptr;   /* child node (inner) or record value (leaf) */
  int *count; /* keys in the node */
} bt_tree;

static bt_tree bt_build(int n) {
  int leaves = (n + BT_ORDER - 1) / BT_ORDER, total = 0;
  for (int level = leaves; ; level = (level + BT_ORDER - 1) / BT_ORDER) {
    total += level;
    if (level == 1) break;
  }
  bt_tree t;
  t.nodes = total;
  t.key = (int *)bench_alloc(sizeof(int) * total * BT_ORDER);
  t.ptr = (int *)bench_alloc(sizeof(int) * total * BT_ORDER);
  t.count = (int *)bench_alloc(sizeof(int) * total);
  for (int i = 0; i < n; i++) {
    t.key[i / BT_ORDER * BT_ORDER + i % BT_ORDER] = 2 * i + 1;
    t.ptr[i / BT_ORDER * BT_ORDER + i % BT_ORDER] = (int)(bench_hash(i) & 0x7fffffff);
    t.count[i / BT_ORDER]++;
  }
  int first = 0, width = leaves, height = 1;
  while (width > 1) { /* the next level up: one key per child node */
    int next = first + width, up = (width + BT_ORDER - 1) / BT_ORDER;
    for (int c = 0; c < width; c++) {
      int node = next + c / BT_ORDER, s = c % BT_ORDER;
      t.key[node * BT_ORDER + s] = t.key[(first + c) * BT_ORDER];
      t.ptr[node * BT_ORDER + s] = first + c;
      t.count[node]++;
    }
    first = next;
    width = up;
    height++;
  }
  t.root = first;
  t.height = height;
  return t;
}

static void bt_queries(int *q, int nq, int n) {
  for (int i = 0; i < nq; i++) q[i] = (int)(bench_hash(i + 99) % (unsigned)(2 * n + 2)); /* about half miss */
}

static int bt_check(const bt_tree *t, const int *q, int nq, const int *answer) {
  int bad = 0, found = 0;
  for (int i = 0; i < nq; i++) {
    int node = t->root;
    for (int level = 1; level < t->height; level++) {
      int c = 0;
      for (int s = 1; s < t->count[node]; s++) c += t->key[node * BT_ORDER + s] <= q[i];
      node = t->ptr[node * BT_ORDER + c];
    }
    int v = -1;
    for (int s = 0; s < t->count[node]; s++)
      if (t->key[node * BT_ORDER + s] == q[i]) v = t->ptr[node * BT_ORDER + s];
    bad += v != answer[i];
    found += v >= 0;
  }
  printf("btree: %d nodes, height %d, %d queries, %d found, %d wrong\n", t->nodes, t->height, nq, found, bad);
  return bad == 0;
}
#endif
