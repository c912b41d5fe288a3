// ompgpu device runtime: hardware synchronization primitives.
//
// ALL inline PTX of the runtime lives in this file and nowhere else: named barriers
// (barrier.sync / barrier.arrive / bar.sync), thread exit, lane masks and the global timer.
// Under OMPGPU_EMU (host C++ compiler with cuda_emu.h) no asm is compiled: named barriers
// call ompgpu_emu_bar_sync / ompgpu_emu_bar_arrive instead.
//
// PTX semantics relied on (PTX ISA, "barrier"): a thread executing barrier.sync waits
// until all non-exited threads of its warp have arrived at the same barrier, then the warp
// counts 32 toward the barrier's thread count; exited threads count as arrived. The
// non-.aligned form (barrier.sync) may be executed by divergent threads of a warp, even
// from different instructions, which is what fork/join and in-region barriers need.
// bar.sync is barrier.sync.aligned: every thread of the warp must execute the same
// instruction; it is offered for warp-uniform call sites (and the floor benchmark).
#ifndef OMPGPU_DEVICE_SYNCHRONIZATION_CUH
#define OMPGPU_DEVICE_SYNCHRONIZATION_CUH

#include "config.cuh"

namespace ompgpu {

// The one owner of barrier ids.
enum BarrierId : unsigned {
  BARRIER_WHOLE_BLOCK = 0,  // every thread of the block (no count; __syncthreads() is the same):
                            // SPMD code whose team is the whole block (block_barrier)
  BARRIER_REGION = 7,       // #pragma omp barrier inside a region: count = active warps x 32
  BARRIER_FORK_JOIN = 8,    // team-wide fork and join: count = blockDim.x
  BARRIER_SIZED_JOIN = 9,   // SPMD: end of a region with num_threads smaller than the block;
                            // the team may still use BARRIER_REGION with its own count
};

// Wait at named barrier ID until `count` threads (a multiple of 32; whole warps) arrived.
template <BarrierId ID>
OMPGPU_DEV void barrier_sync(unsigned count) {
#ifdef OMPGPU_EMU
  ompgpu_emu_bar_sync((unsigned)ID, count);
#else
  asm volatile("barrier.sync %0, %1;" ::"n"((unsigned)ID), "r"(count) : "memory");
#endif
}

// Arrive at named barrier ID without waiting.
template <BarrierId ID>
OMPGPU_DEV void barrier_arrive(unsigned count) {
#ifdef OMPGPU_EMU
  ompgpu_emu_bar_arrive((unsigned)ID, count);
#else
  asm volatile("barrier.arrive %0, %1;" ::"n"((unsigned)ID), "r"(count) : "memory");
#endif
}

// Aligned variant (bar.sync): only where all threads of the warp execute this very
// instruction together.
template <BarrierId ID>
OMPGPU_DEV void barrier_sync_aligned(unsigned count) {
#ifdef OMPGPU_EMU
  ompgpu_emu_bar_sync((unsigned)ID, count);
#else
  asm volatile("bar.sync %0, %1;" ::"n"((unsigned)ID), "r"(count) : "memory");
#endif
}

template <BarrierId ID>
OMPGPU_DEV void barrier_arrive_aligned(unsigned count) {
#ifdef OMPGPU_EMU
  ompgpu_emu_bar_arrive((unsigned)ID, count);
#else
  asm volatile("bar.arrive %0, %1;" ::"n"((unsigned)ID), "r"(count) : "memory");
#endif
}

// Every thread of the block meets at barrier 0, with no thread count: measured on an H100
// at 0.012 / 0.015 / 0.051 / 0.112 us per EPCC barrier at 32 / 128 / 512 / 992 threads, against
// 0.028 / 0.062 / 0.102 / 0.168 for a counted named barrier behind the team-size tests of
// known_team_barrier (bench/results/exp-h100-2026-11-25-whole-block-barrier.txt).
// Aligned: every thread of each warp executes this very instruction (bar.sync 0); otherwise
// the non-aligned form, which divergent threads may reach from different instructions.
template <bool Aligned = false>
OMPGPU_DEV void block_barrier() {
#ifdef OMPGPU_EMU
  ompgpu_emu_bar_sync((unsigned)BARRIER_WHOLE_BLOCK, 0);
#else
  if (Aligned)
    asm volatile("bar.sync 0;" ::: "memory");   // the __syncthreads intrinsic measured the same
                                                 // (EPCC barrier 0.0187 us at 32 threads, -1200.csv)
  else
    asm volatile("barrier.sync 0;" ::: "memory");
#endif
}

// Every thread of the block meets at barrier 0 (as block_barrier) and gets how many threads
// came with `held` nonzero: one instruction (bar.red.popc) for the barrier and the count, where
// an all-reduce takes shuffles, shared slots and a barrier. btree's level loop (a team of 256
// counting its keys below the query) ran 0.14 ms against 0.17 (H200, bench/results/s19-h200-2026-11-30-run1).
OMPGPU_DEV unsigned block_count(int held) {
#ifdef OMPGPU_EMU
  return ompgpu_emu_bar_red_popc((int)BARRIER_WHOLE_BLOCK, held);
#else
  unsigned count;
  asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.s32 p, %1, 0;\n\tbarrier.red.popc.u32 %0, 0, p;\n\t}"
               : "=r"(count) : "r"(held) : "memory");
  return count;
#endif
}

// End the calling thread now (PTX exit). Later barriers count it as arrived.
OMPGPU_DEV void thread_exit() {
#ifdef OMPGPU_EMU
  ompgpu_emu_thread_exit();
#else
  asm volatile("exit;" ::: "memory");
#endif
}

// Lanes of the calling warp below the calling lane.
OMPGPU_DEV unsigned lanemask_lt() {
#ifdef OMPGPU_EMU
  return (1u << (threadIdx.x & 31u)) - 1u;
#else
  unsigned m;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
  return m;
#endif
}

// One 16-byte shared-memory load (ld.shared.v4.u32) of a 16-byte aligned object, so the
// compiler cannot split it into narrower loads.
OMPGPU_DEV void load_shared_v4(const void *p, unsigned out[4]) {
#ifdef OMPGPU_EMU
  memcpy(out, p, 16);
#else
  unsigned a = (unsigned)__cvta_generic_to_shared(p);
  asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(out[0]), "=r"(out[1]), "=r"(out[2]), "=r"(out[3])
               : "r"(a)
               : "memory");
#endif
}

// Nanoseconds from the GPU global timer (%globaltimer), read after everything before it in
// program order: a bare read right after bar.sync ran before the barrier had completed on an
// H100 (32 ns measured across a join that waited 50 us; with membar.cta first: 50 us,
// bench/results/exp-h100-2026-11-25-timer-after-barrier.txt), so omp_get_wtime() around a
// parallel region could measure nothing.
OMPGPU_DEV unsigned long long globaltimer_ns() {
#ifdef OMPGPU_EMU
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
#else
  unsigned long long t;
  asm volatile("membar.cta;\n\tmov.u64 %0, %%globaltimer;" : "=l"(t) : : "memory");
  return t;
#endif
}

// Short pause inside spin loops (lets the other lanes / the emulator's other threads run).
OMPGPU_DEV void spin_pause(unsigned ns) {
#if defined(OMPGPU_EMU) || !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 700
  __nanosleep(ns);
#else
  (void)ns;
#endif
}

}  // namespace ompgpu

#endif  // OMPGPU_DEVICE_SYNCHRONIZATION_CUH
