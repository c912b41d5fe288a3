/* covers: host loops of target regions run as one persistent kernel (issue 50): a do-while Jacobi to
   convergence with a max reduction into a mapped scalar and a pointer swap, label propagation with
   target update to/from of a flag mapped by the data region and an atomic write, a scalar declared
   inside the loop and reduced into, a loop with continue and break, `target teams loop` with a
   constant thread_limit and reduction(||), a loop that calls printf (left as written); each checked
   against a serial host reference */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { N = 34, V = 300 };

static int jacobi(void) {
  static double a[N * N], b[N * N], ref_a[N * N], ref_b[N * N];
  for (int i = 0; i < N * N; i++) a[i] = b[i] = ref_a[i] = ref_b[i] = (i % N == 0) ? 1.0 : 0.0;
  double *cur = a, *next = b;
  double err = 0.0;
  int iter = 0;
#pragma omp target data map(tofrom: a[0:N*N], b[0:N*N])
  do {
    err = 0.0;
#pragma omp target teams distribute parallel for collapse(2) reduction(max: err) map(tofrom: err)
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++) {
        next[i * N + j] = 0.25 * (cur[(i - 1) * N + j] + cur[(i + 1) * N + j] + cur[i * N + j - 1] + cur[i * N + j + 1]);
        err = fmax(err, fabs(next[i * N + j] - cur[i * N + j]));
      }
    double *t = cur;
    cur = next;
    next = t;
    iter++;
  } while (err > 1e-3 && iter < 500);
  /* the same on the host */
  double *rc = ref_a, *rn = ref_b, rerr;
  int riter = 0;
  do {
    rerr = 0.0;
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++) {
        rn[i * N + j] = 0.25 * (rc[(i - 1) * N + j] + rc[(i + 1) * N + j] + rc[i * N + j - 1] + rc[i * N + j + 1]);
        rerr = fmax(rerr, fabs(rn[i * N + j] - rc[i * N + j]));
      }
    double *t = rc;
    rc = rn;
    rn = t;
    riter++;
  } while (rerr > 1e-3 && riter < 500);
  int wrong = 0;
  for (int i = 0; i < N * N; i++) wrong += fabs(cur[i] - rc[i]) > 1e-12;
  printf("jacobi: %d sweeps (host %d), err %.4f, cur is %s, %d wrong\n", iter, riter, err,
         cur == a ? "a" : cur == b ? "b" : "lost", wrong);
  return iter == riter && wrong == 0 && (cur == a) == (rc == ref_a);
}

static int labels(void) {
  /* a ring of V vertices with chords; labels propagate the minimum until nothing changes */
  int *first = malloc(sizeof(int) * (V + 1)), *adj = malloc(sizeof(int) * 3 * V);
  int *label = malloc(sizeof(int) * V), *ref = malloc(sizeof(int) * V);
  for (int v = 0; v < V; v++) {
    first[v] = 3 * v;
    adj[3 * v] = (v + 1) % V;
    adj[3 * v + 1] = (v + V - 1) % V;
    adj[3 * v + 2] = (v * 7 + 3) % V;
    label[v] = ref[v] = (v * 37 + 11) % V + 5;
  }
  first[V] = 3 * V;
  int changed = 1, rounds = 0;
#pragma omp target data map(to: first[0:V+1], adj[0:3*V]) map(tofrom: label[0:V]) map(alloc: changed)
  for (int round = 0; changed; round++) {
    changed = 0;
#pragma omp target update to(changed)
#pragma omp target teams distribute parallel for map(tofrom: changed)
    for (int v = 0; v < V; v++) {
      int best = label[v];
      for (int e = first[v]; e < first[v + 1]; e++) {
        int l = label[adj[e]];
        if (l < best) best = l;
      }
      if (best < label[v]) {
#pragma omp atomic write
        label[v] = best;
#pragma omp atomic write
        changed = 1;
      }
    }
#pragma omp target update from(changed)
    rounds = round + 1;
  }
  int host_changed = 1, wrong = 0;
  while (host_changed) {
    host_changed = 0;
    for (int v = 0; v < V; v++)
      for (int e = first[v]; e < first[v + 1]; e++)
        if (ref[adj[e]] < ref[v]) {
          ref[v] = ref[adj[e]];
          host_changed = 1;
        }
  }
  for (int v = 0; v < V; v++) wrong += label[v] != ref[v];
  printf("labels: converged after %s rounds, %d wrong, label[0] %d\n", rounds > 1 ? "several" : "one", wrong, label[0]);
  free(first);
  free(adj);
  free(label);
  free(ref);
  return wrong == 0;
}

static int local_sums(void) {
  enum { M = 1000 };
  static int x[M];
  for (int i = 0; i < M; i++) x[i] = i % 17;
  long total = 0;
  int k = 0, skipped = 0;
#pragma omp target data map(tofrom: x[0:M])
  while (k < 40) {
    k++;
    if (k % 5 == 0) {
      skipped++;
      continue;
    }
    long s = 0;
#pragma omp target teams distribute parallel for reduction(+: s) map(tofrom: s)
    for (int i = 0; i < M; i++) {
      x[i] += k;
      s += x[i];
    }
    total += s;
    if (total > 4000000) break;
  }
  long ref = 0, rtotal = 0;
  int rk = 0;
  static int y[M];
  for (int i = 0; i < M; i++) y[i] = i % 17;
  while (rk < 40) {
    rk++;
    if (rk % 5 == 0) continue;
    ref = 0;
    for (int i = 0; i < M; i++) ref += (y[i] += rk);
    rtotal += ref;
    if (rtotal > 4000000) break;
  }
  printf("local sums: k %d, skipped %d, total %ld (host %ld)\n", k, skipped, total, rtotal);
  return total == rtotal && x[M - 1] == y[M - 1];
}

static int running_minimum(void) {
  enum { R = 4096 };
  static int lab[R];
  for (int i = 0; i < R; i++) lab[i] = R - i + (i % 3);
  int changed = 1, rounds = 0;
#pragma omp target data map(tofrom: lab[0:R])
  while (changed) {
    changed = 0;
#pragma omp target teams loop reduction(||: changed) map(tofrom: changed) thread_limit(128)
    for (int i = 1; i < R; i++)
      if (lab[i - 1] < lab[i]) {
        lab[i] = lab[i - 1];
        changed = 1;
      }
    rounds++;
  }
  int wrong = 0, least = R + 2;
  for (int i = 0; i < R; i++) {
    if (R - i + (i % 3) < least) least = R - i + (i % 3);
    wrong += lab[i] != (i == 0 ? R : least);
  }
  printf("running minimum: %d wrong, last %d\n", wrong, lab[R - 1]);
  return wrong == 0 && rounds >= 1;
}

static int with_io(void) {
  static double v[64];
  for (int i = 0; i < 64; i++) v[i] = i;
  double sum = 0;
#pragma omp target data map(tofrom: v[0:64])
  for (int step = 0; step < 3; step++) {
#pragma omp target teams distribute parallel for reduction(+: sum) map(tofrom: sum)
    for (int i = 0; i < 64; i++) {
      v[i] *= 2;
      sum += v[i];
    }
    printf("step %d: sum %.1f\n", step, sum);
  }
  return sum == 2016.0 * 2 + 2016.0 * 4 + 2016.0 * 8;
}

int main(void) {
  int ok = jacobi();
  ok &= labels();
  ok &= local_sums();
  ok &= running_minimum();
  ok &= with_io();
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
