// first_region.c in CUDA: the same host set-up, then cudaMalloc, copy in, kernel, copy out,
// with the CUDA runtime initialised by the first call (a CUDA program's usual start).
#include <cstdio>
#include <cstdlib>
#include <ctime>

static double now(void) {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

__global__ void twice_plus_one(float *a, long n) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) a[i] = a[i] * 2 + 1;
}

int main(int argc, char **argv) {
  const double t0 = now();
  const int host_ms = argc > 1 ? atoi(argv[1]) : 0;
  const long n = 4L << 20;
  float *a = (float *)malloc(sizeof(float) * n);
  long sweeps = 0;
  do {
    for (long i = 0; i < n; i++) a[i] = (float)((i + sweeps) & 1023);
    sweeps++;
  } while ((now() - t0) * 1e3 < host_ms);
  for (long i = 0; i < n; i++) a[i] = (float)(i & 1023);
  const double t1 = now();
  float *d = nullptr;
  if (cudaMalloc(&d, sizeof(float) * n) != cudaSuccess) return 3;
  cudaMemcpy(d, a, sizeof(float) * n, cudaMemcpyHostToDevice);
  twice_plus_one<<<(n + 255) / 256, 256>>>(d, n);
  if (cudaMemcpy(a, d, sizeof(float) * n, cudaMemcpyDeviceToHost) != cudaSuccess) return 3;
  const double t2 = now();
  long bad = 0;
  for (long i = 0; i < n; i++) bad += a[i] != (float)(i & 1023) * 2 + 1;
  printf("first_region host_ms %.1f region_ms %.3f main_to_end_ms %.3f\n", (t1 - t0) * 1e3, (t2 - t1) * 1e3,
         (t2 - t0) * 1e3);
  printf("%s\n", bad ? "FAIL" : "PASS");
  cudaFree(d);
  free(a);
  return bad != 0;
}
