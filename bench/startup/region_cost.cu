// What CUDA pays for one launch and a wait (region_cost.c's floor): mean microseconds over many
// of an empty kernel of 1 block, of 1320 blocks of 128 threads, each launch followed by
// cudaStreamSynchronize; and of 1320 blocks launched back to back with one wait at the end.
//   region_cost.cuda [launches]   (as startup.py builds it)
#include <cstdio>
#include <cstdlib>
#include <ctime>

__global__ void empty_kernel(int *flag) {
  if (flag && threadIdx.x == 0 && blockIdx.x == 0) *flag = 0;
}

static double now_us() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return 1e6 * (double)ts.tv_sec + 1e-3 * (double)ts.tv_nsec;
}

int main(int argc, char **argv) {
  const int launches = argc > 1 ? atoi(argv[1]) : 2000;
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  empty_kernel<<<1, 32, 0, s>>>(nullptr);
  cudaStreamSynchronize(s);
  const int grids[2] = {1, 1320};
  for (int g : grids) {
    double t = now_us();
    for (int r = 0; r < launches; r++) {
      empty_kernel<<<g, 128, 0, s>>>(nullptr);
      cudaStreamSynchronize(s);
    }
    printf("region_cost case launch_wait_%d us %.2f\n", g, (now_us() - t) / launches);
  }
  double t = now_us();
  for (int r = 0; r < launches; r++) empty_kernel<<<1320, 128, 0, s>>>(nullptr);
  cudaStreamSynchronize(s);
  printf("region_cost case back_to_back_1320 us %.2f\n", (now_us() - t) / launches);
  const cudaError_t err = cudaGetLastError();
  printf("%s\n", err == cudaSuccess ? "PASS" : cudaGetErrorString(err));
  return err != cudaSuccess;
}
