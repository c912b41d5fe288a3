/* heartwall, hand-written CUDA: one block per point, the search window, the template and
 * the scores in shared memory, __syncthreads between the steps, warp-shuffle reductions.
 * Same algorithm and check as heartwall.c (see heartwall.h).   ./heartwall_cuda [frames] */
#include "heartwall.h"

#define THREADS 256
#define WARPS (THREADS / 32)

__global__ void __launch_bounds__(THREADS) track(const int *img, int *row, int *col, int *tmpl, long long *ii,
                                                 long long *ii2, int *traj_row, int *traj_col, int f) {
  __shared__ int w[HW_WN];
  __shared__ int tp[HW_TN];
  __shared__ long long wsum[WARPS][2];
  __shared__ double wbest[WARPS];
  __shared__ int wbi[WARPS];
  __shared__ int new_pos[2];
  const int p = blockIdx.x, t = threadIdx.x, lane = t & 31, warp = t >> 5;
  const int wr = hw_window_origin(row[p], HW_ROWS), wc = hw_window_origin(col[p], HW_COLS);
  long long *s1 = ii + (long)p * HW_IN, *s2 = ii2 + (long)p * HW_IN;
  for (int i = t; i < HW_WN; i += THREADS) w[i] = img[(wr + i / HW_WS) * HW_COLS + wc + i % HW_WS];
  long long ty = 0, tyy = 0;
  for (int k = t; k < HW_TN; k += THREADS) {
    int v = tmpl[p * HW_TN + k];
    tp[k] = v;
    ty += v;
    tyy += (long long)v * v;
  }
  for (int o = 16; o; o >>= 1) {
    ty += __shfl_xor_sync(0xffffffffu, ty, o);
    tyy += __shfl_xor_sync(0xffffffffu, tyy, o);
  }
  if (lane == 0) {
    wsum[warp][0] = ty;
    wsum[warp][1] = tyy;
  }
  __syncthreads();
  ty = tyy = 0;
  for (int i = 0; i < WARPS; i++) {
    ty += wsum[i][0];
    tyy += wsum[i][1];
  }
  for (int r = t; r < HW_IS; r += THREADS) {
    long long a1 = 0, a2 = 0;
    s1[r * HW_IS] = s2[r * HW_IS] = 0;
    for (int c = 1; c < HW_IS; c++) {
      long long v = r ? w[(r - 1) * HW_WS + c - 1] : 0;
      a1 += v;
      a2 += v * v;
      s1[r * HW_IS + c] = a1;
      s2[r * HW_IS + c] = a2;
    }
  }
  __syncthreads();
  for (int c = 1 + t; c < HW_IS; c += THREADS) {
    long long a1 = 0, a2 = 0;
    for (int r = 1; r < HW_IS; r++) {
      a1 += s1[r * HW_IS + c];
      a2 += s2[r * HW_IS + c];
      s1[r * HW_IS + c] = a1;
      s2[r * HW_IS + c] = a2;
    }
  }
  __syncthreads();
  double best = -3.0;
  int bi = HW_CN;
  for (int q = t; q < HW_CN; q += THREADS) {
    int a = q / HW_CS, b = q % HW_CS;
    int sxy = 0;
    for (int i = 0; i < HW_TS; i++)
#pragma unroll 3
      for (int j = 0; j < HW_TS; j++) sxy += w[(a + i) * HW_WS + b + j] * tp[i * HW_TS + j];
    int a2 = a + HW_TS, b2 = b + HW_TS;
    long long sx = s1[a2 * HW_IS + b2] - s1[a * HW_IS + b2] - s1[a2 * HW_IS + b] + s1[a * HW_IS + b];
    long long sxx = s2[a2 * HW_IS + b2] - s2[a * HW_IS + b2] - s2[a2 * HW_IS + b] + s2[a * HW_IS + b];
    double s = hw_score(sxy, sx, sxx, ty, tyy);
    if (s > best) { /* q grows, so the first position wins ties */
      best = s;
      bi = q;
    }
  }
  for (int o = 16; o; o >>= 1) {
    double ob = __shfl_xor_sync(0xffffffffu, best, o);
    int oi = __shfl_xor_sync(0xffffffffu, bi, o);
    if (ob > best || (ob == best && oi < bi)) {
      best = ob;
      bi = oi;
    }
  }
  if (lane == 0) {
    wbest[warp] = best;
    wbi[warp] = bi;
  }
  __syncthreads();
  if (t == 0) {
    for (int i = 1; i < WARPS; i++)
      if (wbest[i] > best || (wbest[i] == best && wbi[i] < bi)) {
        best = wbest[i];
        bi = wbi[i];
      }
    int nr = wr + bi / HW_CS + HW_TH, nc = wc + bi % HW_CS + HW_TH;
    row[p] = nr;
    col[p] = nc;
    traj_row[f * HW_POINTS + p] = nr;
    traj_col[f * HW_POINTS + p] = nc;
    new_pos[0] = nr;
    new_pos[1] = nc;
  }
  __syncthreads();
  const int nr = new_pos[0], nc = new_pos[1];
  for (int k = t; k < HW_TN; k += THREADS)
    tmpl[p * HW_TN + k] = (7 * tp[k] + img[(nr - HW_TH + k / HW_TS) * HW_COLS + nc - HW_TH + k % HW_TS] + 4) / 8;
}

int main(int argc, char **argv) {
  int nframes = bench_arg(argc, argv, 1, HW_DEFAULT_FRAMES);
  if (nframes < 2) nframes = 2;
  const long fsize = (long)HW_ROWS * HW_COLS;
  int *frames = (int *)bench_alloc(sizeof(int) * fsize * nframes);
  hw_make_frames(frames, nframes);
  int *row = (int *)bench_alloc(sizeof(int) * HW_POINTS), *col = (int *)bench_alloc(sizeof(int) * HW_POINTS);
  int *tmpl = (int *)bench_alloc(sizeof(int) * HW_POINTS * HW_TN);
  int *traj_row = (int *)bench_alloc(sizeof(int) * HW_POINTS * nframes);
  int *traj_col = (int *)bench_alloc(sizeof(int) * HW_POINTS * nframes);
  bench_warmup();
  cudaEvent_t e0, e1;
  CUDA_CHECK(cudaEventCreate(&e0));
  CUDA_CHECK(cudaEventCreate(&e1));
  int reps = bench_reps();
  for (int rep = 0; rep < reps; rep++) {
    hw_initial_points(row, col);
    hw_initial_templates(frames, row, col, tmpl);
    double t0 = bench_clock();
    int *d_frames, *d_row, *d_col, *d_tmpl, *d_tr, *d_tc;
    long long *d_ii, *d_ii2;
    CUDA_CHECK(cudaMalloc(&d_frames, sizeof(int) * fsize * nframes));
    CUDA_CHECK(cudaMalloc(&d_row, sizeof(int) * HW_POINTS));
    CUDA_CHECK(cudaMalloc(&d_col, sizeof(int) * HW_POINTS));
    CUDA_CHECK(cudaMalloc(&d_tmpl, sizeof(int) * HW_POINTS * HW_TN));
    CUDA_CHECK(cudaMalloc(&d_tr, sizeof(int) * HW_POINTS * nframes));
    CUDA_CHECK(cudaMalloc(&d_tc, sizeof(int) * HW_POINTS * nframes));
    CUDA_CHECK(cudaMalloc(&d_ii, sizeof(long long) * HW_POINTS * HW_IN));
    CUDA_CHECK(cudaMalloc(&d_ii2, sizeof(long long) * HW_POINTS * HW_IN));
    CUDA_CHECK(cudaMemcpy(d_frames, frames, sizeof(int) * fsize * nframes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_row, row, sizeof(int) * HW_POINTS, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_col, col, sizeof(int) * HW_POINTS, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_tmpl, tmpl, sizeof(int) * HW_POINTS * HW_TN, cudaMemcpyHostToDevice));
    float kernel_ms = 0;
    for (int f = 1; f < nframes; f++) {
      CUDA_CHECK(cudaEventRecord(e0));
      BENCH_LAUNCH(track, HW_POINTS, THREADS, (const int *)(d_frames + f * fsize), d_row, d_col, d_tmpl, d_ii, d_ii2, d_tr, d_tc, f);
      CUDA_CHECK(cudaGetLastError());
      CUDA_CHECK(cudaEventRecord(e1));
      kernel_ms += bench_event_ms(e0, e1);
    }
    CUDA_CHECK(cudaMemcpy(traj_row, d_tr, sizeof(int) * HW_POINTS * nframes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(traj_col, d_tc, sizeof(int) * HW_POINTS * nframes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(tmpl, d_tmpl, sizeof(int) * HW_POINTS * HW_TN, cudaMemcpyDeviceToHost));
    cudaFree(d_frames); cudaFree(d_row); cudaFree(d_col); cudaFree(d_tmpl);
    cudaFree(d_tr); cudaFree(d_tc); cudaFree(d_ii); cudaFree(d_ii2);
    bench_report("heartwall", rep, kernel_ms * 1e-3, bench_clock() - t0);
  }
  return bench_finish(hw_check(frames, nframes, traj_row, traj_col, tmpl));
}
