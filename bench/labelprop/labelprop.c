/* labelprop, OpenMP offload (see labelprop.h): a host loop of one `target teams distribute
 * parallel for` per round until no label changes; the flag goes to the device and back with
 * `target update`. Nothing else happens in the loop, so ompgpu may run it as one persistent
 * kernel (-Rpass=ompgpu says so); kernel time is the whole loop's. */
#include "labelprop.h"

int main(int argc, char **argv) {
  const int side = bench_arg(argc, argv, 1, LP_SIDE), n = side * side;
  int *adj, *first = lp_make(side, &adj);
  const int ne = first[n];
  int *label = (int *)bench_alloc(sizeof(int) * n);
  bench_warmup();
  int rounds = 0;
  for (int rep = 0, reps = bench_reps(); rep < reps; rep++) {
    for (int v = 0; v < n; v++) label[v] = lp_initial(v);
    double t0 = BENCH_NOW(), k0 = 0, k1 = 0;
    int changed = 1;
#pragma omp target data map(to: first[0:n + 1], adj[0:ne]) map(tofrom: label[0:n]) map(alloc: changed)
    {
      k0 = BENCH_NOW();
      for (rounds = 0; changed; rounds++) {
        changed = 0;
#pragma omp target update to(changed)
#pragma omp target teams distribute parallel for map(tofrom: changed)
        for (int v = 0; v < n; v++) {
          int best = label[v];
          for (int e = first[v]; e < first[v + 1]; e++) {
            int l = label[adj[e]];
            if (l < best) best = l;
          }
          if (best < label[v]) {
            label[v] = best;
#pragma omp atomic write
            changed = 1;
          }
        }
#pragma omp target update from(changed)
      }
      k1 = BENCH_NOW();
    }
    bench_report("labelprop", rep, k1 - k0, BENCH_NOW() - t0);
  }
  return bench_finish(lp_check(first, adj, n, label, rounds));
}
