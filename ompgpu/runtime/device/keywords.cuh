// ompgpu device runtime: CUDA's keywords as the runtime and the generated code spell them.
//
// Why not CUDA's own spelling: under the emulator (OMPGPU_EMU) the host C++ compiler would
// need `__device__`, `__shared__`, `__noinline__`, ... as macros, and a macro with a reserved
// name breaks the standard library headers that use the same name after it (libstdc++ 13
// writes `__attribute__((__noinline__))`). These names are ompgpu's own, so they clash with
// nothing; under nvcc they are CUDA's keywords.
#ifndef OMPGPU_DEVICE_KEYWORDS_CUH
#define OMPGPU_DEVICE_KEYWORDS_CUH

#ifdef OMPGPU_EMU
// The emulator runs a block on one OS thread at a time: a block's shared memory is that
// thread's (see ompgpu/runtime/emu/README.md).
#define OMPGPU_GLOBAL
#define OMPGPU_DEVICE
#define OMPGPU_HOST
#define OMPGPU_CONSTANT
#define OMPGPU_MANAGED
#define OMPGPU_SHARED thread_local
#define OMPGPU_FORCEINLINE inline
#define OMPGPU_NOINLINE __attribute__((noinline))
#define OMPGPU_LAUNCH_BOUNDS(...)
#define OMPGPU_ALIGN(n) __attribute__((aligned(n)))
// A macro, not a function: the call site (__COUNTER__) tells two calls apart, which an
// optimizer that merges calls of two branches would otherwise make one.
#define OMPGPU_ACTIVEMASK() (::ompgpu_emu_activemask(__COUNTER__))
#else
#define OMPGPU_GLOBAL __global__
#define OMPGPU_DEVICE __device__
#define OMPGPU_HOST __host__
#define OMPGPU_CONSTANT __constant__
#define OMPGPU_MANAGED __managed__
#define OMPGPU_SHARED __shared__
#define OMPGPU_FORCEINLINE __forceinline__
#define OMPGPU_NOINLINE __noinline__
#define OMPGPU_LAUNCH_BOUNDS(...) __launch_bounds__(__VA_ARGS__)
#define OMPGPU_ALIGN(n) __align__(n)
#define OMPGPU_ACTIVEMASK() __activemask()
#endif

// The image flavor's variables that the runtime finds by name (ompgpu_device_identity): weak
// in a relocatable image (OMPGPU_RELOCATABLE_IMAGE: compiled with -rdc, linked by nvJitLink
// with the other files' images, each of which defines them), one copy in the linked module.
#ifdef OMPGPU_RELOCATABLE_IMAGE
#define OMPGPU_IMAGE_LINKAGE __attribute__((weak))
#else
#define OMPGPU_IMAGE_LINKAGE
#endif

// Written after a shared variable's declaration inside a kernel: under the emulator, the block's
// first thread to pass it fills the variable with garbage (emu_blocks.h garble_shared_once), as
// a GPU's shared memory may hold at a block's start, so that code reading it before any thread
// stored to it fails in CI as it would on a GPU; on a GPU, nothing.
#ifdef OMPGPU_EMU
#define OMPGPU_SHARED_STARTS_UNDEFINED(var) (::ompgpu_emu::garble_shared_once((void *)&(var), sizeof(var)))
#else
#define OMPGPU_SHARED_STARTS_UNDEFINED(var) ((void)0)
#endif

// Shared memory with one element per packed team of the block (an array of the teams-per-block
// count, indexed by ompgpu::packed_team_slot()): the team's own copy, not the block's.
#define OMPGPU_TEAM_SHARED OMPGPU_SHARED

#endif  // OMPGPU_DEVICE_KEYWORDS_CUH
