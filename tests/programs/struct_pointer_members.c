/* covers: pointer attachment through struct members: map(tofrom: s.p[lo:n]) with and without the struct in the clause, two pointer members of one struct, a pointer member of a nested struct, target enter data of the struct then of s.p[0:n] (attach to the present struct), target update to/from of s.p sections and of a scalar member, map(tofrom: s) copying back keeps the host's pointer values */
#include <stdio.h>
#include <stdlib.h>

struct inner {
  int len;
  int *idx;
};
struct mesh {
  int n;
  double *x;
  double *y;
  struct inner in;
};

int main(void) {
  struct mesh m;
  m.n = 400;
  m.x = malloc(m.n * sizeof(double));
  m.y = malloc(m.n * sizeof(double));
  m.in.len = 50;
  m.in.idx = malloc(m.in.len * sizeof(int));
  for (int i = 0; i < m.n; i++) {
    m.x[i] = i;
    m.y[i] = 0;
  }
  for (int k = 0; k < m.in.len; k++) m.in.idx[k] = (k * 7) % m.n;
  double *keep_x = m.x, *keep_y = m.y;
  int *keep_idx = m.in.idx;
  int n = m.n, len = m.in.len;

  /* two pointer members and a nested one; the struct comes along implicitly */
#pragma omp target teams distribute parallel for map(to: m.x[0:n], m.in.idx[0:len]) map(tofrom: m.y[0:n])
  for (int i = 0; i < n; i++) m.y[i] = m.x[i] * 2 + m.in.idx[i % len];

  /* the struct mapped tofrom and a section with nonzero lower bound */
#pragma omp target map(tofrom: m) map(tofrom: m.x[100:200])
  {
    for (int i = 100; i < 300; i++) m.x[i] = -m.x[i];
    m.n = 123;   /* a scalar member comes back; the pointers must not */
  }
  printf("after tofrom struct: n=%d pointers kept: %s\n", m.n,
         m.x == keep_x && m.y == keep_y && m.in.idx == keep_idx ? "yes" : "no");
  m.n = n;

  /* enter data: the struct first, then its arrays are attached to the present struct */
#pragma omp target enter data map(to: m)
#pragma omp target enter data map(to: m.x[0:n]) map(alloc: m.y[0:n])
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++) m.y[i] = m.x[i] + 0.5;
#pragma omp target update from(m.y[0:n])
  double mid = m.y[150];
  m.x[0] = 1000;
#pragma omp target update to(m.x[0:1])
#pragma omp target
  m.y[0] = m.x[0] * 2;
#pragma omp target update from(m.y[0:1])
#pragma omp target exit data map(from: m.y[0:n]) map(release: m.x[0:n])
#pragma omp target exit data map(release: m)

  double sy = 0, sx = 0;
  for (int i = 0; i < n; i++) {
    sy += m.y[i];
    sx += m.x[i];
  }
  printf("mid=%.1f y[0]=%.1f sum y=%.1f sum x=%.1f\n", mid, m.y[0], sy, sx);
  int ok = mid == -149.5 && m.y[0] == 2000 && m.x == keep_x;
  printf("%s\n", ok ? "PASS" : "FAIL");
  free(m.x);
  free(m.y);
  free(m.in.idx);
  return 0;
}
