/* 2-D Jacobi solver for Laplace's equation, MPI + OpenMP offload: one rank per GPU.
 *
 * The grid's interior rows are split in blocks of rows, one block per rank, each with a halo
 * row above and below. The top boundary is held at 1, the other three at 0. Every iteration
 * each rank exchanges its first and last rows with its neighbours (MPI_Sendrecv), updates its
 * block on the device, and all ranks agree on the residual (MPI_Allreduce). The grid stays
 * on the device for the whole time loop (target data); only halo rows cross to the host
 * (target update), or, with a CUDA-aware MPI, not even those: the device addresses go to MPI
 * (use_device_addr).
 *
 *   OMPI_CC=ompgpu mpicc -O2 jacobi.c -o jacobi -lm
 *   mpirun -np 2 ./jacobi [cols] [rows_per_rank] [iterations] [check]
 *
 * Weak scaling: each rank owns rows_per_rank rows whatever the number of ranks. check=1
 * (default) has rank 0 gather the grid and compare it with a serial solution on the host;
 * the program then prints PASS or FAIL. JACOBI_DEVICE_MPI=1 (or 0) overrides the answer of
 * MPIX_Query_cuda_support(): set it to 1 only for a CUDA-aware MPI, or under ompgpu's
 * emulator (--offload=emu), whose device memory is host memory.
 */
#include <math.h>
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>
#endif

#define TOP_VALUE 1.0

static int device_addresses_to_mpi(void) {
  const char *forced = getenv("JACOBI_DEVICE_MPI");
  if (forced && *forced) return atoi(forced) != 0;
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support();
#else
  return 0;
#endif
}

/* Rows 0 and rows+1 of u are halos; columns 0 and cols-1 are boundary. Sets the boundary
   values this block owns and zeroes the rest. */
static void init_block(double *u, int rows, int cols, int first_block, int last_block) {
  for (long k = 0; k < (long)(rows + 2) * cols; k++) u[k] = 0.0;
  if (first_block)
    for (int j = 0; j < cols; j++) u[j] = TOP_VALUE;
  (void)last_block;   /* bottom boundary is 0, like the zeroed halo */
}

/* One Jacobi sweep of a block on the host; returns the sum of squared changes. */
static double sweep_host(const double *u, double *unew, int rows, int cols) {
  double change = 0.0;
  for (int i = 1; i <= rows; i++)
    for (int j = 1; j < cols - 1; j++) {
      double v = 0.25 * (u[(i - 1) * cols + j] + u[(i + 1) * cols + j] + u[i * cols + j - 1] + u[i * cols + j + 1]);
      double d = v - u[i * cols + j];
      change += d * d;
      unew[i * cols + j] = v;
    }
  return change;
}

static void exchange_halos(double *u, int rows, int cols, int up, int down, MPI_Comm comm) {
  /* first owned row up, bottom halo from below; last owned row down, top halo from above */
  MPI_Sendrecv(u + cols, cols, MPI_DOUBLE, up, 0, u + (long)(rows + 1) * cols, cols, MPI_DOUBLE, down, 0, comm,
               MPI_STATUS_IGNORE);
  MPI_Sendrecv(u + (long)rows * cols, cols, MPI_DOUBLE, down, 1, u, cols, MPI_DOUBLE, up, 1, comm, MPI_STATUS_IGNORE);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int cols = argc > 1 ? atoi(argv[1]) : 256;
  int rows = argc > 2 ? atoi(argv[2]) : 64;
  int iterations = argc > 3 ? atoi(argv[3]) : 100;
  int check = argc > 4 ? atoi(argv[4]) : 1;
  if (cols < 3 || rows < 1 || iterations < 1) {
    if (rank == 0) fprintf(stderr, "usage: jacobi [cols>=3] [rows_per_rank>=1] [iterations>=1] [check 0|1]\n");
    MPI_Finalize();
    return 2;
  }
  int up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  int down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
  long n = (long)(rows + 2) * cols;
  double *u = malloc(n * sizeof *u), *unew = malloc(n * sizeof *unew);
  init_block(u, rows, cols, rank == 0, rank == size - 1);
  memcpy(unew, u, n * sizeof *u);
  int device_mpi = device_addresses_to_mpi();

  double residual = 0.0, t_compute = 0.0, t_comm = 0.0;
  MPI_Barrier(MPI_COMM_WORLD);
  double t_start = MPI_Wtime();
  #pragma omp target data map(tofrom: u[0:n]) map(to: unew[0:n])
  {
    for (int it = 0; it < iterations; it++) {
      double t0 = MPI_Wtime();
      if (device_mpi) {
        #pragma omp target data use_device_addr(u[0:n])
        exchange_halos(u, rows, cols, up, down, MPI_COMM_WORLD);
      } else {
        /* one section per directive: clang 19 rejects two sections of one array in a clause */
        #pragma omp target update from(u[cols:cols])
        #pragma omp target update from(u[(long)rows * cols:cols])
        exchange_halos(u, rows, cols, up, down, MPI_COMM_WORLD);
        #pragma omp target update to(u[0:cols])
        #pragma omp target update to(u[(long)(rows + 1) * cols:cols])
      }
      double t1 = MPI_Wtime();
      double change = 0.0;
      #pragma omp target teams distribute parallel for collapse(2) reduction(+: change)
      for (int i = 1; i <= rows; i++)
        for (int j = 1; j < cols - 1; j++) {
          double v = 0.25 * (u[(i - 1) * cols + j] + u[(i + 1) * cols + j] + u[i * cols + j - 1] + u[i * cols + j + 1]);
          double d = v - u[i * cols + j];
          change += d * d;
          unew[i * cols + j] = v;
        }
      #pragma omp target teams distribute parallel for collapse(2)
      for (int i = 1; i <= rows; i++)
        for (int j = 1; j < cols - 1; j++) u[i * cols + j] = unew[i * cols + j];
      double t2 = MPI_Wtime();
      MPI_Allreduce(&change, &residual, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      double t3 = MPI_Wtime();
      t_compute += t2 - t1;
      t_comm += (t1 - t0) + (t3 - t2);
    }
  }
  double t_total = MPI_Wtime() - t_start;
  residual = sqrt(residual);

  double times[3] = {t_total, t_compute, t_comm}, max_times[3];
  MPI_Reduce(times, max_times, 3, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("jacobi: %d ranks, %d x %d grid (%d rows per rank), %d iterations, halos %s\n", size, rows * size, cols, rows,
           iterations, device_mpi ? "device to device (CUDA-aware MPI)" : "through the host (target update)");
    printf("device of rank 0: %d of %d\n", omp_get_default_device(), omp_get_num_devices());
    printf("residual %.10e\n", residual);
    printf("time total %.6f s  compute %.6f s  communication %.6f s  (slowest rank of each)\n", max_times[0],
           max_times[1], max_times[2]);
  }

  int status = 0;
  if (check) {
    /* Gather the owned rows on rank 0 and compare with a serial run over the whole grid. */
    double *all = rank == 0 ? malloc((long)rows * size * cols * sizeof *all) : NULL;
    MPI_Gather(u + cols, rows * cols, MPI_DOUBLE, all, rows * cols, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0) {
      int grows = rows * size;
      long gn = (long)(grows + 2) * cols;
      double *s = malloc(gn * sizeof *s), *snew = malloc(gn * sizeof *snew);
      init_block(s, grows, cols, 1, 1);
      memcpy(snew, s, gn * sizeof *s);
      double serial_residual = 0.0;
      for (int it = 0; it < iterations; it++) {
        serial_residual = sweep_host(s, snew, grows, cols);
        for (int i = 1; i <= grows; i++)
          for (int j = 1; j < cols - 1; j++) s[i * cols + j] = snew[i * cols + j];
      }
      serial_residual = sqrt(serial_residual);
      double max_diff = 0.0;
      for (long k = 0; k < (long)grows * cols; k++) max_diff = fmax(max_diff, fabs(all[k] - s[cols + k]));
      double rel = fabs(residual - serial_residual) / fmax(serial_residual, 1e-300);
      int ok = max_diff <= 1e-12 && rel <= 1e-9;
      printf("serial check: max |difference| %.3e, residual %.10e (relative difference %.1e)\n%s\n", max_diff,
             serial_residual, rel, ok ? "PASS" : "FAIL");
      status = !ok;
      free(s);
      free(snew);
      free(all);
    }
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  }
  free(u);
  free(unew);
  MPI_Finalize();
  return status;
}
