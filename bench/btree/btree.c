/* btree, OpenMP offload (see btree.h).
 * Nested (default): `target teams distribute` over the queries; the master walks down the
 * levels (serial), the team compares the node's 256 keys with the query (`parallel for
 * reduction(+:)` for the child, `reduction(max:)` for the leaf match).
 * -DSPMD: `target teams distribute parallel for` over the queries, each thread scanning
 * its nodes alone. */
#include "btree.h"

int main(int argc, char **argv) {
  const int n = bench_arg(argc, argv, 1, 1048576), nq = bench_arg(argc, argv, 2, 65536);
  bt_tree t = bt_build(n);
  int *key = t.key, *ptr = t.ptr, *count = t.count;
  const int root = t.root, height = t.height;
  const long slots = (long)t.nodes * BT_ORDER;
  int *q = (int *)bench_alloc(sizeof(int) * nq), *answer = (int *)bench_alloc(sizeof(int) * nq);
  bt_queries(q, nq, n);
  bench_warmup();
  for (int rep = 0, reps = bench_reps(); rep < reps; rep++) {
    double kernel, t0 = BENCH_NOW();
#pragma omp target data map(to: key[0:slots], ptr[0:slots], count[0:t.nodes], q[0:nq]) map(from: answer[0:nq])
    {
      double k0 = BENCH_NOW();
#ifndef SPMD
#pragma omp target teams distribute thread_limit(256)
      for (int i = 0; i < nq; i++) {
        const int query = q[i];
        int node = root;
        for (int level = 1; level < height; level++) {
          const int cnt = count[node];
          int c = 0;
#pragma omp parallel for reduction(+: c)
          for (int s = 1; s < cnt; s++) c += key[node * BT_ORDER + s] <= query;
          node = ptr[node * BT_ORDER + c];
        }
        const int cnt = count[node];
        int v = -1;
#pragma omp parallel for reduction(max: v)
        for (int s = 0; s < cnt; s++)
          if (key[node * BT_ORDER + s] == query && ptr[node * BT_ORDER + s] > v) v = ptr[node * BT_ORDER + s];
        answer[i] = v;
      }
#else
#pragma omp target teams distribute parallel for
      for (int i = 0; i < nq; i++) {
        const int query = q[i];
        int node = root;
        for (int level = 1; level < height; level++) {
          int c = 0;
          for (int s = 1; s < count[node]; s++) c += key[node * BT_ORDER + s] <= query;
          node = ptr[node * BT_ORDER + c];
        }
        int v = -1;
        for (int s = 0; s < count[node]; s++)
          if (key[node * BT_ORDER + s] == query) v = ptr[node * BT_ORDER + s];
        answer[i] = v;
      }
#endif
      kernel = BENCH_NOW() - k0;
    }
    bench_report("btree", rep, kernel, BENCH_NOW() - t0);
  }
  return bench_finish(bt_check(&t, q, nq, answer));
}
