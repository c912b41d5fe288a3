// ompgpu host runtime: `requires unified_shared_memory` on GPUs that cannot access pageable host
// memory (cudaDevAttrPageableMemoryAccess 0: the H100s and H200s of most Linux kernels), as
// nvc's managed-memory mode does it.
//
// - The heap: in a file that requires unified shared memory, ompgpu's host code calls
//   ompgpu_usm_malloc/calloc/realloc/aligned_alloc/posix_memalign/free for the C library's
//   names (codegen/host/program.py). These allocate CUDA managed memory, which host and device
//   both reach (pages migrate on demand), and keep a table of their blocks: free and realloc
//   of memory that other code allocated (strdup, a library) go to the C library.
// - The stack and static data: pinned and mapped for the device (cudaHostRegister; with
//   unified addressing a registered page has the same address on the device, which
//   cudaDevAttrCanUseHostPointerForRegisteredMem says): each thread's stack from where it
//   launches a region up to its top (lower parts as a later launch stands lower), and the
//   program's writable segments once. The device reaches them over the bus: correct, not fast.
// - Memory that neither covers (the heap of code that ompgpu did not compile, other threads'
//   stacks) faults on the device; the kernel's error says so (usm_fault_note).
//
// On devices that can access pageable memory, and without devices, none of this applies:
// the allocation functions are the C library's.
#include "host_internal.hpp"

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <link.h>
#include <pthread.h>
#include <unordered_map>

namespace ompgpu_host {

namespace {

struct ManagedBlock {
  void *base;          // what cudaMallocManaged returned (the user's pointer may be aligned past it)
  std::size_t size;    // the user's size
};

std::mutex g_heap_mu;
std::unordered_map<void *, ManagedBlock> &heap_blocks() {
  static auto *blocks = new std::unordered_map<void *, ManagedBlock>();   // never destroyed: free may run at exit
  return *blocks;
}

const std::uintptr_t kPage = 4096;
std::uintptr_t page_floor(std::uintptr_t a) { return a & ~(kPage - 1); }
std::uintptr_t page_ceil(std::uintptr_t a) { return (a + kPage - 1) & ~(kPage - 1); }

// Registers [lo, hi) for the devices; false (and the error cleared) where CUDA refuses.
bool register_range(std::uintptr_t lo, std::uintptr_t hi, const char *what) {
  if (hi <= lo) return true;
  cudaError_t err = cudaHostRegister(reinterpret_cast<void *>(lo), hi - lo, cudaHostRegisterPortable |
                                                                             cudaHostRegisterMapped);
  if (err == cudaSuccess) return true;
  (void)cudaGetLastError();
  info(Loc(), "unified shared memory: %s (%zu bytes at %p) could not be registered for the devices: %s", what,
       static_cast<std::size_t>(hi - lo), reinterpret_cast<void *>(lo), cuda_error_text(err).c_str());
  return false;
}

// The writable segments of the program (not of shared libraries), less the part that becomes
// read-only after relocation (PT_GNU_RELRO), which cannot be pinned for writing.
int register_program_segments(struct dl_phdr_info *info_, std::size_t, void *) {
  std::uintptr_t relro_lo = 0, relro_hi = 0;
  for (int i = 0; i < info_->dlpi_phnum; ++i) {
    const ElfW(Phdr) &p = info_->dlpi_phdr[i];
    if (p.p_type == PT_GNU_RELRO) {
      relro_lo = page_floor(info_->dlpi_addr + p.p_vaddr);
      relro_hi = page_ceil(info_->dlpi_addr + p.p_vaddr + p.p_memsz);
    }
  }
  for (int i = 0; i < info_->dlpi_phnum; ++i) {
    const ElfW(Phdr) &p = info_->dlpi_phdr[i];
    if (p.p_type != PT_LOAD || !(p.p_flags & PF_W)) continue;
    std::uintptr_t lo = page_floor(info_->dlpi_addr + p.p_vaddr);
    std::uintptr_t hi = page_ceil(info_->dlpi_addr + p.p_vaddr + p.p_memsz);
    if (relro_hi > lo && relro_lo < hi) {   // the relocation-read-only part stays out
      if (relro_lo > lo) register_range(lo, relro_lo, "static data");
      lo = relro_hi;
    }
    register_range(lo, hi, "static data");
  }
  return 1;   // the first object is the program
}

thread_local std::uintptr_t t_stack_low = 0;   // the registered part of this thread's stack: [low, top)
thread_local std::uintptr_t t_stack_top = 0;

}  // namespace

bool usm_managed() { return unified_shared_memory() && rt().available && rt().usm_managed; }

void usm_reach_stack_and_statics() {
  static std::once_flag statics;
  std::call_once(statics, [] { dl_iterate_phdr(register_program_segments, nullptr); });
  char here;
  std::uintptr_t sp = page_floor(reinterpret_cast<std::uintptr_t>(&here));
  if (t_stack_top == 0) {
    pthread_attr_t a;
    void *addr = nullptr;
    std::size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &a) != 0) return;
    pthread_attr_getstack(&a, &addr, &size);
    pthread_attr_destroy(&a);
    t_stack_top = page_ceil(reinterpret_cast<std::uintptr_t>(addr) + size);
    t_stack_low = t_stack_top;
  }
  if (sp >= t_stack_low) return;
  // Where the stack's mapping ends below `sp` is the kernel's business: only what is in use.
  if (register_range(sp, t_stack_low, "the stack")) t_stack_low = sp;
}

const char *usm_fault_note() {
  return "the program requires unified_shared_memory: the device reaches the heap that code compiled by ompgpu "
         "allocates (CUDA managed memory), the program's static data and the stacks of threads that launched "
         "target regions; not memory that other libraries allocated";
}

}  // namespace ompgpu_host

using namespace ompgpu_host;

namespace {

// Managed memory of `size` bytes aligned to `align` (a power of two), entered in the table.
void *managed_alloc(std::size_t size, std::size_t align) {
  std::size_t extra = align > 256 ? align : 0;   // cudaMallocManaged aligns to 256 at least
  void *base = nullptr;
  if (cudaMallocManaged(&base, (size ? size : 1) + extra, cudaMemAttachGlobal) != cudaSuccess) {
    (void)cudaGetLastError();
    errno = ENOMEM;
    return nullptr;
  }
  void *p = extra ? reinterpret_cast<void *>((reinterpret_cast<std::uintptr_t>(base) + align - 1) & ~(align - 1))
                  : base;
  std::lock_guard<std::mutex> g(g_heap_mu);
  heap_blocks()[p] = ManagedBlock{base, size};
  return p;
}

// The table's block of `p`, removed from it; false where `p` is not managed memory of ours.
bool take_block(void *p, ManagedBlock *out) {
  std::lock_guard<std::mutex> g(g_heap_mu);
  auto it = heap_blocks().find(p);
  if (it == heap_blocks().end()) return false;
  *out = it->second;
  heap_blocks().erase(it);
  return true;
}

bool managed_heap() {
  ompgpu_require_unified_shared_memory();   // (only files that require it call these: before its constructor too)
  return usm_managed();
}

}  // namespace

extern "C" void *ompgpu_usm_malloc(size_t size) {
  return managed_heap() ? managed_alloc(size, 1) : std::malloc(size);
}

extern "C" void *ompgpu_usm_calloc(size_t count, size_t size) {
  if (!managed_heap()) return std::calloc(count, size);
  if (size && count > SIZE_MAX / size) {
    errno = ENOMEM;
    return nullptr;
  }
  void *p = managed_alloc(count * size, 1);
  if (p) std::memset(p, 0, count * size);
  return p;
}

extern "C" void *ompgpu_usm_aligned_alloc(size_t align, size_t size) {
  if (!managed_heap()) return std::aligned_alloc(align, size);
  if (align == 0 || (align & (align - 1))) {
    errno = EINVAL;
    return nullptr;
  }
  return managed_alloc(size, align);
}

extern "C" int ompgpu_usm_posix_memalign(void **out, size_t align, size_t size) {
  if (!managed_heap()) return posix_memalign(out, align, size);
  if (align < sizeof(void *) || (align & (align - 1))) return EINVAL;
  void *p = managed_alloc(size, align);
  if (!p) return ENOMEM;
  *out = p;
  return 0;
}

extern "C" void ompgpu_usm_free(void *p) {
  ManagedBlock b;
  if (!p) return;
  if (take_block(p, &b)) {
    if (cudaFree(b.base) != cudaSuccess) (void)cudaGetLastError();
    return;
  }
  std::free(p);   // not ours: the C library's (strdup, a library), or allocated before any device
}

extern "C" void *ompgpu_usm_realloc(void *p, size_t size) {
  ManagedBlock b;
  if (!p) return ompgpu_usm_malloc(size);
  {
    std::lock_guard<std::mutex> g(g_heap_mu);
    auto it = heap_blocks().find(p);
    if (it == heap_blocks().end()) return std::realloc(p, size);   // not ours
    b = it->second;
  }
  void *q = managed_alloc(size, 1);
  if (!q) return nullptr;   // (p stays valid, as realloc leaves it)
  std::memcpy(q, p, b.size < size ? b.size : size);
  ompgpu_usm_free(p);
  return q;
}
