/* Atomic additions summed per block before they reach memory (issue 34; plan/combine.py,
 * runtime/device/combine.cuh): arrays and pointers a kernel uses only as targets of relaxed
 * `atomic` updates (+=, -=, ++, --) of int, unsigned, long long, float and double; histograms of
 * few and of many bins (more than a block's table holds), packed warp teams with warps past the
 * league, and kernels the runtime must not combine: a pointer into the same array as another
 * argument that the kernel reads (the update must be seen through it), and device memory the
 * runtime cannot place. Sums are of small integers (exact in float too). */
#include <omp.h>
#include <stdio.h>
#include <string.h>

#define N 20000
#define FEW 7
#define MANY 1000

static int key[N];
static int hist_i[MANY];
static unsigned hist_u[FEW];
static long long hist_l[FEW];
static float hist_f[FEW];
static double hist_d[MANY];
static int buf[64];

int main(void) {
  for (int i = 0; i < N; i++) key[i] = (int)((i * 2654435761u) >> 7) % MANY;

  /* a combined loop over the grid: few bins, every type and form */
#pragma omp target teams distribute parallel for map(to: key) map(tofrom: hist_i, hist_u, hist_l, hist_f, hist_d)
  for (int i = 0; i < N; i++) {
    const int b = key[i] % FEW;
#pragma omp atomic
    hist_i[b] += 2;
#pragma omp atomic
    hist_u[b]++;
#pragma omp atomic
    hist_l[b] -= 3;
#pragma omp atomic update
    hist_f[b] += (float)(key[i] % 4);
#pragma omp atomic
    hist_d[b]--;
  }
  long long si = 0, sl = 0;
  unsigned long long su = 0;
  double sf = 0, sd = 0;
  for (int b = 0; b < FEW; b++) { si += hist_i[b]; su += hist_u[b]; sl += hist_l[b]; sf += hist_f[b]; sd += hist_d[b]; }
  int bins_ok = 1;
  for (int b = 0; b < FEW; b++) {
    int count = 0, weight = 0;
    for (int i = 0; i < N; i++)
      if (key[i] % FEW == b) { count++; weight += key[i] % 4; }
    bins_ok &= hist_i[b] == 2 * count && hist_u[b] == (unsigned)count && hist_l[b] == -3LL * count &&
               hist_f[b] == (float)weight && hist_d[b] == -(double)count;
  }
  printf("few bins: %lld %llu %lld %.0f %.0f, each bin %s\n", si, su, sl, sf, sd, bins_ok ? "right" : "WRONG");

  /* many bins: most updates find no cell and go to memory */
  memset(hist_i, 0, sizeof hist_i);
  memset(hist_d, 0, sizeof hist_d);
#pragma omp target teams distribute parallel for map(to: key) map(tofrom: hist_i, hist_d)
  for (int i = 0; i < N; i++) {
#pragma omp atomic
    hist_i[key[i]] += 1;
#pragma omp atomic
    hist_d[key[i]] += 0.5;
  }
  int many_ok = 1;
  for (int b = 0; b < MANY; b++) {
    int count = 0;
    for (int i = 0; i < N; i++) count += key[i] == b;
    many_ok &= hist_i[b] == count && hist_d[b] == 0.5 * count;
  }
  printf("many bins: %s\n", many_ok ? "right" : "WRONG");

  /* packed warp teams (loops of 32 iterations), 7 teams: the second block's last warp is past
     the league */
  memset(hist_i, 0, sizeof hist_i);
#pragma omp target teams distribute num_teams(7) thread_limit(32) map(to: key) map(tofrom: hist_i)
  for (int t = 0; t < 70; t++) {
#pragma omp parallel for
    for (int j = 0; j < 32; j++) {
#pragma omp atomic
      hist_i[key[t * 32 + j] % FEW] += 1;
    }
  }
  int packed_total = 0, packed_ok = 1;
  for (int b = 0; b < FEW; b++) {
    int count = 0;
    for (int i = 0; i < 70 * 32; i++) count += key[i] % FEW == b;
    packed_ok &= hist_i[b] == count;
    packed_total += hist_i[b];
  }
  printf("packed teams: %d updates, each bin %s\n", packed_total, packed_ok ? "right" : "WRONG");

  /* another pointer into the same array, read after the update: the runtime must not combine */
  int *counts = buf, *view = buf;
  int seen = -1;
#pragma omp target map(tofrom: buf, seen)
  {
#pragma omp atomic
    counts[5] += 7;
    seen = view[5];
  }
  printf("an update seen through another pointer: %d (buf[5] %d)\n", seen, buf[5]);

  /* device memory read beside the updates: the runtime cannot tell where it points, and so does
     not combine */
  int *dev = (int *)omp_target_alloc(N * sizeof(int), omp_get_default_device());
  memset(hist_i, 0, sizeof hist_i);
  if (dev) {
#pragma omp target teams distribute parallel for is_device_ptr(dev) map(to: key)
    for (int i = 0; i < N; i++) dev[i] = key[i] % FEW;
#pragma omp target teams distribute parallel for is_device_ptr(dev) map(tofrom: hist_i)
    for (int i = 0; i < N; i++) {
#pragma omp atomic
      hist_i[dev[i]] += 1;
    }
    omp_target_free(dev, omp_get_default_device());
  } else {
    for (int i = 0; i < N; i++) hist_i[key[i] % FEW]++;
  }
  int dev_total = 0;
  for (int b = 0; b < FEW; b++) dev_total += hist_i[b];
  printf("beside device memory: %d updates\n", dev_total);
  return 0;
}
