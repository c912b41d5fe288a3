// ompgpu device runtime: the grid barrier of a host loop run as one persistent kernel
// (plan/persistent_loops.py).
//
// Only kernels launched cooperatively use it (cudaLaunchCooperativeKernel through
// OMPGPU_LAUNCH_COOPERATIVE, or cuLaunchCooperativeKernel for a device image): CUDA then
// guarantees that every block of the grid is resident at once, which a barrier across
// blocks needs (Sorensen et al., "Cooperative Kernels", FSE 2017). Every thread of every
// block calls it, the same number of times.
//
// The barrier is two words of global memory that the host zeroes before the launch:
// bar[0] counts the blocks arrived, bar[1] is the generation. Thread 0 of each block
// arrives for its block; the last to arrive resets the count and moves the generation on;
// the others wait for the generation to move.
//
// Memory order, as DeviceRTL states its synchronize::threads: the first block barrier
// orders the block's earlier writes before thread 0's arrival; the device-scope fence
// before the arrival (release) makes them visible to every block that sees the new
// generation; the fence after the wait (acquire) orders the block's later reads after
// every block's arrival; the last block barrier passes that on to the block's threads.
// The generation is read before arriving: it can only move once this block has arrived.
#ifndef OMPGPU_DEVICE_GRID_CUH
#define OMPGPU_DEVICE_GRID_CUH

#include "synchronization.cuh"

namespace ompgpu {

OMPGPU_DEV void grid_barrier(unsigned *bar) {
  block_barrier();
  if (threadIdx.x == 0) {
    volatile unsigned *generation = bar + 1;
    const unsigned seen = *generation;
    __threadfence();
    if (atomicAdd(bar, 1u) == gridDim.x - 1u) {
      atomicExch(bar, 0u);
      __threadfence();
      atomicAdd(bar + 1, 1u);
    } else {
      while (*generation == seen) spin_pause(32);
    }
    __threadfence();
  }
  block_barrier();
}

// Whether entry `i` of a persistent loop's items is present on the device (its address is
// the mapping's), where bit i of `present` is set; else it is the loop's own copy, which the
// loop copies in and out as the region's map clause says.
OMPGPU_DEV bool loop_item_present(const unsigned long long *present, unsigned i) {
  return (present[i >> 6] >> (i & 63u)) & 1ull;
}

// The thread that writes what the whole grid shares (the loop's copies of mapped scalars, the
// loop's scalars at its end): the first thread of the first block.
OMPGPU_DEV bool grid_leader() { return blockIdx.x == 0 && threadIdx.x == 0; }

}  // namespace ompgpu

#endif  // OMPGPU_DEVICE_GRID_CUH
