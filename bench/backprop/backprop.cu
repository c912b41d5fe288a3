/* backprop, hand-written CUDA: forward = a grid of blocks, each summing a slice of the
 * inputs for all 16 hidden units in shared memory, then a small kernel adding the block
 * partials and squashing; adjustment = one thread per weight.   ./backprop_cuda [inputs] */
#include "backprop.h"

#define FWD_BLOCKS 512

__global__ void forward_partial(const float *in, const float *w, int n, float *partial) {
  __shared__ float s[256];
  /* thread t handles hidden unit t % 16 on inputs (t / 16) + 16 k of this block's slice */
  const int j = threadIdx.x % BP_HID, lane = threadIdx.x / BP_HID;
  float acc = 0;
  for (long i = (long)blockIdx.x * 16 + lane; i < n; i += (long)gridDim.x * 16) acc += w[i * BP_HID + j] * in[i];
  s[threadIdx.x] = acc;
  __syncthreads();
  for (int st = 128; st >= BP_HID; st >>= 1) {
    if (threadIdx.x < st) s[threadIdx.x] += s[threadIdx.x + st];
    __syncthreads();
  }
  if (threadIdx.x < BP_HID) partial[blockIdx.x * BP_HID + threadIdx.x] = s[threadIdx.x];
}

__global__ void forward_finish(const float *partial, int blocks, float *hidden) {
  const int j = threadIdx.x;
  float s = 0;
  for (int b = 0; b < blocks; b++) s += partial[b * BP_HID + j];
  hidden[j] = 1.0f / (1.0f + expf(-s));
}

__global__ void adjust(const float *in, const float *delta, int n, float *w, float *dw) {
  long k = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= (long)n * BP_HID) return;
  float d = BP_ETA * delta[k % BP_HID] * in[k / BP_HID] + BP_MOMENTUM * dw[k];
  w[k] += d;
  dw[k] = d;
}

int main(int argc, char **argv) {
  const int n = bench_arg(argc, argv, 1, 1048576);
  const long nw = (long)n * BP_HID;
  float *in = (float *)bench_alloc(sizeof(float) * n);
  float *w0 = (float *)bench_alloc(sizeof(float) * nw), *dw0 = (float *)bench_alloc(sizeof(float) * nw);
  float *w = (float *)bench_alloc(sizeof(float) * nw), *dw = (float *)bench_alloc(sizeof(float) * nw);
  float hidden[BP_HID], delta[BP_HID];
  bp_make(in, w0, dw0, n);
  bench_warmup();
  cudaEvent_t e0, e1, e2, e3;
  CUDA_CHECK(cudaEventCreate(&e0));
  CUDA_CHECK(cudaEventCreate(&e1));
  CUDA_CHECK(cudaEventCreate(&e2));
  CUDA_CHECK(cudaEventCreate(&e3));
  for (int rep = 0, reps = bench_reps(); rep < reps; rep++) {
    double t0 = bench_clock();
    float *d_in, *d_w, *d_dw, *d_part, *d_hidden, *d_delta;
    CUDA_CHECK(cudaMalloc(&d_in, sizeof(float) * n));
    CUDA_CHECK(cudaMalloc(&d_w, sizeof(float) * nw));
    CUDA_CHECK(cudaMalloc(&d_dw, sizeof(float) * nw));
    CUDA_CHECK(cudaMalloc(&d_part, sizeof(float) * FWD_BLOCKS * BP_HID));
    CUDA_CHECK(cudaMalloc(&d_hidden, sizeof(float) * BP_HID));
    CUDA_CHECK(cudaMalloc(&d_delta, sizeof(float) * BP_HID));
    CUDA_CHECK(cudaMemcpy(d_in, in, sizeof(float) * n, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_w, w0, sizeof(float) * nw, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_dw, dw0, sizeof(float) * nw, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaEventRecord(e0));
    BENCH_LAUNCH(forward_partial, FWD_BLOCKS, 256, (const float *)d_in, (const float *)d_w, n, d_part);
    BENCH_LAUNCH(forward_finish, 1, BP_HID, (const float *)d_part, FWD_BLOCKS, d_hidden);
    CUDA_CHECK(cudaEventRecord(e1));
    float ms = bench_event_ms(e0, e1);
    CUDA_CHECK(cudaMemcpy(hidden, d_hidden, sizeof hidden, cudaMemcpyDeviceToHost));
    bp_deltas(hidden, delta);
    CUDA_CHECK(cudaMemcpy(d_delta, delta, sizeof delta, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaEventRecord(e2));
    BENCH_LAUNCH(adjust, (int)((nw + 255) / 256), 256, (const float *)d_in, (const float *)d_delta, n, d_w, d_dw);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventRecord(e3));
    ms += bench_event_ms(e2, e3);
    CUDA_CHECK(cudaMemcpy(w, d_w, sizeof(float) * nw, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(dw, d_dw, sizeof(float) * nw, cudaMemcpyDeviceToHost));
    cudaFree(d_in); cudaFree(d_w); cudaFree(d_dw); cudaFree(d_part); cudaFree(d_hidden); cudaFree(d_delta);
    bench_report("backprop", rep, ms * 1e-3, bench_clock() - t0);
  }
  return bench_finish(bp_check(in, w0, dw0, n, hidden, w, dw));
}
