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

#ifdef OMPGPU_EMU
namespace ompgpu {
namespace detail {
// Under the emulator each block's runtime state in shared memory starts as garbage, as shared
// memory does on a GPU (emu_blocks.h BlockStartHooks; one hook per translation unit): a lean
// kernel's counting barrier read a count in the team state that nothing had zeroed and hung on
// an H200, while the emulator's zeroed thread_local passed (session 16).
static void emu_garble_shared_state() {
  memset((void *)&team_state, 0xA5, sizeof team_state);
  memset((void *)&thread_state, 0xA5, sizeof thread_state);
  memset((void *)&soft_stack_shared, 0xA5, sizeof soft_stack_shared);
  memset((void *)&taker_slots, 0xA5, sizeof taker_slots);
  memset((void *)&allreduce_slots, 0xA5, sizeof allreduce_slots);
  memset((void *)&spread_teams, 0xA5, sizeof spread_teams);
  memset((void *)&combine_table, 0xA5, sizeof combine_table);
}
static const bool emu_shared_state_garbled = ompgpu_emu::register_block_start_hook(emu_garble_shared_state);
}  // namespace detail
}  // namespace ompgpu
#endif

#endif  // OMPGPU_DEVICE_CUH
