// cuda_source.h - compiles a hand-written CUDA source (a .cu that spells CUDA's keywords
// `__global__`, `__shared__`, ... and calls `__activemask()`) with the device emulator:
//
//   g++ -std=c++17 -x c++ -DOMPGPU_EMU -include ompgpu/runtime/emu/cuda_source.h prog.cu
//
// For such sources only (the reference CUDA versions of the benchmarks, the emulator's own
// test programs): it defines CUDA's keywords as macros, which ompgpu's generated code and
// runtimes never need (they spell them OMPGPU_DEVICE, ...: runtime/device/keywords.cuh).
// The macros take reserved names, so the standard library headers such a source may use are
// included here first; `__noinline__` is left out (libstdc++ 13 writes
// `__attribute__((__noinline__))`): a source that needs it writes
// `__attribute__((noinline))`.
#ifndef OMPGPU_EMU_CUDA_SOURCE_H
#define OMPGPU_EMU_CUDA_SOURCE_H

#include "cuda_emu.h"
#include "../device/keywords.cuh"

#include <algorithm>
#include <cassert>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#define __global__ OMPGPU_GLOBAL
#define __device__ OMPGPU_DEVICE
#define __host__ OMPGPU_HOST
#define __constant__ OMPGPU_CONSTANT
#define __managed__ OMPGPU_MANAGED
#define __shared__ OMPGPU_SHARED
#define __forceinline__ OMPGPU_FORCEINLINE
#define __launch_bounds__(...) OMPGPU_LAUNCH_BOUNDS(__VA_ARGS__)
#define __align__(n) OMPGPU_ALIGN(n)
#define __activemask() OMPGPU_ACTIVEMASK()

#endif  // OMPGPU_EMU_CUDA_SOURCE_H
