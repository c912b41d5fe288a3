#include <cstdio>
__global__ void k(int*p){ if(p) p[0]=1; }
int main(){ void* p=(void*)1; cudaError_t e=cudaMalloc(&p,0); printf("malloc0 %s %p\n", cudaGetErrorName(e), p);
 int x; e=cudaFree(&x); printf("free host %s\n", cudaGetErrorName(e)); cudaGetLastError();
 int *d; cudaMalloc(&d, 64); e=cudaFree(d); printf("free1 %s\n", cudaGetErrorName(e)); e=cudaFree(d); printf("free2 %s\n", cudaGetErrorName(e)); cudaGetLastError();
 int h[4]; cudaMalloc(&d, 64); e=cudaMemcpy(h, h, 4, cudaMemcpyHostToDevice); printf("h2d host dst %s\n", cudaGetErrorName(e)); cudaGetLastError();
 e=cudaMemcpy(h, d, 65, cudaMemcpyDeviceToHost); printf("d2h past end %s\n", cudaGetErrorName(e)); cudaGetLastError();
 e=cudaMemcpyToSymbol(x, h, 4); printf("stack symbol %s\n", cudaGetErrorName(e)); cudaGetLastError();
 k<<<1, 2048>>>(d); printf("2048: %s\n", cudaGetErrorName(cudaGetLastError()));
 k<<<dim3(1u<<31), 32>>>(d); printf("gx 2^31: %s\n", cudaGetErrorName(cudaGetLastError()));
 k<<<1, 32, 240*1024>>>(d); printf("240K: %s\n", cudaGetErrorName(cudaGetLastError()));
 cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 227*1024); k<<<1, 32, 227*1024>>>(d); printf("227K opt: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
 int v; cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, 0); printf("clock %d\n", v);
 cudaDeviceProp pr; cudaGetDeviceProperties(&pr,0); printf("smpb %zu optin %zu smpsm %zu reserved %zu maxblk %d l2 %d\n", pr.sharedMemPerBlock, pr.sharedMemPerBlockOptin, pr.sharedMemPerMultiprocessor, pr.reservedSharedMemPerBlock, pr.maxBlocksPerMultiProcessor, pr.l2CacheSize);
 int drv, rt; cudaDriverGetVersion(&drv); cudaRuntimeGetVersion(&rt); printf("drv %d rt %d\n", drv, rt);
 cudaStream_t s; cudaStreamCreate(&s); cudaStreamDestroy(s); e=cudaStreamDestroy(nullptr); printf("destroy null %s\n", cudaGetErrorName(e)); cudaGetLastError();
}
