/* map clause forms: map types, modifiers, sections, multi-dimensional sections, struct members, implicit length, lists */
#include <stdlib.h>

struct grid {
  int nx, ny;
  double *cells;
  double halo[8];
};

double global_arr[256];
int global_n = 256;

void maps(double *p, int n, struct grid *g, struct grid gv) {
  double local[64];
  double mat[16][32];
  int scalar = 3;
  char buf[10];

#pragma omp target map(p[0:n])
  p[0] = 1.0;
#pragma omp target map(to: p[0:n]) map(from: local) map(tofrom: scalar) map(alloc: buf)
  local[0] = p[0] + scalar + buf[0];
#pragma omp target map(tofrom: p[:n]) map(to: local[:32]) map(from: mat[2:4][0:32])
  mat[2][0] = p[0] + local[0];
#pragma omp target map(p[1:n - 1], local[10:20])
  p[1] = local[10];
#pragma omp target map(always, tofrom: global_arr) map(always, to: scalar)
  global_arr[0] = scalar;
#pragma omp target map(always close, tofrom: local)
  local[1] = 2.0;
#pragma omp target map(close, to: local[0:8])
  scalar = (int)local[0];
#pragma omp target map(to: gv) map(tofrom: gv.halo[0:8])
  gv.halo[0] = gv.nx;
#pragma omp target map(to: g[0:1]) map(tofrom: g->cells[0:g->nx * g->ny])
  g->cells[0] = g->halo[0];
#pragma omp target map(to: gv.nx, gv.ny) map(tofrom: global_arr[global_n / 2:global_n / 4])
  global_arr[global_n / 2] = gv.nx * gv.ny;
#pragma omp target map(tofrom: mat[0:16][0:32], local) map(to: p[0:n], g[0:1])
  mat[0][0] = local[0] + p[0] + g->nx;
#pragma omp target data map(alloc: p[0:n]) map(to: local)
  {
#pragma omp target map(p[0:n]) map(to: local[0:4])
    p[0] = local[0];
  }
#pragma omp target enter data map(to: p[0:n]) map(alloc: local[0:64])
#pragma omp target exit data map(release: local[0:64]) map(from: p[0:n])
#pragma omp target enter data map(to: mat)
#pragma omp target exit data map(delete: mat)
#pragma omp target defaultmap(tofrom: scalar) map(tofrom: local)
  local[2] = scalar++;
}

int main(void) {
  double *p = malloc(100 * sizeof *p);
  struct grid g = {4, 4, malloc(16 * sizeof(double)), {0}};
  maps(p, 100, &g, g);
  free(p);
  free(g.cells);
  return 0;
}
