/* Array shaping (OpenMP 5.0): ([n][m])p gives a pointer the shape of an n x m array, in the
   to/from clauses of target update (the whole shape, and columns of it: the boundary exchange
   of the specification's example) and in depend clauses (host tasks and a target task). */
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  int nx = 6, ny = 4;
  double *a = malloc(sizeof(double) * nx * (ny + 2));
  for (int i = 0; i < nx * (ny + 2); i++) a[i] = 0;
  #pragma omp target data map(tofrom: a[0:nx*(ny+2)])
  {
    #pragma omp target
    for (int i = 0; i < nx; i++)
      for (int j = 0; j < ny + 2; j++) a[i * (ny + 2) + j] = 100 * i + j;
    /* copy the columns 1 and ny back: 2 * nx elements, nothing else */
    #pragma omp target update from(([nx][ny+2])a[0:nx][1], ([nx][ny+2])a[0:nx][ny])
    double got = 0;
    int moved = 0;
    for (int i = 0; i < nx * (ny + 2); i++) { got += a[i]; moved += a[i] != 0; }
    printf("from columns: %d elements, sum %.0f\n", moved, got);
    /* halo exchange on the host: column 0 from column ny, column ny+1 from column 1 */
    for (int i = 0; i < nx; i++) { a[i * (ny + 2)] = -a[i * (ny + 2) + ny]; a[i * (ny + 2) + ny + 1] = -a[i * (ny + 2) + 1]; }
    #pragma omp target update to(([nx][ny+2])a[0:nx][0], ([nx][ny+2])a[0:nx][ny+1])
    #pragma omp target
    for (int i = 0; i < nx; i++) a[i * (ny + 2) + 2] = a[i * (ny + 2)] + a[i * (ny + 2) + ny + 1];
    /* rows 1..2, every column: a 2 x (ny+2) block */
    #pragma omp target update from(([nx][ny+2])a[1:2][:])
    printf("row 1: %.0f %.0f %.0f, row 3: %.0f\n", a[1 * (ny + 2) + 0], a[1 * (ny + 2) + 2], a[1 * (ny + 2) + 5],
           a[3 * (ny + 2) + 2]);
    #pragma omp target update from(([nx][ny+2])a)
    printf("whole: row 3: %.0f %.0f\n", a[3 * (ny + 2) + 2], a[3 * (ny + 2) + 3]);
  }
  /* depend on shaped storage: the consumer waits for the producer of the same 2 x 3 block */
  int *p = calloc(6, sizeof(int)), total = 0;
  #pragma omp parallel num_threads(4)
  #pragma omp single
  {
    #pragma omp task depend(out: ([2][3])p) shared(p)
    for (int i = 0; i < 6; i++) p[i] = i + 1;
    #pragma omp target map(tofrom: p[0:6]) nowait depend(inout: ([2][3])p)
    for (int i = 0; i < 6; i++) p[i] *= 10;
    #pragma omp task depend(in: ([2][3])p) shared(p, total)
    for (int i = 0; i < 6; i++) total += p[i];
    #pragma omp taskwait
  }
  printf("depend: total %d\n", total);
  int ok = total == 210 && a[3 * (ny + 2) + 2] == -(300 + ny) - 301 && a[3 * (ny + 2) + 3] == 303;
  printf("%s\n", ok ? "PASS" : "FAIL");
  free(a);
  free(p);
  return 0;
}
