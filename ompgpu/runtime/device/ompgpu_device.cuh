// ompgpu device runtime: the umbrella header that generated device code includes.
//
// Header-only, split by concern (like LLVM's DeviceRTL):
//   keywords.cuh         CUDA's keywords as ompgpu spells them (OMPGPU_DEVICE, ...)
//   config.cuh           sizes (-D overridable), attributes, fatal-error reporting
//   synchronization.cuh  every inline PTX: named barriers (enum BarrierId), exit, timer
//   mapping.cuh          thread/warp/team ids, generic master/worker roles
//   state.cuh            team state and per-thread state in shared memory, soft stack
//   parallelism.cuh      kernel init/end, fork/join, worker loop, SPMD, serialized, barrier
//   workshare.cuh        static / dynamic / guided loops, distribute
//   sync.cuh             atomics, critical, single, flush
//   reduction.cuh        warp-shuffle reductions with one atomic per warp
//   spread.cuh           a teams distribute's inner loops spread over the grid
//   combine.cuh          atomic additions summed per block before they go to memory
//   grid.cuh             the grid barrier of a host loop run as one persistent kernel
//   api.cuh              omp_* routines, omp_lock_t / omp_nest_lock_t
//   launch.cuh           OMPGPU_LAUNCH_KERNEL / OMPGPU_DYNAMIC_SHARED for CUDA
//   indirect.cuh         calls through function pointers (declare target indirect); included
//                        by the generated code of the files that need it, not from here
// Compile as CUDA C++17 (nvcc -std=c++17 -arch=sm_70 or newer), or under the emulator with
//   g++ -std=c++17 -x c++ -DOMPGPU_EMU -include ompgpu/runtime/emu/cuda_emu.h
#ifndef OMPGPU_DEVICE_CUH
#define OMPGPU_DEVICE_CUH

#include "config.cuh"
#include "synchronization.cuh"
#include "mapping.cuh"
#include "state.cuh"
#include "parallelism.cuh"
#include "workshare.cuh"
#include "sync.cuh"
#include "reduction.cuh"
#include "spread.cuh"
#include "combine.cuh"
#include "grid.cuh"
#include "api.cuh"
#include "launch.cuh"

#endif  // OMPGPU_DEVICE_CUH
