// ompgpu device runtime: the user-visible omp_* routines on the device.
//
// Plain OMPGPU_DEVICE functions with the C names (C++ linkage, so that under the emulator
// they never clash with the host OpenMP library's symbols). omp_lock_t / omp_nest_lock_t
// are defined here; the generator never emits the host's definitions in device code.
//
// This file is the one list of the routines device code may call: the compiler reads every
// `OMPGPU_API(kind) ... omp_name(` definition below (ompgpu/analysis/library.py), and the
// kind tells the execution-mode planner what a call needs:
//   uniform   no side effects, no team state, the same value on every thread of a team
//             (SPMD serial code may call it)
//   varying   no side effects, no team state, a value that differs between threads
//   state     reads or writes the runtime's team/thread state (levels, team sizes, ICVs)
//   memory    side effects on the user's memory (locks): atomics, no team state
// Routines OpenMP keeps on the host (device memory, allocators, affinity display, ...) are
// not here; the compiler names them in an error (library.HOST_ONLY_API).
//
// Values by context:
//   generic master (serial code)  thread 0 of 1, level 0, not in parallel
//   generic worker in a region    thread threadIdx.x of the team size, level 1
//   SPMD inside parallel          thread threadIdx.x of blockDim.x, level 1
//   SPMD serial code              thread 0 of 1, level 0 (every thread runs it)
//   serialized nested region      thread 0 of 1, level + 1, active level unchanged
#ifndef OMPGPU_DEVICE_API_CUH
#define OMPGPU_DEVICE_API_CUH

#include "sync.cuh"

#define OMPGPU_API(kind) OMPGPU_DEVICE OMPGPU_FORCEINLINE

typedef struct omp_lock_t {
  unsigned int _state;  // 0 free, 1 held
  unsigned int _pad;
} omp_lock_t;

// A dependence object (OpenMP 5.0 depobj), the size of libgomp's: device tasks run at once,
// so the depobj construct leaves it untouched and a depend(depobj: o) orders nothing.
typedef struct omp_depend_t {
  char _opaque[2 * sizeof(void *)];
} omp_depend_t;

typedef struct omp_nest_lock_t {
  unsigned long long _owner;  // 0 free, else 1 + global thread id
  unsigned int _count;
  unsigned int _pad;
} omp_nest_lock_t;

typedef enum omp_sched_t {
  omp_sched_static = 1,
  omp_sched_dynamic = 2,
  omp_sched_guided = 3,
  omp_sched_auto = 4,
  omp_sched_monotonic = (int)0x80000000u,
} omp_sched_t;

typedef enum omp_sync_hint_t {
  omp_sync_hint_none = 0,
  omp_lock_hint_none = omp_sync_hint_none,
  omp_sync_hint_uncontended = 1,
  omp_lock_hint_uncontended = omp_sync_hint_uncontended,
  omp_sync_hint_contended = 2,
  omp_lock_hint_contended = omp_sync_hint_contended,
  omp_sync_hint_nonspeculative = 4,
  omp_lock_hint_nonspeculative = omp_sync_hint_nonspeculative,
  omp_sync_hint_speculative = 8,
  omp_lock_hint_speculative = omp_sync_hint_speculative,
} omp_sync_hint_t;
typedef omp_sync_hint_t omp_lock_hint_t;

typedef enum omp_proc_bind_t {
  omp_proc_bind_false = 0,
  omp_proc_bind_true = 1,
  omp_proc_bind_master = 2,
  omp_proc_bind_close = 3,
  omp_proc_bind_spread = 4,
} omp_proc_bind_t;

// The predefined memory allocators (the same values as the host's omp.h, so a handle passed
// from the host means the same here).
typedef enum omp_allocator_handle_t : unsigned long long {
  omp_null_allocator = 0,
  omp_default_mem_alloc = 1,
  omp_large_cap_mem_alloc = 2,
  omp_const_mem_alloc = 3,
  omp_high_bw_mem_alloc = 4,
  omp_low_lat_mem_alloc = 5,
  omp_cgroup_mem_alloc = 6,
  omp_pteam_mem_alloc = 7,
  omp_thread_mem_alloc = 8,
  __omp_allocator_handle_t_max__ = ~0ull
} omp_allocator_handle_t;

// Memory spaces and allocator traits (OpenMP 5.0), with the host's omp.h values: a traits
// array the host wrote means the same here.
typedef enum omp_memspace_handle_t : unsigned long long {
  omp_default_mem_space = 0,
  omp_large_cap_mem_space = 1,
  omp_const_mem_space = 2,
  omp_high_bw_mem_space = 3,
  omp_low_lat_mem_space = 4,
  __omp_memspace_handle_t_max__ = ~0ull
} omp_memspace_handle_t;
typedef enum omp_alloctrait_key_t {
  omp_atk_sync_hint = 1,
  omp_atk_alignment = 2,
  omp_atk_access = 3,
  omp_atk_pool_size = 4,
  omp_atk_fallback = 5,
  omp_atk_fb_data = 6,
  omp_atk_pinned = 7,
  omp_atk_partition = 8
} omp_alloctrait_key_t;
typedef enum omp_alloctrait_value_t : unsigned long long {
  omp_atv_default = ~0ull,
  omp_atv_false = 0,
  omp_atv_true = 1,
  omp_atv_contended = 3,
  omp_atv_uncontended = 4,
  omp_atv_serialized = 5,
  omp_atv_sequential = omp_atv_serialized,
  omp_atv_private = 6,
  omp_atv_all = 7,
  omp_atv_thread = 8,
  omp_atv_pteam = 9,
  omp_atv_cgroup = 10,
  omp_atv_default_mem_fb = 11,
  omp_atv_null_fb = 12,
  omp_atv_abort_fb = 13,
  omp_atv_allocator_fb = 14,
  omp_atv_environment = 15,
  omp_atv_nearest = 16,
  omp_atv_blocked = 17,
  omp_atv_interleaved = 18
} omp_alloctrait_value_t;
typedef struct omp_alloctrait_t {
  omp_alloctrait_key_t key;
  unsigned long long value;
} omp_alloctrait_t;

// Which device this is and how many there are: written once per device and translation unit
// by the launch stub before the first kernel runs there (ompgpu_set_device_identity), or, in a
// device image (compiled on its own, one module per file), by the runtime when it loads the
// image, which finds it by this name (runtime/host/image.cpp).
// With them, the device-scope ICVs the environment sets (ompgpu_device_teams_icvs).
// {device number, number of devices, nteams-var, teams-thread-limit-var}
#ifdef OMPGPU_DEVICE_IMAGE
extern "C" {
OMPGPU_CONSTANT OMPGPU_IMAGE_LINKAGE int ompgpu_device_identity[4];
}
#else
static OMPGPU_CONSTANT int ompgpu_device_identity[4];
#endif

#ifndef __CUDACC_RTC__
// Host side: tells this translation unit's copy of ompgpu_device_identity on the current device
// which device it is, once per device: omp_get_device_num() and friends read it. Several host
// threads may race here on the first launch; they write the same values.
extern "C" void ompgpu_device_teams_icvs(int icvs[2]);  // the host runtime's (ompgpu_host.h)
static inline int ompgpu_set_device_identity(int device_num, int num_devices) {
  static volatile bool written[OMPGPU_TRACKED_DEVICES];
  return ompgpu_once_per_device(written, device_num, [device_num, num_devices] {
    int identity[4] = {device_num, num_devices, 0, 0};
    ompgpu_device_teams_icvs(identity + 2);
    return (int)cudaMemcpyToSymbol(ompgpu_device_identity, identity, sizeof identity);
  });
}
#endif


namespace ompgpu {
namespace detail {
OMPGPU_DEV unsigned long long nest_lock_owner_id() {
  return (unsigned long long)blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x + 1ull;
}
OMPGPU_DEV void spin_lock_u32(unsigned *p) {
  if (atomicCAS(p, 0u, 1u) != 0u) {
    unsigned ns = 32;
    do {
      spin_pause(ns);
      if (ns < 1024) ns <<= 1;
    } while (atomicCAS(p, 0u, 1u) != 0u);
  }
  __threadfence();
}
// Active level of the calling thread: 1 inside a region whose team has more than one thread.
OMPGPU_DEV int active_level(ThreadState s) { return (s.par() && s.size() > 1) ? 1 : 0; }
}  // namespace detail
}  // namespace ompgpu

// ---- threads and teams ----------------------------------------------------------------
OMPGPU_API(state) int omp_get_thread_num(void) { return (int)ompgpu::detail::team_pos().tid; }
OMPGPU_API(state) int omp_get_num_threads(void) { return (int)ompgpu::detail::team_pos().n; }
OMPGPU_API(uniform) int omp_get_team_num(void) { return (int)blockIdx.x; }
OMPGPU_API(uniform) int omp_get_num_teams(void) { return (int)gridDim.x; }
OMPGPU_API(state) int omp_get_level(void) {
  ompgpu::detail::ThreadState s = ompgpu::detail::thr();
  return (int)s.par() + (int)s.ser;
}
OMPGPU_API(state) int omp_get_active_level(void) { return ompgpu::detail::active_level(ompgpu::detail::thr()); }
OMPGPU_API(state) int omp_in_parallel(void) { return ompgpu::detail::active_level(ompgpu::detail::thr()) > 0; }

OMPGPU_API(state) int omp_get_thread_limit(void) {
  return ompgpu::detail::team_state.mode == ompgpu::MODE_GENERIC ? (int)ompgpu::detail::team_state.thread_limit
                                                                  : (int)blockDim.x;
}
OMPGPU_API(state) int omp_get_num_procs(void) { return omp_get_thread_limit(); }

// Threads the next parallel region of the calling thread would get.
OMPGPU_API(state) int omp_get_max_threads(void) {
  ompgpu::detail::ThreadState s = ompgpu::detail::thr();
  if (s.par() || s.ser) return 1;  // nested regions are serialized
  if (ompgpu::detail::team_state.mode == ompgpu::MODE_GENERIC) {
    if (blockDim.x <= 32u) return 1;
    return ompgpu::detail::team_state.fork.dflt;
  }
  return (int)blockDim.x;
}
OMPGPU_API(state) void omp_set_num_threads(int n) {
  ompgpu::detail::ThreadState s = ompgpu::detail::thr();
  if (!s.par() && ompgpu::detail::team_state.mode == ompgpu::MODE_GENERIC)
    ompgpu::detail::team_state.fork.dflt = ompgpu::detail::team_size_for(n);
}

OMPGPU_API(state) int omp_get_ancestor_thread_num(int level) {
  ompgpu::detail::ThreadState s = ompgpu::detail::thr();
  int lvl = (int)s.par() + (int)s.ser;
  if (level < 0 || level > lvl) return -1;
  if (level == 0) return 0;
  if (level == 1 && s.par()) return (int)threadIdx.x;
  return 0;  // serialized levels: teams of one
}
OMPGPU_API(state) int omp_get_team_size(int level) {
  ompgpu::detail::ThreadState s = ompgpu::detail::thr();
  int lvl = (int)s.par() + (int)s.ser;
  if (level < 0 || level > lvl) return -1;
  if (level == 1 && s.par()) return (int)s.size();
  return 1;
}

OMPGPU_API(uniform) int omp_get_dynamic(void) { return 0; }
OMPGPU_API(uniform) void omp_set_dynamic(int) {}
OMPGPU_API(uniform) int omp_get_nested(void) { return 0; }
OMPGPU_API(uniform) void omp_set_nested(int) {}
OMPGPU_API(uniform) int omp_get_max_active_levels(void) { return 1; }
OMPGPU_API(uniform) void omp_set_max_active_levels(int) {}
OMPGPU_API(uniform) int omp_in_final(void) { return 0; }
OMPGPU_API(uniform) int omp_get_cancellation(void) { return 0; }
// Nested parallel regions on the device are serialized: one active level at most.
OMPGPU_API(uniform) int omp_get_supported_active_levels(void) { return 1; }
OMPGPU_API(uniform) int omp_get_max_task_priority(void) { return 0; }  // tasks run undeferred
// No places on a GPU: binding is off, the place lists are empty.
OMPGPU_API(uniform) omp_proc_bind_t omp_get_proc_bind(void) { return omp_proc_bind_false; }
OMPGPU_API(uniform) int omp_get_num_places(void) { return 0; }
OMPGPU_API(uniform) int omp_get_place_num_procs(int) { return 0; }
OMPGPU_API(uniform) void omp_get_place_proc_ids(int, int *) {}
OMPGPU_API(uniform) int omp_get_place_num(void) { return -1; }
OMPGPU_API(uniform) int omp_get_partition_num_places(void) { return 0; }
OMPGPU_API(uniform) void omp_get_partition_place_nums(int *) {}
OMPGPU_API(memory) void omp_get_schedule(omp_sched_t *kind, int *chunk) {
  *kind = omp_sched_static;
  *chunk = 0;
}
OMPGPU_API(uniform) void omp_set_schedule(omp_sched_t, int) {}

// ---- device ------------------------------------------------------------------------------
OMPGPU_API(uniform) int omp_is_initial_device(void) { return 0; }
OMPGPU_API(uniform) int omp_get_device_num(void) { return ompgpu_device_identity[0]; }
// The device's nteams-var and teams-thread-limit-var: what the environment set (0: unset).
OMPGPU_API(uniform) int omp_get_max_teams(void) { return ompgpu_device_identity[2]; }
OMPGPU_API(uniform) int omp_get_teams_thread_limit(void) { return ompgpu_device_identity[3]; }
OMPGPU_API(uniform) int omp_get_num_devices(void) { return ompgpu_device_identity[1]; }
// OpenMP 5.1: the host's device number equals omp_get_num_devices() (as on the host).
OMPGPU_API(uniform) int omp_get_initial_device(void) { return ompgpu_device_identity[1]; }
// The default-device ICV of a target region's data environment: the device it runs on.
OMPGPU_API(uniform) int omp_get_default_device(void) { return ompgpu_device_identity[0]; }

// ---- timing -----------------------------------------------------------------------------
// %globaltimer: nanoseconds (updated about every microsecond on recent GPUs).
OMPGPU_API(varying) double omp_get_wtime(void) { return (double)ompgpu::globaltimer_ns() * 1.0e-9; }
OMPGPU_API(uniform) double omp_get_wtick(void) { return 1.0e-6; }

// ---- memory allocators ---------------------------------------------------------------------
// Every allocator takes its memory from the device heap: all threads can reach it, which
// satisfies each access trait (thread, pteam, cgroup), and the predefined allocators' fallback
// ends in NULL when the heap is exhausted. An allocator made from traits (omp_init_allocator
// in device code, or uses_allocators(a(traits)) on a target construct, whose object the host
// runtime writes into device memory before the launch) is a handle that points to an
// AllocatorObject: its memory space and traits as given, and the bytes its pool holds now. Its
// alignment, pool_size, fallback and fb_data traits are honored; sync_hint, access, pinned and
// partition describe memory the device heap already is. A header before each block keeps the
// start of the heap allocation, the size and the allocator (omp_free, omp_realloc, the pool).
namespace ompgpu {
namespace detail {
struct AllocHeader {
  void *base;
  unsigned long long size;
  unsigned long long allocator;   // the handle that made the block
  unsigned long long pooled;      // bytes counted against that allocator's pool
};
// The layout the host runtime writes too (runtime/host/target.cpp, make_device_allocator).
struct AllocatorObject {
  unsigned long long magic;       // kAllocatorMagic
  unsigned long long memspace;
  unsigned long long used;        // bytes its pool holds now
  unsigned long long on_heap;     // made by omp_init_allocator in device code: omp_destroy_allocator frees it
  unsigned long long count;       // traits that follow
  omp_alloctrait_t traits[1];
};
enum : unsigned long long { kAllocatorMagic = 0x4f4d504755414c43ull };   // "OMPGUALC"
struct AllocatorTraits {
  unsigned long long alignment, pool_size, fallback, fb_data;
};
OMPGPU_DEV AllocatorObject *allocator_object(omp_allocator_handle_t h) {
  // Predefined handles are small numbers; any other is an object's address.
  if ((unsigned long long)h <= 0xffffull) return nullptr;
  AllocatorObject *a = (AllocatorObject *)(unsigned long long)h;
  return a->magic == kAllocatorMagic ? a : nullptr;
}
// The traits that change an allocation; false where one is not valid.
OMPGPU_DEV bool read_traits(const omp_alloctrait_t *traits, unsigned long long count, AllocatorTraits *t) {
  *t = AllocatorTraits{1, 0, omp_atv_default_mem_fb, 0};
  for (unsigned long long i = 0; i < count; ++i) {
    const unsigned long long v = traits[i].value;
    switch (traits[i].key) {
      case omp_atk_alignment:
        if (v == 0 || (v & (v - 1)) != 0) return false;
        t->alignment = v;
        break;
      case omp_atk_pool_size:
        t->pool_size = v;
        break;
      case omp_atk_fallback:
        if (v != omp_atv_default_mem_fb && v != omp_atv_null_fb && v != omp_atv_abort_fb && v != omp_atv_allocator_fb)
          return false;
        t->fallback = v;
        break;
      case omp_atk_fb_data:
        t->fb_data = v;
        break;
      case omp_atk_sync_hint: case omp_atk_access: case omp_atk_pinned: case omp_atk_partition:
        break;
      default:
        return false;
    }
  }
  return !(t->fallback == omp_atv_allocator_fb && t->fb_data == 0);
}
OMPGPU_DEV void *heap_block(unsigned long long alignment, unsigned long long size, bool zero, unsigned long long allocator,
                            unsigned long long pooled) {
  if (alignment < sizeof(AllocHeader)) alignment = sizeof(AllocHeader);
  if ((alignment & (alignment - 1)) != 0) return nullptr;  // not a power of two
  char *base = (char *)malloc(size + alignment + sizeof(AllocHeader));
  if (base == nullptr) return nullptr;
  unsigned long long at = ((unsigned long long)(base + sizeof(AllocHeader)) + alignment - 1) & ~(alignment - 1);
  AllocHeader *h = (AllocHeader *)at - 1;
  h->base = base;
  h->size = size;
  h->allocator = allocator;
  h->pooled = pooled;
  if (zero) memset((void *)at, 0, size);
  return (void *)at;
}
OMPGPU_DEV void *allocate(omp_allocator_handle_t handle, unsigned long long alignment, unsigned long long size, bool zero) {
  if (size == 0) return nullptr;
  for (int depth = 0; depth < 8; ++depth) {   // allocator_fb chains: a cycle ends in NULL
    AllocatorObject *a = allocator_object(handle);
    if (a == nullptr) return heap_block(alignment, size, zero, (unsigned long long)handle, 0);
    AllocatorTraits t;
    if (!read_traits(a->traits, a->count, &t)) return nullptr;
    const unsigned long long align = alignment > t.alignment ? alignment : t.alignment;
    bool fits = true;
    if (t.pool_size != 0) {   // reserve the bytes in the pool first
      unsigned long long old = atomicAdd(&a->used, size);
      if (old + size > t.pool_size || old + size < old) {
        atomicAdd(&a->used, 0ull - size);
        fits = false;
      }
    }
    if (fits) {
      void *p = heap_block(align, size, zero, (unsigned long long)handle, t.pool_size != 0 ? size : 0);
      if (p != nullptr) return p;
      if (t.pool_size != 0) atomicAdd(&a->used, 0ull - size);
    }
    if (t.fallback == omp_atv_null_fb) return nullptr;
    if (t.fallback == omp_atv_abort_fb)
      OMPGPU_FAIL("ompgpu: device allocation of %llu bytes failed (allocator with fallback abort_fb)\n", size);
    handle = t.fallback == omp_atv_allocator_fb ? (omp_allocator_handle_t)t.fb_data : omp_default_mem_alloc;
  }
  return nullptr;
}
OMPGPU_DEV void release(void *ptr) {
  if (ptr == nullptr) return;
  AllocHeader *h = (AllocHeader *)ptr - 1;
  if (h->pooled != 0) {
    AllocatorObject *a = allocator_object((omp_allocator_handle_t)h->allocator);
    if (a != nullptr) atomicAdd(&a->used, 0ull - h->pooled);
  }
  free(h->base);
}
}  // namespace detail
}  // namespace ompgpu

// The storage of a variable-length array in device code (parser/declarators.py): the device
// heap, which every thread of the team reaches; freed where the array's block ends.
OMPGPU_DEV void *ompgpu_vla_alloc(unsigned long long bytes, const char *name) {
  void *p = malloc(bytes > 0 ? bytes : 1);
  if (p == nullptr)
    OMPGPU_FAIL("ompgpu: the device heap has no room for the variable-length array '%s' (%llu bytes); "
                "raise OMPGPU_DEVICE_HEAP_BYTES\n", name, bytes);
  return p;
}

OMPGPU_API(memory) omp_allocator_handle_t omp_init_allocator(omp_memspace_handle_t memspace, int ntraits,
                                                             const omp_alloctrait_t traits[]) {
  using namespace ompgpu::detail;
  AllocatorTraits t;
  if (ntraits < 0 || (ntraits > 0 && traits == nullptr) || !read_traits(traits, (unsigned long long)ntraits, &t))
    return omp_null_allocator;
  const unsigned long long n = ntraits > 0 ? (unsigned long long)ntraits : 1ull;
  AllocatorObject *a = (AllocatorObject *)malloc(sizeof(AllocatorObject) + (n - 1) * sizeof(omp_alloctrait_t));
  if (a == nullptr) return omp_null_allocator;
  a->magic = kAllocatorMagic;
  a->memspace = (unsigned long long)memspace;
  a->used = 0;
  a->on_heap = 1;
  a->count = (unsigned long long)ntraits;
  for (int i = 0; i < ntraits; ++i) a->traits[i] = traits[i];
  return (omp_allocator_handle_t)(unsigned long long)a;
}
OMPGPU_API(memory) void omp_destroy_allocator(omp_allocator_handle_t allocator) {
  ompgpu::detail::AllocatorObject *a = ompgpu::detail::allocator_object(allocator);
  if (a != nullptr && a->on_heap) {
    a->magic = 0;
    free(a);
  }
}
OMPGPU_API(memory) void *omp_alloc(size_t size, omp_allocator_handle_t allocator) {
  return ompgpu::detail::allocate(allocator, 16, size, false);
}
OMPGPU_API(memory) void *omp_aligned_alloc(size_t alignment, size_t size, omp_allocator_handle_t allocator) {
  return ompgpu::detail::allocate(allocator, alignment, size, false);
}
OMPGPU_API(memory) void *omp_calloc(size_t nmemb, size_t size, omp_allocator_handle_t allocator) {
  return ompgpu::detail::allocate(allocator, 16, (unsigned long long)nmemb * size, true);
}
OMPGPU_API(memory) void *omp_aligned_calloc(size_t alignment, size_t nmemb, size_t size, omp_allocator_handle_t allocator) {
  return ompgpu::detail::allocate(allocator, alignment, (unsigned long long)nmemb * size, true);
}
OMPGPU_API(memory) void omp_free(void *ptr, omp_allocator_handle_t) { ompgpu::detail::release(ptr); }
OMPGPU_API(memory) void *omp_realloc(void *ptr, size_t size, omp_allocator_handle_t allocator,
                                     omp_allocator_handle_t free_allocator) {
  if (size == 0) {
    ompgpu::detail::release(ptr);
    return nullptr;
  }
  // omp_null_allocator: the allocator that made ptr (OpenMP 5.0)
  if (allocator == omp_null_allocator && ptr != nullptr)
    allocator = (omp_allocator_handle_t)((ompgpu::detail::AllocHeader *)ptr - 1)->allocator;
  void *fresh = ompgpu::detail::allocate(allocator, 16, size, false);
  if (fresh != nullptr && ptr != nullptr) {
    const unsigned long long old = ((ompgpu::detail::AllocHeader *)ptr - 1)->size;
    memcpy(fresh, ptr, old < size ? old : size);
    ompgpu::detail::release(ptr);
  }
  (void)free_allocator;
  return fresh;
}

// ---- locks --------------------------------------------------------------------------------
OMPGPU_API(memory) void omp_init_lock(omp_lock_t *l) {
  atomicExch(&l->_state, 0u);
  __threadfence();
}
// Hints are permitted to be ignored: a hinted lock is a plain one.
OMPGPU_API(memory) void omp_init_lock_with_hint(omp_lock_t *l, omp_sync_hint_t) { omp_init_lock(l); }
OMPGPU_API(memory) void omp_destroy_lock(omp_lock_t *l) { atomicExch(&l->_state, 0u); }
OMPGPU_API(memory) void omp_set_lock(omp_lock_t *l) { ompgpu::detail::spin_lock_u32(&l->_state); }
OMPGPU_API(memory) void omp_unset_lock(omp_lock_t *l) {
  __threadfence();
  atomicExch(&l->_state, 0u);
}
OMPGPU_API(memory) int omp_test_lock(omp_lock_t *l) {
  if (atomicCAS(&l->_state, 0u, 1u) != 0u) return 0;
  __threadfence();
  return 1;
}

// The nest lock's fields are only touched with atomics: a lock may live on the soft stack in
// shared memory, and plain accesses by successive owners would be reported by racecheck
// (which cannot see that the lock orders them).
OMPGPU_API(memory) void omp_init_nest_lock(omp_nest_lock_t *l) {
  atomicExch(&l->_owner, 0ull);
  atomicExch(&l->_count, 0u);
  __threadfence();
}
OMPGPU_API(memory) void omp_init_nest_lock_with_hint(omp_nest_lock_t *l, omp_sync_hint_t) { omp_init_nest_lock(l); }
OMPGPU_API(memory) void omp_destroy_nest_lock(omp_nest_lock_t *l) {
  atomicExch(&l->_owner, 0ull);
  atomicExch(&l->_count, 0u);
}
OMPGPU_API(memory) void omp_set_nest_lock(omp_nest_lock_t *l) {
  const unsigned long long me = ompgpu::detail::nest_lock_owner_id();
  if (atomicAdd(&l->_owner, 0ull) == me) {
    atomicAdd(&l->_count, 1u);
    return;
  }
  if (atomicCAS(&l->_owner, 0ull, me) != 0ull) {
    unsigned ns = 32;
    do {
      ompgpu::spin_pause(ns);
      if (ns < 1024) ns <<= 1;
    } while (atomicCAS(&l->_owner, 0ull, me) != 0ull);
  }
  __threadfence();
  atomicExch(&l->_count, 1u);
}
OMPGPU_API(memory) void omp_unset_nest_lock(omp_nest_lock_t *l) {
  if (atomicSub(&l->_count, 1u) == 1u) {
    __threadfence();
    atomicExch(&l->_owner, 0ull);
  }
}
OMPGPU_API(memory) int omp_test_nest_lock(omp_nest_lock_t *l) {
  const unsigned long long me = ompgpu::detail::nest_lock_owner_id();
  if (atomicAdd(&l->_owner, 0ull) == me) return (int)atomicAdd(&l->_count, 1u) + 1;
  if (atomicCAS(&l->_owner, 0ull, me) != 0ull) return 0;
  __threadfence();
  atomicExch(&l->_count, 1u);
  return 1;
}

#endif  // OMPGPU_DEVICE_API_CUH
