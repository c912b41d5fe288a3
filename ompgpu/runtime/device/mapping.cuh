// ompgpu device runtime: mapping of hardware ids to OpenMP roles.
//
// Kernels are one-dimensional (blockDim.y == blockDim.z == 1).
// Generic (warp-specialized) mode: a team is launched with W*32 + 32 threads; warps
// 0..W-1 are the workers, the last warp is the master warp and its lane 0 (thread
// blockDim.x - 32) is the team's master; the other 31 lanes of the master warp leave at
// kernel start. SPMD mode: plain ids, every thread of the block is a team member.
#ifndef OMPGPU_DEVICE_MAPPING_CUH
#define OMPGPU_DEVICE_MAPPING_CUH

#include "synchronization.cuh"

namespace ompgpu {

OMPGPU_DEV unsigned lane_id() { return threadIdx.x & 31u; }
OMPGPU_DEV unsigned warp_id() { return threadIdx.x >> 5; }
OMPGPU_DEV unsigned block_size() { return blockDim.x; }
OMPGPU_DEV unsigned team_id() { return blockIdx.x; }
OMPGPU_DEV unsigned num_team_ids() { return gridDim.x; }

// Generic mode.
OMPGPU_DEV unsigned generic_master_tid() { return blockDim.x - 32u; }
OMPGPU_DEV unsigned generic_num_workers() { return blockDim.x - 32u; }
OMPGPU_DEV bool is_generic_master_thread() { return threadIdx.x == blockDim.x - 32u; }

// Count for a barrier among the first `threads` threads of the block: whole warps.
OMPGPU_DEV unsigned warp_round_up(unsigned threads) { return (threads + 31u) & ~31u; }

// Lanes of warp `w` that belong to a team made of threads 0..team_size-1 (contiguous from
// lane 0).
OMPGPU_DEV unsigned team_lanes_in_warp(unsigned w, unsigned team_size) {
  unsigned first = w * 32u;
  if (team_size >= first + 32u) return 32u;
  return team_size > first ? team_size - first : 0u;
}
OMPGPU_DEV unsigned low_lanes_mask(unsigned k) { return k >= 32u ? 0xffffffffu : ((1u << k) - 1u); }

// Packed teams (lean SPMD kernels whose teams are `lanes` threads, 32, 16 or 8, several per
// block: team blockIdx.x * P + threadIdx.x / lanes, each an aligned group of lanes of a warp).
// The launch asks for `league` teams and rounds the grid up to whole blocks: the teams past the
// league leave at kernel start. The thread is its place in the group; the team's barrier and
// reductions take the group's lanes only (a whole warp for teams of 32, none of which has
// exited); its place in the block indexes its copy of per-team shared storage
// (OMPGPU_TEAM_SHARED arrays of the teams-per-block count). The forms without `lanes` are the
// one-warp teams'.
OMPGPU_DEV unsigned packed_team_num(unsigned teams_per_block, unsigned lanes) {
  return blockIdx.x * teams_per_block + threadIdx.x / lanes;
}
// The league of a packed region that a persistent loop calls: every team its grid holds (the
// loop's blocks are as wide as the region's own launch's, plan/persistent_loops.py).
OMPGPU_DEV unsigned packed_league(unsigned teams_per_block) { return gridDim.x * teams_per_block; }
OMPGPU_DEV unsigned packed_thread(unsigned lanes) { return threadIdx.x & (lanes - 1u); }
OMPGPU_DEV unsigned packed_team_mask(unsigned lanes) { return low_lanes_mask(lanes) << (lane_id() & ~(lanes - 1u)); }
OMPGPU_DEV void packed_team_barrier(unsigned lanes) { __syncwarp(packed_team_mask(lanes)); }
OMPGPU_DEV unsigned packed_team_slot(unsigned lanes) { return threadIdx.x / lanes; }
// A packed team tests a distribute loop's skip condition for as many iterations at once, one a
// thread (codegen/templates/loop.j2): the number of its first thread whose `take` holds, or
// `lanes` when none does; every thread gets it (block_team_first_taker's, for packed teams).
OMPGPU_DEV unsigned packed_team_first_taker(bool take, unsigned lanes) {
  const unsigned mask = packed_team_mask(lanes);
  const unsigned bits = (__ballot_sync(mask, take) & mask) >> (lane_id() & ~(lanes - 1u));
  return bits ? (unsigned)__ffs((int)bits) - 1u : lanes;
}
OMPGPU_DEV unsigned packed_team_num(unsigned teams_per_block) { return packed_team_num(teams_per_block, 32u); }
OMPGPU_DEV unsigned packed_team_first_taker(bool take) { return packed_team_first_taker(take, 32u); }
OMPGPU_DEV void packed_team_barrier() { packed_team_barrier(32u); }
OMPGPU_DEV unsigned packed_team_slot() { return packed_team_slot(32u); }

}  // namespace ompgpu

#endif  // OMPGPU_DEVICE_MAPPING_CUH
