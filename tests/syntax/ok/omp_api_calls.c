/* OpenMP runtime API calls on the host and on the device: thread/team queries, levels, device queries, wtime, locks, target memory routines */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int ndev = omp_get_num_devices(), dflt = omp_get_default_device(), host = omp_get_initial_device();
  omp_set_num_threads(4);
  int maxt = omp_get_max_threads(), nprocs = omp_get_num_procs();
  double t0 = omp_get_wtime(), tick = omp_get_wtick();
  int info[16] = {0};

#pragma omp target teams num_teams(2) map(tofrom: info)
  {
    if (omp_get_team_num() == 0) info[0] = omp_get_num_teams();
#pragma omp parallel num_threads(8)
    {
      if (omp_get_thread_num() == 0 && omp_get_team_num() == 0) {
        info[1] = omp_get_num_threads();
        info[2] = omp_get_level();
        info[3] = omp_get_active_level();
        info[4] = omp_in_parallel();
        info[5] = omp_is_initial_device();
        info[6] = omp_get_max_threads();
        info[7] = omp_get_thread_limit();
        info[8] = omp_get_ancestor_thread_num(1);
        info[9] = omp_get_team_size(1);
        info[10] = omp_get_device_num();
        info[11] = omp_get_num_procs();
        info[12] = (int)(omp_get_wtime() >= 0.0);
      }
    }
  }

  omp_lock_t lk;
  omp_nest_lock_t nl;
  omp_init_lock(&lk);
  omp_init_nest_lock(&nl);
  int counter = 0;
#pragma omp target map(tofrom: counter)
  {
    omp_lock_t dl;
    omp_init_lock(&dl);
#pragma omp parallel
    {
      omp_set_lock(&dl);
      counter++;
      omp_unset_lock(&dl);
      if (omp_test_lock(&dl)) omp_unset_lock(&dl);
    }
    omp_destroy_lock(&dl);
  }
  omp_set_lock(&lk);
  omp_unset_lock(&lk);
  omp_set_nest_lock(&nl);
  omp_set_nest_lock(&nl);
  omp_unset_nest_lock(&nl);
  omp_unset_nest_lock(&nl);
  omp_destroy_lock(&lk);
  omp_destroy_nest_lock(&nl);

  size_t bytes = 64 * sizeof(double);
  double *h = malloc(bytes);
  double *d = omp_target_alloc(bytes, dflt);
  for (int i = 0; i < 64; i++) h[i] = i;
  omp_target_memcpy(d, h, bytes, 0, 0, dflt, host);
  int present = omp_target_is_present(h, dflt);
#pragma omp target is_device_ptr(d)
  for (int i = 0; i < 64; i++) d[i] *= 2.0;
  omp_target_memcpy(h, d, bytes, 0, 0, host, dflt);
  omp_target_free(d, dflt);

  printf("%d %d %d %d %d %d %g %g %d %d %f\n", ndev, dflt, host, maxt, nprocs, counter, omp_get_wtime() - t0, tick,
         info[0], present, h[63]);
  free(h);
  return 0;
}
