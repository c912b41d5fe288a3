// ompgpu device runtime: the grid barrier of a host loop run as one persistent kernel
// (plan/persistent_loops.py).
//
// Only kernels launched cooperatively use it (cudaLaunchCooperativeKernel through
// OMPGPU_LAUNCH_COOPERATIVE, or cuLaunchCooperativeKernel for a device image): CUDA then
// guarantees that every block of the grid is resident at once, which a barrier across
// blocks needs (Sorensen et al., "Cooperative Kernels", FSE 2017). Every thread of every
// block calls it, the same number of times.
//
// The barrier is one word of global memory that the host zeroes before the launch, as CUDA's
// own grid sync keeps it: thread 0 of each block arrives for its block by adding 1, block 0's
// thread by adding 0x80000000 - (blocks - 1), so that the blocks' additions together flip the top
// bit and leave the count as it was; each waits until the top bit differs from what it saw when
// it arrived. One atomic a block and no reset: the last arrival releases every block at once.
//
// Memory order, as DeviceRTL states its synchronize::threads: the first block barrier
// orders the block's earlier writes before thread 0's arrival; the device-scope fence
// before the arrival (release) makes them visible to every block that sees the flip; the
// fence after the wait (acquire) orders the block's later reads after every block's arrival;
// the last block barrier passes that on to the block's threads.
#ifndef OMPGPU_DEVICE_GRID_CUH
#define OMPGPU_DEVICE_GRID_CUH

#include "synchronization.cuh"

// Nanoseconds a waiting block sleeps between looks at the barrier word; 0: none, as CUDA's own
// grid sync spins.
#ifndef OMPGPU_GRID_SPIN_NS
#define OMPGPU_GRID_SPIN_NS 0
#endif

namespace ompgpu {

OMPGPU_DEV void grid_barrier(unsigned *bar) {
  block_barrier();
  if (threadIdx.x == 0) {
    const unsigned add = blockIdx.x == 0 ? 0x80000000u - (gridDim.x - 1u) : 1u;
    __threadfence();
    const unsigned seen = atomicAdd(bar, add);
    while (((seen ^ *(volatile unsigned *)bar) & 0x80000000u) == 0u) {
#if defined(OMPGPU_EMU)
      spin_pause(32);   // the emulator's yield point: the other blocks' OS threads run
#elif OMPGPU_GRID_SPIN_NS > 0
      spin_pause(OMPGPU_GRID_SPIN_NS);
#endif
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

// The cell of a persistent loop's scalar item i for `parity`: two 16-byte cells at the item's
// address (runtime/host/persistent.cpp), one an iteration (plan/persistent_loops.py CarryStep).
OMPGPU_DEV void *loop_cell(void *const *items, unsigned i, unsigned parity) {
  return static_cast<char *>(items[i]) + 16u * (parity & 1u);
}

// The thread that writes what the whole grid shares (the loop's copies of mapped scalars, the
// loop's scalars at its end): the first thread of the first block.
OMPGPU_DEV bool grid_leader() { return blockIdx.x == 0 && threadIdx.x == 0; }

}  // namespace ompgpu

#endif  // OMPGPU_DEVICE_GRID_CUH
