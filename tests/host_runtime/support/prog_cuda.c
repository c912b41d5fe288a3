/* The host runtime built against the real CUDA runtime (cudart_static). On a machine
 * without a GPU: `prog_cuda probe` shows the host fallback (OMP_TARGET_OFFLOAD=DEFAULT)
 * or the MANDATORY error. The launch function is a stand-in (no device code here): on a
 * machine with a GPU it is called and does nothing. */
#include "ompgpu_host.h"

#include <stdio.h>
#include <string.h>

static int launched;
static int fake_launch(const ompgpu_launch_config *cfg, void **args) {
  (void)cfg;
  (void)args;
  launched = 1;
  return 0;
}

int main(int argc, char **argv) {
  double a[16] = {0};
  int n = 16;
  ompgpu_srcloc loc = {"prog.c", 7, 3, "target data"};
  ompgpu_map_entry m[2];
  ompgpu_kernel_desc k;
  int r;
  (void)argc;
  (void)argv;
  m[0].base = &n; m[0].begin = &n; m[0].size = 0; m[0].flags = OMPGPU_MAP_LITERAL | OMPGPU_MAP_ARG; m[0].name = "n";
  m[1].base = a; m[1].begin = a; m[1].size = sizeof a;
  m[1].flags = OMPGPU_MAP_TO | OMPGPU_MAP_FROM | OMPGPU_MAP_ARG; m[1].name = "a[0:16]";
  memset(&k, 0, sizeof k);
  k.name = "__omp_offloading_main_l12"; k.file = "prog.c"; k.line = 12; k.col = 9;
  k.mode = OMPGPU_MODE_SPMD; k.launch = fake_launch; k.max_threads = 1024;
  ompgpu_target_data_begin(&loc, OMPGPU_DEVICE_DEFAULT, 1, 1, &m[1]);
  r = ompgpu_target(&k, OMPGPU_DEVICE_DEFAULT, 1, 0, 0, 2, m);
  ompgpu_target_data_end(&loc, OMPGPU_DEVICE_DEFAULT, 1, 1, &m[1]);
  printf("target returned %d, launched %d, devices %d, initial device %d\n", r, launched,
         ompgpu_omp_get_num_devices(), ompgpu_omp_get_initial_device());
  return 0;
}
