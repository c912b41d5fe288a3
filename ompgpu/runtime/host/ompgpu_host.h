/* ompgpu host runtime: the C API that generated host code calls.
 *
 * Includable from C (C99 and later) and C++. The implementation is C++17
 * (ompgpu/runtime/host/[a-z]*.cpp, internal header host_internal.hpp) and is built
 * from the same sources two ways (run from the repository root):
 *
 *   real CUDA:
 *     g++ -std=c++17 -O2 -I/usr/local/cuda/include -c ompgpu/runtime/host/[a-z]*.cpp
 *     ar rcs libompgpu_host_cuda.a [a-z]*.o
 *     g++ -fopenmp prog.host.o prog.device.o libompgpu_host_cuda.a
 *         -L/usr/local/cuda/lib64 -lcudart_static -ldl -lpthread -lrt -o prog
 *
 *   emulator (no GPU; cuda_emu.h provides the CUDA runtime API subset):
 *     g++ -std=c++17 -O1 -DOMPGPU_EMU -include ompgpu/runtime/emu/cuda_emu.h
 *         -c ompgpu/runtime/host/[a-z]*.cpp
 *     ar rcs libompgpu_host_emu.a [a-z]*.o      (+ cuda_emu.o if the emulator has one)
 *     g++ -fopenmp prog.host.o prog.device.o libompgpu_host_emu.a -lpthread -o prog
 *
 * Environment: OMP_TARGET_OFFLOAD=MANDATORY|DISABLED|DEFAULT, OMP_DEFAULT_DEVICE,
 * OMP_NUM_TEAMS, OMP_TEAMS_THREAD_LIMIT, OMPGPU_INFO=1 (launch and transfer log on
 * stderr), OMPGPU_STARTUP=eager|background|lazy, OMPGPU_STAGING_MIN_BYTES, OMPGPU_COPY_THREADS,
 * OMPGPU_DEFERRED_COPIES=0, OMPGPU_PROFILE=1|FILE.json, OMPGPU_PERSISTENT_LOOPS=0, OMPGPU_LOOP_TEAMS. See docs/CONTRACTS.md,
 * "Host runtime API".
 */
#ifndef OMPGPU_HOST_H
#define OMPGPU_HOST_H

/* Only size_t: the generated host C is the user's preprocessed source, which may hold the whole
 * of <stddef.h> (mpi.h includes it), and its max_align_t cannot be declared twice. */
#define __need_size_t
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { OMPGPU_MODE_GENERIC = 0, OMPGPU_MODE_SPMD = 1 };

typedef struct ompgpu_launch_config {
  unsigned num_teams, threads_per_team;
  size_t dyn_shmem;
  void *stream;
  int device_num, num_devices;   /* the device launched on (current), how many there are */
  void *scratch;                 /* zeroed device memory the kernel leaves zeroed (scratch_per_team > 0), else NULL */
  unsigned scratch_epoch;        /* this launch's number among the launches on that scratch, from 1 */
  unsigned combine;              /* bit k: the blocks may sum the kernel's k-th combined pointer's
                                    atomic updates (runtime/device/combine.cuh; combine_roles) */
  unsigned team_threads;         /* generic mode: the team's thread limit (its workers are whole warps:
                                    threads_per_team - 32 of them may be more) */
} ompgpu_launch_config;

/* Launch stub defined in the device object; returns a cudaError_t value (0 = success). */
typedef int (*ompgpu_launch_fn)(const ompgpu_launch_config *cfg, void **args);
/* Teams of `threads_per_team` threads (and `dyn_shmem` bytes of dynamic shared memory) that one
   SM holds at once for this kernel, from its register and shared-memory use (the CUDA occupancy
   calculator), and in *local_bytes the local memory a thread of it uses (registers spilled,
   stack); 0 when unknown. */
typedef int (*ompgpu_occupancy_fn)(int threads_per_team, unsigned dyn_shmem, int *local_bytes);

typedef struct ompgpu_kernel_desc {
  const char *name;          /* "__omp_offloading_main_l12" */
  const char *file; int line, col;   /* the target directive in the user's source */
  int mode;                  /* OMPGPU_MODE_* */
  ompgpu_launch_fn launch;   /* NULL when built with --offload=none: always host fallback */
  int default_threads;       /* threads per team the compiler prefers (0 = runtime decides); generic: workers + 32 */
  int max_threads;           /* launch bound of the kernel (0 = none) */
  long long static_teams;    /* > 0: number of teams the compiler computed (1 for a target without teams) */
  ompgpu_occupancy_fn occupancy;   /* NULL: the runtime guesses from the thread count alone */
  /* The same kernel compiled for more resident teams per SM (a launch bound that asks ptxas for
     fewer registers), NULL when there is none: the runtime launches it instead where it holds
     more teams at once and spills at most a little more (runtime/host/target.cpp). */
  const struct ompgpu_kernel_desc *dense;
  const char *construct;     /* "target teams distribute parallel for" (NULL: "target"): messages, OMPGPU_PROFILE */
  /* > 0: the kernel's inner loops may spread across the grid (runtime/device/spread.cuh); each
     launch gets this many zeroed bytes of scratch per team (ompgpu_launch_config.scratch) */
  long long scratch_per_team;
  /* NULL, or per argument (the MAP_ARG entries in order): k + 1 for the kernel's k-th pointer whose
     atomic updates blocks may sum (plan/combine.py), -1 for another pointer or mapped object, -2
     for one whose storage the runtime cannot tell, 0 for a value. The launch sets bit k of
     ompgpu_launch_config.combine where the k-th points into a mapping no other -1 or k' + 1
     argument points into, and none is -2 (runtime/host/target.cpp combine_mask). */
  const signed char *combine_roles;
  /* 1: the kernel's grid loop gives each team a tile of iterations at a time (a stencil's 8 x 32
     points), and the trip count the host passes counts whole tiles: a team per tile, in as many
     waves as that takes (no OMPGPU_GRID_WAVES limit; runtime/host/target.cpp teams_for) */
  int grid_tiles;
  /* > 0: a grid sized by the loop's trip count takes at most this many waves of resident teams,
     whatever OMPGPU_GRID_WAVES says; 0: OMPGPU_GRID_WAVES. 1 for a kernel whose teams each combine
     a reduction into the one variable and for a generic kernel: one wave, as a launch without a
     trip count takes, and fewer teams where the loop has fewer iterations than a wave has threads */
  int grid_waves;
} ompgpu_kernel_desc;

/* map-type bits */
#define OMPGPU_MAP_TO       0x001
#define OMPGPU_MAP_FROM     0x002
#define OMPGPU_MAP_ALWAYS   0x004
#define OMPGPU_MAP_DELETE   0x008
#define OMPGPU_MAP_PTR      0x010   /* base is a pointer variable's value; the kernel gets the translated pointer */
#define OMPGPU_MAP_LITERAL  0x020   /* pass by value (firstprivate scalar): args[i] = begin, nothing mapped */
#define OMPGPU_MAP_ARG      0x040   /* this entry is a kernel argument */
#define OMPGPU_MAP_IMPLICIT 0x080
#define OMPGPU_MAP_RELEASE  0x100   /* exit data release (refcount -1) */
#define OMPGPU_MAP_PRESENT  0x200   /* map(present: ...) must already be present */
#define OMPGPU_MAP_ATTACH_ONLY 0x400 /* firstprivate pointer: translated if present, else its own value (OpenMP 5.1) */
#define OMPGPU_MAP_ATTACH   0x800   /* pointer attachment (map of s.p[lo:n]): base = host address of the
                                       pointer s.p (inside a mapped struct), begin = first byte of the
                                       pointee section; after the construct's maps, the device copy of
                                       s.p is set to the device address of the section (NULL when it is
                                       not present). Host copies of s.p are never changed by copies back. */
#define OMPGPU_MAP_ALLOCATOR 0x1000 /* with LITERAL: uses_allocators(a(traits)) (OpenMP 5.0): the kernel's
                                       `a` is an allocator the runtime makes on the device for the launch
                                       from the traits array at base (size: how many traits) and
                                       destroys after it; begin is the host's `a` */
#define OMPGPU_MAP_POINTER_VALUE 0x2000 /* the item is a pointer variable mapped as an object (map(from:
                                       p), map(tofrom: p)): its copy to the device holds the device
                                       address where the host value points into mapped storage (else
                                       the value itself); its copy back brings the device's value,
                                       unless the region left the value it got (the host keeps its own) */
#define OMPGPU_MAP_PRIVATE 0x4000 /* with ARG: a firstprivate array of the target region, too large to pass
                                      by value: a device copy of its bytes [begin, begin + size) made for this
                                      launch (the region's one copy, which its teams share), the kernel's
                                      argument; nothing enters the present table; freed after the kernel */

#define OMPGPU_MAP_LOOP_COPY 0x8000 /* persistent loop (ompgpu_persistent_loop): a scalar whose device storage the
                                      loop keeps in cells of its own while it runs */

/* The `device` argument when the construct has no device clause: use the
   default-device ICV (OMP_DEFAULT_DEVICE / omp_set_default_device). Any other value is
   the clause's value: 0 .. omp_get_num_devices()-1 a GPU, omp_get_num_devices() (what
   omp_get_initial_device() returns) the host (host fallback / no-op), anything else an
   error. (So device(omp_initial_device), which is -1 too, means the default device.) */
#define OMPGPU_DEVICE_DEFAULT (-1LL)

typedef struct ompgpu_map_entry {
  void *base;        /* MAP_PTR / ATTACH_ONLY: the pointer value (e.g. a for a[0:n]); otherwise the object's address */
  void *begin;       /* first mapped byte */
  long long size;    /* bytes mapped (0 for LITERAL and ATTACH_ONLY) */
  int flags;
  const char *name;  /* the source text of the item, for diagnostics */
} ompgpu_map_entry;

typedef struct ompgpu_srcloc { const char *file; int line, col; const char *construct; } ompgpu_srcloc;

/* target region: maps, launches, unmaps. Returns 0 when the region ran on the device,
   1 when the caller must run the host fallback (if(false), no device, OMP_TARGET_OFFLOAD=DISABLED,
   launch == NULL, device clause naming the host). Nothing is mapped when it returns 1. */
/* Threads per team of an SPMD kernel whose combined parallel region has num_threads(nt):
   nt, or thread_limit when that is smaller (<= 0: no limit). */
#define OMPGPU_TEAM_SIZE(thread_limit, nt) \
  ((thread_limit) > 0 && (long long)(thread_limit) < (long long)(nt) ? (int)(thread_limit) : (int)(nt))
int  ompgpu_target(const ompgpu_kernel_desc *k, long long device, int if_cond,
                   int num_teams, int thread_limit, int n, ompgpu_map_entry *maps);
/* A host loop run as one persistent kernel (plan/persistent_loops.py): k is the loop's kernel,
   launched cooperatively once with every block resident; its parameters are the device addresses
   of the n entries (one pointer each, in order), their homes, the grid barrier's word, the presence
   bits of the entries and the loop's scalars (`state`, state_bytes bytes, copied in before and out
   after). An entry flagged OMPGPU_MAP_LOOP_COPY (a scalar) gets two cells in the loop's frame, its
   device storage while the loop runs; where it is present, its home is its device copy, whose value
   goes into the first cell before the launch and which the kernel updates at its end. Every other
   entry must be present. Returns 0 when the loop ran there, 1 when the caller
   must run the loop as written (no device, OMP_TARGET_OFFLOAD=DISABLED, an entry not present, no
   cooperative launch): nothing was done then. `iterations` > 0: the most iterations a region deals
   out over the grid, one a thread: no more teams are launched than they fill. */
int  ompgpu_persistent_loop(const ompgpu_kernel_desc *k, long long device, int n, ompgpu_map_entry *maps,
                            void *state, long long state_bytes, long long iterations);
/* The same for a kernel that is one loop dealt out over the grid, whose iteration count the
   host computed (trip_count >= 0): without num_teams / OMP_NUM_TEAMS the runtime launches
   enough teams for one iteration per thread. */
int  ompgpu_target_loop(const ompgpu_kernel_desc *k, long long device, int if_cond,
                        int num_teams, int thread_limit, long long trip_count, int n, ompgpu_map_entry *maps);
/* Iterations of `for (v = lb; v OP ub; v += st)` (OP: 0 <, 1 <=, 2 >, 3 >=, 4 !=), in 64 bits. */
static inline long long ompgpu_host_trip_count(long long lb, long long ub, long long st, int op) {
  if (st == 0) return 0;
  if (op == 1) ub += 1;
  if (op == 3) ub -= 1;
  if (op == 4 && (st > 0 ? ub <= lb : ub >= lb)) return 0;
  if (st > 0) return ub > lb ? (ub - lb + st - 1) / st : 0;
  return lb > ub ? (lb - ub - st - 1) / (-st) : 0;
}
static inline long long ompgpu_max_ll(long long a, long long b) { return a > b ? a : b; }
void ompgpu_target_data_begin(const ompgpu_srcloc *loc, long long device, int if_cond, int n, ompgpu_map_entry *maps);
void ompgpu_target_data_end  (const ompgpu_srcloc *loc, long long device, int if_cond, int n, ompgpu_map_entry *maps);
void ompgpu_target_update    (const ompgpu_srcloc *loc, long long device, int if_cond, int n, ompgpu_map_entry *maps); /* TO = update to, FROM = update from */
/* A `declare target` global variable: host copy, size, and a function that returns the
   address of its device copy on the current device. Called by generated constructors at
   program start; the runtime enters it into every device's present table as always
   present, so `target update` and maps of it find the device symbol. */
void ompgpu_register_global(void *host, long long size, void *(*device_address)(void), const char *name);
/* A `declare target link` global: like ompgpu_register_global, but the variable is not
   present until a map clause (or the implicit tofrom map of a target region that uses
   it) maps it; mapping copies to/from the device symbol by the usual reference-count
   rules, and unmapping leaves the symbol allocated. */
void ompgpu_register_link_global(void *host, long long size, void *(*device_address)(void), const char *name);
/* Interop objects (OpenMP 5.1; runtime/host/interop.cpp): the interop construct's init (kinds:
   1 target, 2 targetsync), use and destroy, and the objects a dispatch construct appends to a
   variant's arguments (append_args). */
void ompgpu_interop_init(void **obj, long long device, int kinds);
void ompgpu_interop_use(void *obj);
void ompgpu_interop_destroy(void **obj);
/* The functions of a `declare target ... indirect` directive (OpenMP 5.1) of one file: their
   host addresses, and a function of the file's device object that writes their device
   addresses on the current device in the same order (returns a cudaError_t value). Called by a
   generated constructor at program start. */
void ompgpu_register_indirect(const void *const *host_functions, int n, int (*device_addresses)(const void **out));
/* The current device's table of every registered indirect function, (host address, device
   address) pairs sorted by host address, in device memory: made at the first call for a device,
   then kept. Device code that calls through a function pointer looks the pointer up in it
   (runtime/device/indirect.cuh). Returns a cudaError_t value. */
int ompgpu_indirect_table(int device_num, const void **table, unsigned *count);
/* The device-scope ICVs that the environment sets for every device, which device code reads
   (omp_get_max_teams, omp_get_teams_thread_limit): icvs[0] = nteams-var (OMP_NUM_TEAMS),
   icvs[1] = teams-thread-limit-var (OMP_TEAMS_THREAD_LIMIT); 0 where unset. */
void ompgpu_device_teams_icvs(int icvs[2]);
void *ompgpu_get_device_ptr  (const ompgpu_srcloc *loc, long long device, void *host_ptr); /* use_device_ptr; NULL-safe */
/* target update of a section that is not contiguous: a[l0:n0:s0][l1:n1:s1]... of an array whose
   dimensions have dims[k] elements (dims[0] unused), elements of elem bytes from base. Each
   contiguous (or evenly strided) run is copied on its own; runs not present are skipped.
   flags: OMPGPU_MAP_TO (update to) or OMPGPU_MAP_FROM. */
void ompgpu_target_update_section(const ompgpu_srcloc *loc, long long device, int if_cond, int flags, void *base,
                                  long long elem, int ndims, const long long *dims, const long long *lower,
                                  const long long *length, const long long *stride, const char *name);

/* Host-side OpenMP device API. The user's program also links libgomp, which defines
   the omp_* names, so the compiler renames the user's calls to these. */
int   ompgpu_omp_get_num_devices(void);
int   ompgpu_omp_get_default_device(void);
void  ompgpu_omp_set_default_device(int device_num);
int   ompgpu_omp_get_initial_device(void);
int   ompgpu_omp_is_initial_device(void);
int   ompgpu_omp_get_device_num(void);
void *ompgpu_omp_target_alloc(size_t size, int device_num);
void  ompgpu_omp_target_free(void *device_ptr, int device_num);
int   ompgpu_omp_target_memcpy(void *dst, const void *src, size_t length, size_t dst_offset,
                               size_t src_offset, int dst_device_num, int src_device_num);
int   ompgpu_omp_target_is_present(const void *ptr, int device_num);
int   ompgpu_omp_target_associate_ptr(const void *host_ptr, const void *device_ptr, size_t size,
                                      size_t device_offset, int device_num);
int   ompgpu_omp_target_disassociate_ptr(const void *ptr, int device_num);
int   ompgpu_omp_target_memcpy_rect(void *dst, const void *src, size_t element_size, int num_dims,
                                    const size_t *volume, const size_t *dst_offsets, const size_t *src_offsets,
                                    const size_t *dst_dimensions, const size_t *src_dimensions,
                                    int dst_device_num, int src_device_num);
/* omp_get_mapped_ptr (5.1): the device address of a mapped host address, NULL where it is
   not mapped; the address itself for the host device. */
void *ompgpu_omp_get_mapped_ptr(const void *ptr, int device_num);
/* 0 where both are valid device numbers of a copy (the async copies check at the call). */
int   ompgpu_check_copy_devices(int dst_device_num, int src_device_num);
/* omp_target_memcpy_async and omp_target_memcpy_rect_async (5.1): defined in the host file
   that calls them (ompgpu_async.h), as tasks of the host compiler's OpenMP; the dependence
   objects are the caller's omp_depend_t array. */
int   ompgpu_omp_target_memcpy_async(void *dst, const void *src, size_t length, size_t dst_offset,
                                     size_t src_offset, int dst_device_num, int src_device_num, int depobj_count,
                                     void *depobj_list);
int   ompgpu_omp_target_memcpy_rect_async(void *dst, const void *src, size_t element_size, int num_dims,
                                          const size_t *volume, const size_t *dst_offsets,
                                          const size_t *src_offsets, const size_t *dst_dimensions,
                                          const size_t *src_dimensions, int dst_device_num, int src_device_num,
                                          int depobj_count, void *depobj_list);
/* `#pragma omp requires unified_shared_memory` in the program (called by a constructor of each
   file that has it): maps of variables that are not present neither allocate nor copy (the
   device uses the host's storage). Devices that can access pageable host memory reach it all;
   on others (with managed memory) the heap of the files that require it is CUDA managed
   memory: their host code calls these for malloc, calloc, realloc, aligned_alloc,
   posix_memalign and free (usm.cpp); the stacks of threads that launch regions and the
   program's static data are registered with CUDA. */
void ompgpu_require_unified_shared_memory(void);
void *ompgpu_usm_malloc(size_t size);
void *ompgpu_usm_calloc(size_t count, size_t size);
void *ompgpu_usm_realloc(void *p, size_t size);
void *ompgpu_usm_aligned_alloc(size_t align, size_t size);
int ompgpu_usm_posix_memalign(void **out, size_t align, size_t size);
void ompgpu_usm_free(void *p);

/* Device images (runtime/host/image.cpp): a file whose device code was compiled on its own
   carries it in its host object; its generated host code defines one
   ompgpu_image_kernel per kernel, and launch and occupancy stubs that call these. The runtime
   fills `module` and `function` (per CUDA device, the first OMPGPU_IMAGE_DEVICES: CUmodule,
   CUfunction) at the first need on a device. Returns as the stubs of nvcc's whole compile do:
   a cudaError_t value; teams per SM (0: unknown); a device address (NULL: none). */
enum { OMPGPU_IMAGE_DEVICES = 64, OMPGPU_IMAGE_MAX_PARAMS = 1024 };
typedef struct ompgpu_device_image {
  const unsigned char *data;   /* a cubin (NVRTC) or a fatbin (nvcc) */
  const char *ptx;             /* the cubin's PTX, for a GPU that cannot run it ("": none beside it) */
  int calls_indirect;          /* device code calls through function pointers: the runtime writes the
                                  device's table of indirect functions into the module before a launch */
  void *module[OMPGPU_IMAGE_DEVICES];
} ompgpu_device_image;
typedef struct ompgpu_image_kernel {
  ompgpu_device_image *image;
  const char *name;          /* the kernel's (extern "C") name in the image */
  unsigned params;           /* its parameters (packed teams: and the number of teams after them) */
  unsigned packed;           /* teams per block (0 or 1: a team per block) */
  unsigned team_threads;     /* packed: the team size it is compiled for */
  unsigned scratch;          /* 1: the launch's scratch follows the parameters (inner loops spread across the grid) */
  unsigned combine;          /* 1: the launch's mask of combined atomic updates is the last parameter */
  unsigned cooperative;      /* 1: launched cooperatively (every block resident: a persistent loop's kernel) */
  unsigned generic;          /* 1: a generic kernel: the launch's team_threads is the last parameter */
  void *function[OMPGPU_IMAGE_DEVICES];
} ompgpu_image_kernel;
int ompgpu_image_launch(ompgpu_image_kernel *k, const ompgpu_launch_config *cfg, void **args);
int ompgpu_image_occupancy(ompgpu_image_kernel *k, int threads_per_team, unsigned dyn_shmem, int *local_bytes);
void *ompgpu_image_global(ompgpu_device_image *image, const char *symbol);
/* Copies `bytes` bytes of the image's variable `symbol` on the current device to `out`; a
   cudaError_t value. */
int ompgpu_image_read(ompgpu_device_image *image, const char *symbol, void *out, size_t bytes);

/* The kernels of one translation unit (a generated constructor calls it before main). The
   runtime starts the devices at program start on a background thread: it creates the default
   device's context and loads these kernels' device code while the program's own start-up
   runs, so that the first target construct waits only for what is not ready yet
   (runtime/host/startup.cpp). Descriptors without device code (launch == NULL) are ignored. */
void ompgpu_register_kernels(const ompgpu_kernel_desc *const *kernels, int n);

/* Embedding, for a caller that loads compiled code and calls into it (the Python API): the
   entries that ompgpu/python_api/templates/entry.c.j2 generates call ompgpu_py_call
   (runtime/host/embedding.cpp, docs/CONTRACTS.md); it is declared there, not here. */
/* The runtime also defines these routines under their omp_* names, so that they win over
   libgomp's at link time for code that was not compiled by ompgpu (the executable's
   definitions come first); the ompgpu_omp_* names are what generated code calls. */

#ifdef __cplusplus
}
#endif


#endif /* OMPGPU_HOST_H */
