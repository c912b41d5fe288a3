/* designated initialisers and compound literals in host and device code */
#include <stdio.h>

struct opts {
  int iters;
  double tol;
  struct {
    int x, y;
  } dims;
  int table[6];
};

struct point {
  double x, y;
};

#pragma omp declare target
static struct point mid(struct point a, struct point b) { return (struct point){.x = (a.x + b.x) / 2, .y = (a.y + b.y) / 2}; }
#pragma omp end declare target

int main(void) {
  struct opts o = {.dims = {.x = 8, .y = 4}, .tol = 1e-6, .iters = 20, .table = {[3] = 3, [5] = 5}};
  int arr[10] = {[0] = 1, [9] = 9, [4] = 5, [5] = 5, [6] = 5};
  struct point pts[4] = {[0] = {0, 0}, [1] = {.x = 2}, [3] = {.y = 4, .x = 1}};
  double res[4];

#pragma omp target map(to: o, arr, pts) map(from: res)
  {
    struct point m = mid(pts[0], (struct point){o.dims.x, o.dims.y});
    struct point q = mid(m, pts[3]);
    const int *lit = (const int[]){arr[0], arr[5], arr[9], o.table[3]};
    res[0] = m.x;
    res[1] = q.y;
    res[2] = lit[1] + lit[3];
    res[3] = (struct point){.y = 7.0}.y;
  }
  printf("%f %f %f %f %d\n", res[0], res[1], res[2], res[3], o.iters);
  return 0;
}
