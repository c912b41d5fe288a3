// cuda_emu.h - the ompgpu device emulator.
//
// Lets the CUDA C++ that ompgpu generates (and the host runtime written against the CUDA
// runtime API) compile with the host C++ compiler and run on the CPU:
//
//   g++ -std=c++17 -O1 -x c++ -DOMPGPU_EMU -include ompgpu/runtime/emu/cuda_emu.h prog.device.cu
//
// Header-only: every function and variable is `inline`, so the header may be included by any
// number of translation units (device objects and host-runtime sources) of one program.
//
// Model
// - A launch runs synchronously. Blocks run one after another (or a few at a time on up to
//   OMPGPU_EMU_THREADS OS threads). Inside a block every CUDA thread is a user-space fiber
//   with its own stack (OMPGPU_EMU_STACK bytes, default 64 KiB, guard page below it);
//   fibers are scheduled cooperatively: a fiber runs until it waits at a barrier, a warp
//   collective or __activemask(), exits, or yields (atomics, __nanosleep, __threadfence,
//   clock64 are yield points, see atomic_hook()).
// - Warps are 32 consecutive threads (linear thread id x + y*X + z*X*Y).
// - Named barriers count like the hardware's barrier{.cta}: a thread waits until every
//   non-exited thread of its warp has arrived at that barrier, then the warp counts 32
//   toward the barrier's count; count 0 means every warp of the block (warps whose threads
//   all exited count as arrived). bar.arrive also waits for its own warp, not for the
//   barrier.
// - Warp collectives (__syncwarp, shuffles, votes, match, reduce) complete when every
//   non-exited lane named in the mask waits at a collective with the same mask.
// - __activemask() waits until no other lane of the warp can still get there (each other
//   non-exited lane waits somewhere or is spinning), then returns the lanes that wait at
//   the same __activemask() call site (a macro: textual site + return address).
// - Deadlocks and misuse are reported on stderr with the prefix "ompgpu-emu:" and end the
//   process with exit status 3.
//
// Environment: OMPGPU_EMU_THREADS (OS threads running blocks, default 1), OMPGPU_EMU_STACK
// (fiber stack bytes, default 65536, 256 KiB under -fsanitize=address), OMPGPU_EMU_SMS
// (reported SM count, default 132),
// OMPGPU_EMU_DEVICES (device count, default 1; 0 emulates a machine without a GPU),
// OMPGPU_EMU_PAGEABLE (cudaDevAttrPageableMemoryAccess, default 1: kernels run on the host and
// reach any host memory; 0 emulates a GPU without HMM/ATS, such as a PCIe H100 on most kernels),
// OMPGPU_EMU_MEM (device memory bytes, default 80 GiB), OMPGPU_EMU_TIMEOUT (seconds a launch
// may take before it is reported as hung, default 0 = no limit), OMPGPU_EMU_SPIN_LIMIT
// (consecutive spin-yields without progress in a block before a livelock is reported,
// default 20000000; 0 = never; only with one OS thread).
#ifndef OMPGPU_CUDA_EMU_H
#define OMPGPU_CUDA_EMU_H

#ifndef __cplusplus
#error "cuda_emu.h is C++ (compile with g++ -x c++)"
#endif

// The heavy standard headers (<mutex>, <thread>, <string>, <functional>) are avoided to keep
// compiles fast.
#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <limits>
#include <map>
#include <memory>
#include <new>
#include <tuple>
#include <type_traits>
#include <utility>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#define OMPGPU_EMU_ASAN 1
#else
#define OMPGPU_EMU_ASAN 0
#endif

#if defined(__x86_64__) && !defined(OMPGPU_EMU_UCONTEXT)
#define OMPGPU_EMU_ASM_SWITCH 1
#else
#define OMPGPU_EMU_ASM_SWITCH 0
#endif
#include <dlfcn.h>     // dladdr: the module of a faulting instruction
#include <ucontext.h>  // the faulting instruction's address

// ---------------------------------------------------------------------------------------
// CUDA keywords
// ---------------------------------------------------------------------------------------
// None here: CUDA's keywords are macros only in cuda_source.h, for hand-written CUDA sources.
// The device runtime and generated code spell them OMPGPU_DEVICE, ... (runtime/device/
// keywords.cuh). This header defines no macro with a reserved name: a standard library
// header included after it (libstdc++ 13 writes __attribute__((__noinline__))) must not
// see one.
#ifndef CUDART_VERSION
#define CUDART_VERSION 13000
#endif
#define OMPGPU_EMU_VERSION 1
// Host API functions stay out of line, like the real library's (keeps -Wmaybe-uninitialized quiet).
#define OMPGPU_EMU_API inline __attribute__((noinline))

// The emulator's large functions (scheduler, barriers and collectives, block runner, reports,
// fault handler) and its non-template host API are OMPGPU_EMU_LINKED: the headers declare them
// and emu_linked.inc defines them. Used on its own, this header includes emu_linked.inc at its
// end (inline definitions: header-only). ompgpu's own builds compile them once: its runtime
// library defines them (emu_runtime.cpp, built with -DOMPGPU_EMU_RUNTIME_LIBRARY=2), and every
// other file it compiles for the emulator (a program's device code, the host runtime; =1) sees
// the declarations alone, so a program's device code does not compile the emulator again.
#if defined(OMPGPU_EMU_RUNTIME_LIBRARY)
#define OMPGPU_EMU_LINKED
#define OMPGPU_EMU_LINKED_API __attribute__((noinline))
#else
#define OMPGPU_EMU_LINKED inline
#define OMPGPU_EMU_LINKED_API OMPGPU_EMU_API
#endif

// ---------------------------------------------------------------------------------------
// The emulator, by concern (each part uses what the ones before it define)
// ---------------------------------------------------------------------------------------
#include "emu_types.h"
#include "emu_threads.h"
#include "emu_faults.h"
#include "emu_scheduler.h"
#include "emu_barriers.h"
#include "emu_blocks.h"
#include "emu_memory.h"
#include "emu_device_api.h"
#include "emu_atomics.h"
#include "emu_intrinsics.h"
#include "emu_runtime_api.h"
#if !defined(OMPGPU_EMU_RUNTIME_LIBRARY) || OMPGPU_EMU_RUNTIME_LIBRARY == 2
#include "emu_linked.inc"
#endif

#endif  // OMPGPU_CUDA_EMU_H
