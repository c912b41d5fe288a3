/* 1-D heat equation over MPI ranks: halo exchange, a step on the device through a function
   of a static library, calls to its declare target function inside this file's own kernel. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include "stencil.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int n = 1000, steps = 20;
  double *x = calloc(n + 2, sizeof *x), *tmp = calloc(n + 2, sizeof *tmp);
  if (rank == 0) x[n] = 1000.0;   /* a hot spot at rank 0's right end: heat crosses to rank 1 */
  int left = rank > 0 ? rank - 1 : MPI_PROC_NULL, right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
  double local = 0.0;
  for (int s = 0; s < steps; s++) {
    MPI_Sendrecv(&x[1], 1, MPI_DOUBLE, left, 0, &x[n + 1], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&x[n], 1, MPI_DOUBLE, right, 1, &x[0], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rank == 0) x[0] = x[1];            /* insulated ends */
    if (rank == size - 1) x[n + 1] = x[n];
    local = heat_step(x, tmp, n);
  }
  double peak = 0.0;
  #pragma omp target teams distribute parallel for map(to: x[0:n + 2]) reduction(max: peak)
  for (int i = 1; i <= n; i++) peak = fmax(peak, smooth(x[i - 1], x[i], x[i + 1]) * 0.0 + x[i]);
  double total, global_peak, beyond = rank > 0 ? local : 0.0, total_beyond;
  MPI_Reduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&beyond, &total_beyond, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&peak, &global_peak, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("ranks %d heat %.6f peak %.6f beyond rank 0 %.6f\n", size, total, global_peak, total_beyond);
  free(x);
  free(tmp);
  MPI_Finalize();
  return 0;
}
