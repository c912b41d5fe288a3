// Host API round trips: cudaMalloc/cudaMemcpy/cudaMemset, symbols (__device__ and
// __constant__, with offsets), device queries, streams, events, error strings.
#include "compat.cuh"

__device__ int dev_table[16];
__constant__ double coeffs[4];
__device__ unsigned long long dev_scalar;

__global__ void use_symbols(int *out, int *via_addr) {
  int t = threadIdx.x;
  out[t] = dev_table[t] * 2 + (int)coeffs[t % 4];
  via_addr[t] += 1;
  if (t == 0) dev_scalar = 0x1122334455667788ull;
}

int main() {
  // plain copies
  const int n = 1000;
  int host[n], back[n];
  for (int i = 0; i < n; i++) host[i] = i * 7 - 3;
  int *a, *b;
  CHECK(cudaMalloc((void **)&a, n * sizeof(int)));
  CHECK(cudaMalloc(&b, n * sizeof(int)));
  CHECK(cudaMemcpy(a, host, n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(b, a, n * sizeof(int), cudaMemcpyDeviceToDevice));
  CHECK(cudaMemcpy(back, b, n * sizeof(int), cudaMemcpyDeviceToHost));
  printf("memcpy %s\n", memcmp(host, back, sizeof host) ? "FAIL" : "ok");
  CHECK(cudaMemset(b + 10, 0, 20 * sizeof(int)));
  CHECK(cudaMemcpy(back, b, n * sizeof(int), cudaMemcpyDeviceToHost));
  int ok = 1;
  for (int i = 0; i < n; i++)
    if (back[i] != (i >= 10 && i < 30 ? 0 : host[i])) ok = 0;
  printf("memset %s\n", ok ? "ok" : "FAIL");
  CHECK(cudaMemcpy(back, a + 500, 4 * sizeof(int), cudaMemcpyDefault));
  printf("default-direction offset copy %s\n", back[0] == host[500] && back[3] == host[503] ? "ok" : "FAIL");

  // symbols
  int table[16];
  for (int i = 0; i < 16; i++) table[i] = 100 + i;
  double c[4] = {0.0, 1.0, 2.0, 3.0};
  CHECK(cudaMemcpyToSymbol(dev_table, table, sizeof table));
  CHECK(cudaMemcpyToSymbol(dev_table, table, 4 * sizeof(int), 12 * sizeof(int)));  // [12..15] = 100..103
  CHECK(cudaMemcpyToSymbol(coeffs, c, sizeof c));
  void *addr = nullptr;
  CHECK(cudaGetSymbolAddress(&addr, dev_table));
  size_t sz = 0;
  CHECK(cudaGetSymbolSize(&sz, coeffs));
  int *out;
  CHECK(cudaMalloc(&out, 16 * sizeof(int)));
  OMPGPU_LAUNCH_KERNEL(use_symbols, 1, 16, 0, 0, out, (int *)addr);
  CHECK(cudaGetLastError());
  int hout[16], htab[16];
  unsigned long long hs = 0;
  CHECK(cudaMemcpy(hout, out, sizeof hout, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpyFromSymbol(htab, dev_table, sizeof htab));
  CHECK(cudaMemcpyFromSymbol(&hs, dev_scalar, sizeof hs));
  int hpart[2];
  CHECK(cudaMemcpyFromSymbol(hpart, dev_table, 2 * sizeof(int), 14 * sizeof(int)));
  ok = sz == sizeof c && hs == 0x1122334455667788ull && hpart[0] == 103 && hpart[1] == 104;
  for (int i = 0; i < 16; i++) {
    int tv = i < 12 ? 100 + i : 100 + i - 12;
    if (hout[i] != tv * 2 + i % 4 || htab[i] != tv + 1) ok = 0;
  }
  printf("symbols %s\n", ok ? "ok" : "FAIL");
  cudaError_t e = cudaMemcpyToSymbol(dev_table, table, sizeof table, 4);
  printf("symbol copy past the end: %s\n", cudaGetErrorName(e));
  cudaGetLastError();

  // sizes 0 and null
  void *z = (void *)1;
  CHECK(cudaMalloc(&z, 0));
  CHECK(cudaFree(nullptr));
  CHECK(cudaMemcpy(back, a, 0, cudaMemcpyDeviceToHost));
  printf("zero-size malloc gives %s\n", z ? "non-null" : "null");

  // device queries
  int count = 0, dev = -1, v = 0;
  CHECK(cudaGetDeviceCount(&count));
  CHECK(cudaSetDevice(0));
  CHECK(cudaGetDevice(&dev));
  cudaDeviceProp p;
  CHECK(cudaGetDeviceProperties(&p, 0));
  CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0));
  int mt = 0, clk = 0, optin = 0;
  CHECK(cudaDeviceGetAttribute(&mt, cudaDevAttrMaxThreadsPerBlock, 0));
  CHECK(cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0));
  CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
  ok = count >= 1 && dev == 0 && v == p.multiProcessorCount && v > 0 && mt == 1024 && p.warpSize == 32 &&
       p.maxThreadsPerBlock == 1024 && clk > 0 && optin == (int)p.sharedMemPerBlockOptin && optin >= 227 * 1024 &&
       p.sharedMemPerBlock == 48 * 1024 && p.major >= 9 && p.totalGlobalMem > 0 && p.regsPerBlock > 0 &&
       p.maxThreadsPerMultiProcessor == 2048;
  printf("device queries %s\n", ok ? "ok" : "FAIL");
  e = cudaSetDevice(99);
  printf("cudaSetDevice(99): %s\n", cudaGetErrorName(e));
  cudaGetLastError();
  int drv = 0, rt = 0;
  CHECK(cudaDriverGetVersion(&drv));
  CHECK(cudaRuntimeGetVersion(&rt));
  printf("versions %s\n", drv >= 12000 && rt >= 12000 ? "ok" : "FAIL");

  // streams and events
  cudaStream_t s1, s2;
  CHECK(cudaStreamCreate(&s1));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  CHECK(cudaEventRecord(e0, s1));
  CHECK(cudaMemcpyAsync(b, host, n * sizeof(int), cudaMemcpyHostToDevice, s1));
  CHECK(cudaMemsetAsync(b, 0, sizeof(int), s2));
  OMPGPU_LAUNCH_KERNEL(use_symbols, 1, 16, 0, s2, out, (int *)addr);
  CHECK(cudaGetLastError());
  CHECK(cudaEventRecord(e1, s1));
  CHECK(cudaStreamSynchronize(s1));
  CHECK(cudaStreamSynchronize(s2));
  CHECK(cudaEventSynchronize(e1));
  float ms = -1;
  CHECK(cudaEventElapsedTime(&ms, e0, e1));
  CHECK(cudaMemcpy(back, b, 2 * sizeof(int), cudaMemcpyDeviceToHost));
  printf("streams and events %s\n", ms >= 0 && back[0] == 0 && back[1] == host[1] ? "ok" : "FAIL");
  CHECK(cudaEventDestroy(e0));
  CHECK(cudaEventDestroy(e1));
  CHECK(cudaStreamDestroy(s1));
  CHECK(cudaStreamDestroy(s2));

  // error names and strings
  printf("%s / %s\n", cudaGetErrorName(cudaErrorMemoryAllocation), cudaGetErrorString(cudaErrorMemoryAllocation));
  printf("%s / %s\n", cudaGetErrorName(cudaErrorInvalidValue), cudaGetErrorString(cudaErrorInvalidValue));
  printf("%s / %s\n", cudaGetErrorName(cudaErrorNoDevice), cudaGetErrorString(cudaErrorNoDevice));
  printf("%s / %s\n", cudaGetErrorName(cudaSuccess), cudaGetErrorString(cudaSuccess));

  void *big = nullptr;
  e = cudaMalloc(&big, (size_t)1 << 50);
  printf("huge cudaMalloc: %s\n", cudaGetErrorName(e));
  printf("last error after it: %s\n", cudaGetErrorName(cudaGetLastError()));

  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(out));
  // Caller bugs that CUDA reports (the emulator checks the same; seen on an H100, CUDA 13).
  int local_var = 0;
  printf("H2D into host memory: %s\n", cudaGetErrorName(cudaMemcpy(back, host, 4, cudaMemcpyHostToDevice)));
  int *c2;
  CHECK(cudaMalloc(&c2, 64));
  printf("copy past an allocation: %s\n", cudaGetErrorName(cudaMemcpy(back, c2, 65, cudaMemcpyDeviceToHost)));
  cudaError_t f1 = cudaFree(c2);
  cudaError_t f2 = cudaFree(c2);
  printf("freed twice: %s %s\n", cudaGetErrorName(f1), cudaGetErrorName(f2));
  printf("stack variable as symbol: %s\n", cudaGetErrorName(cudaMemcpyToSymbol(local_var, host, sizeof(int))));
  cudaGetLastError();
#ifdef OMPGPU_EMU
  printf("emu: name \"%s\"\n", p.name);
#endif
  return 0;
}
