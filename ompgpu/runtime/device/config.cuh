// ompgpu device runtime: configuration knobs, function attributes, fatal-error reporting.
// Part of the header-only device runtime included by generated kernels through
// ompgpu_device.cuh. Nothing here emits PTX; see synchronization.cuh for that.
#ifndef OMPGPU_DEVICE_CONFIG_CUH
#define OMPGPU_DEVICE_CONFIG_CUH

#include "keywords.cuh"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <type_traits>
#ifdef OMPGPU_EMU
#include <time.h>
#endif

// ---------------------------------------------------------------------------------------
// Sizes (all overridable with -D on the compiler command line)
// ---------------------------------------------------------------------------------------

// Largest block any kernel of the translation unit is launched with. Sizes the per-thread
// state array in shared memory (4 bytes per thread) and is the kernels' __launch_bounds__.
#ifndef OMPGPU_MAX_BLOCK
#define OMPGPU_MAX_BLOCK 1024
#endif

// Per-team soft stack slice in static shared memory (bytes, multiple of 16). Only kernels
// that use the soft stack (stack_push/StackFrame or fork with a pack larger than
// OMPGPU_ARGBUF_BYTES) reserve it.
#ifndef OMPGPU_SOFT_STACK_SHARED
#define OMPGPU_SOFT_STACK_SHARED 4096
#endif

// Per-team slice of global memory used once the shared slice is full (bytes, multiple of 16).
#ifndef OMPGPU_SOFT_STACK_GLOBAL
#define OMPGPU_SOFT_STACK_GLOBAL 65536
#endif

// Size of the static OMPGPU_DEVICE pool the global slices are carved from. A team claims a
// free slice lazily (first frame that does not fit in shared memory) and gives it back
// when its stack shrinks back into shared memory; when every slice is taken it falls back
// to device malloc(OMPGPU_SOFT_STACK_GLOBAL). 16 MiB = 256 slices of 64 KiB.
#ifndef OMPGPU_SOFT_STACK_GLOBAL_POOL
#define OMPGPU_SOFT_STACK_GLOBAL_POOL (16u << 20)
#endif

// Argument packs up to this size are copied into team state (shared memory) at a fork;
// larger ones go on the soft stack.
#ifndef OMPGPU_ARGBUF_BYTES
#define OMPGPU_ARGBUF_BYTES 512
#endif

static_assert(OMPGPU_SOFT_STACK_SHARED % 16 == 0, "OMPGPU_SOFT_STACK_SHARED must be a multiple of 16");
static_assert(OMPGPU_SOFT_STACK_GLOBAL % 16 == 0, "OMPGPU_SOFT_STACK_GLOBAL must be a multiple of 16");
static_assert(OMPGPU_ARGBUF_BYTES % 16 == 0, "OMPGPU_ARGBUF_BYTES must be a multiple of 16");
static_assert(OMPGPU_MAX_BLOCK >= 32 && OMPGPU_MAX_BLOCK <= 1024, "OMPGPU_MAX_BLOCK out of range");

// ---------------------------------------------------------------------------------------
// Function attributes
// ---------------------------------------------------------------------------------------
// Hot paths are forced inline; cold paths (diagnostics, the global soft-stack fallback,
// the private-context allocator) are kept out of line so they do not bloat the kernels.
#define OMPGPU_DEV OMPGPU_DEVICE OMPGPU_FORCEINLINE
#ifdef OMPGPU_EMU
#define OMPGPU_COLD static OMPGPU_DEVICE __attribute__((noinline))
#else
#define OMPGPU_COLD static OMPGPU_DEVICE OMPGPU_NOINLINE
#endif

// ---------------------------------------------------------------------------------------
// Fatal errors: print one line and stop the kernel (CUDA: __trap(); the host sees a
// launch failure). Under the emulator ompgpu_emu_fail prints and exits with status 3.
// ---------------------------------------------------------------------------------------
#ifdef OMPGPU_EMU
#define OMPGPU_FAIL(...) ompgpu_emu_fail(__VA_ARGS__)
#else
#define OMPGPU_FAIL(...)    \
  do {                      \
    printf(__VA_ARGS__);    \
    __threadfence_system(); \
    __trap();               \
  } while (0)
#endif

#ifndef __CUDACC_RTC__
// Host side of a translation unit's device code: what its launch stubs tell the device once
// (ompgpu_set_device_identity, ompgpu_set_indirect_table). `set` (a cudaError_t value) runs until
// it succeeds on a device, `done` remembering which (devices past the 64th: every time).
// Several host threads may race here on a first launch; they do the same.
enum { OMPGPU_TRACKED_DEVICES = 64 };
template <class Set>
static inline int ompgpu_once_per_device(volatile bool (&done)[OMPGPU_TRACKED_DEVICES], int device_num, Set set) {
  const bool tracked = device_num >= 0 && device_num < OMPGPU_TRACKED_DEVICES;
  if (tracked && done[device_num]) return 0;
  const int err = set();
  if (err == 0 && tracked) done[device_num] = true;
  return err;
}
#endif

#endif  // OMPGPU_DEVICE_CONFIG_CUH
