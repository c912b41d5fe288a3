// ompgpu host runtime: the OpenMP device-memory routines (omp_target_alloc, ...), under
// the names ompgpu_omp_* (libgomp, which every user program links, defines omp_*).
// Like OpenMP's routines they report failure by their return value, not by exiting.
#include "host_internal.hpp"

#include <climits>
#include <cstdlib>
#include <cstring>

using namespace ompgpu_host;

namespace {

constexpr int kHost = -1;
constexpr int kInvalid = -2;

// A device number of the memory routines: a GPU index, kHost, or kInvalid.
int api_device(int device_num) {
  int nd = usable_devices();
  if (device_num == -1 || device_num == nd) return kHost;   // omp_initial_device, or its number
  if (device_num < 0 || device_num > nd) return kInvalid;
  activate_device(device_num);   // its globals are in its present table from here on
  return device_num;
}

bool select_quiet(int d) {
  if (cudaSetDevice(d) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return true;
}

// Where OMPGPU_PROFILE counts the copies of omp_target_memcpy.
Loc memcpy_loc() {
  Loc loc;
  loc.construct = "omp_target_memcpy";
  return loc;
}

Device &device_of(int d) { return *rt().devices[static_cast<std::size_t>(d)]; }

}  // namespace

extern "C" void *ompgpu_omp_target_alloc(size_t size, int device_num) {
  int d = api_device(device_num);
  if (d == kInvalid || size == 0) return nullptr;
  if (d == kHost) return std::malloc(size);
  device_addresses_escape();   // the program may use device memory with CUDA of its own
  if (!select_quiet(d)) return nullptr;
  void *p = nullptr;
  // Under unified shared memory on a device without pageable memory access the host may use
  // the storage too (OpenMP 5.0 USM; SOLLVE's requires_unified_shared_memory_omp_target_alloc):
  // managed memory, which cudaFree frees as well.
  if (usm_managed() ? cudaMallocManaged(&p, size, cudaMemAttachGlobal) != cudaSuccess
                    : cudaMalloc(&p, size) != cudaSuccess) {
    (void)cudaGetLastError();
    return nullptr;
  }
  return p;
}

extern "C" void ompgpu_omp_target_free(void *device_ptr, int device_num) {
  if (!device_ptr) return;
  int d = api_device(device_num);
  if (d == kInvalid) return;
  if (d == kHost) {
    std::free(device_ptr);
    return;
  }
  if (!select_quiet(d)) return;
  if (cudaFree(device_ptr) != cudaSuccess) (void)cudaGetLastError();
}

extern "C" int ompgpu_omp_target_memcpy(void *dst, const void *src, size_t length, size_t dst_offset,
                                        size_t src_offset, int dst_device_num, int src_device_num) {
  int dd = api_device(dst_device_num), sd = api_device(src_device_num);
  if (dd == kInvalid || sd == kInvalid) return 1;
  if (length == 0) return 0;
  if (!dst || !src) return 1;
  char *to = static_cast<char *>(dst) + dst_offset;
  const char *from = static_cast<const char *>(src) + src_offset;
  cudaError_t err = cudaSuccess;
  if (dd == kHost && sd == kHost) {
    std::memmove(to, from, length);
    return 0;
  } else if (dd == kHost) {
    if (!select_quiet(sd)) return 1;
    err = copy_host_device(memcpy_loc(), sd, thread_stream(Loc(), sd), to, from, length, cudaMemcpyDeviceToHost);
  } else if (sd == kHost) {
    if (!select_quiet(dd)) return 1;
    err = copy_host_device(memcpy_loc(), dd, thread_stream(Loc(), dd), to, from, length, cudaMemcpyHostToDevice);
  } else if (dd == sd) {
    if (!select_quiet(dd)) return 1;
    err = cudaMemcpy(to, from, length, cudaMemcpyDeviceToDevice);
  } else {   // two GPUs: through a host buffer
    void *tmp = std::malloc(length);
    if (!tmp) return 1;
    if (select_quiet(sd)) err = copy_host_device(memcpy_loc(), sd, thread_stream(Loc(), sd), tmp, from, length, cudaMemcpyDeviceToHost);
    else err = cudaErrorInvalidDevice;
    if (err == cudaSuccess) {
      if (select_quiet(dd)) err = copy_host_device(memcpy_loc(), dd, thread_stream(Loc(), dd), to, tmp, length, cudaMemcpyHostToDevice);
      else err = cudaErrorInvalidDevice;
    }
    std::free(tmp);
  }
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    return 1;
  }
  return 0;
}

extern "C" int ompgpu_omp_target_is_present(const void *ptr, int device_num) {
  int d = api_device(device_num);
  if (d == kInvalid) return 0;
  if (d == kHost) return 1;
  if (!ptr) return 0;
  std::lock_guard<std::mutex> g(rt().mu);
  Mapping *m = nullptr;
  return device_of(d).table.find(reinterpret_cast<std::uintptr_t>(ptr), 0, &m) == Lookup::Contained &&
         !(m->link && m->refcount == 0);
}

// OpenMP 5.1: whether device code on device_num can use the storage at ptr directly: always on
// the host; on a GPU where it reaches pageable host memory (HMM, ATS), or where the storage is
// memory CUDA made for it (managed, or pinned host memory mapped into the device).
extern "C" int omp_target_is_accessible(const void *ptr, size_t size, int device_num) {
  (void)size;
  int d = api_device(device_num);
  if (d == kInvalid) return 0;
  if (d == kHost) return 1;
  if (!ptr) return 0;
  if (device_of(d).pageable_memory_access) return 1;
  cudaPointerAttributes a;
  if (cudaPointerGetAttributes(&a, ptr) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return a.type == cudaMemoryTypeManaged || (a.type == cudaMemoryTypeHost && a.devicePointer != nullptr);
}

extern "C" int ompgpu_omp_target_associate_ptr(const void *host_ptr, const void *device_ptr, size_t size,
                                               size_t device_offset, int device_num) {
  int d = api_device(device_num);
  if (d < 0 || !host_ptr || !device_ptr || size == 0) return 1;
  std::uintptr_t h = reinterpret_cast<std::uintptr_t>(host_ptr);
  std::uintptr_t dv = reinterpret_cast<std::uintptr_t>(device_ptr) + device_offset;
  std::lock_guard<std::mutex> g(rt().mu);
  Device &dev = device_of(d);
  Mapping *m = nullptr;
  Lookup r = dev.table.find(h, size, &m);
  if (r == Lookup::Contained)   // already associated the same way: success; anything else fails
    return m->associated && m->translate(h) == dv ? 0 : 1;
  if (r == Lookup::Overlap) return 1;
  Mapping nm;
  nm.hbegin = h;
  nm.size = size;
  nm.dbegin = dv;
  nm.refcount = 1;
  nm.associated = true;
  nm.name = "omp_target_associate_ptr";
  dev.table.insert(nm);
  return 0;
}

extern "C" int ompgpu_omp_target_disassociate_ptr(const void *ptr, int device_num) {
  int d = api_device(device_num);
  if (d < 0 || !ptr) return 1;
  std::uintptr_t h = reinterpret_cast<std::uintptr_t>(ptr);
  std::lock_guard<std::mutex> g(rt().mu);
  Device &dev = device_of(d);
  Mapping *m = nullptr;
  if (dev.table.find(h, 0, &m) != Lookup::Contained || !m->associated || m->hbegin != h) return 1;
  dev.table.erase(m);
  return 0;
}

extern "C" void *ompgpu_omp_get_mapped_ptr(const void *ptr, int device_num) {
  int d = api_device(device_num);
  if (d == kInvalid || !ptr) return nullptr;
  if (d == kHost) return const_cast<void *>(ptr);
  device_addresses_escape();
  std::uintptr_t h = reinterpret_cast<std::uintptr_t>(ptr);
  std::lock_guard<std::mutex> g(rt().mu);
  Mapping *m = nullptr;
  if (device_of(d).table.find(h, 0, &m) != Lookup::Contained || (m->link && m->refcount == 0)) return nullptr;
  return reinterpret_cast<void *>(m->translate(h));
}

extern "C" int ompgpu_check_copy_devices(int dst_device_num, int src_device_num) {
  return api_device(dst_device_num) == kInvalid || api_device(src_device_num) == kInvalid;
}

// ------------------------------------------------------------------ omp_target_memcpy_rect

namespace {

// Copies one sub-volume dimension by dimension; the innermost dimension is contiguous.
int copy_rect(char *dst, const char *src, size_t elem, int dims, const size_t *volume, const size_t *doff,
              const size_t *soff, const size_t *ddim, const size_t *sdim, int dd, int sd) {
  // byte size of one step in dimension 0 of each array
  size_t dstride = elem, sstride = elem;
  for (int i = 1; i < dims; ++i) {
    dstride *= ddim[i];
    sstride *= sdim[i];
  }
  if (dims == 1)
    return ompgpu_omp_target_memcpy(dst, src, volume[0] * elem, doff[0] * elem, soff[0] * elem, dd, sd);
  for (size_t i = 0; i < volume[0]; ++i) {
    int r = copy_rect(dst + (doff[0] + i) * dstride, src + (soff[0] + i) * sstride, elem, dims - 1, volume + 1,
                      doff + 1, soff + 1, ddim + 1, sdim + 1, dd, sd);
    if (r) return r;
  }
  return 0;
}

}  // namespace

extern "C" int ompgpu_omp_target_memcpy_rect(void *dst, const void *src, size_t element_size, int num_dims,
                                             const size_t *volume, const size_t *dst_offsets,
                                             const size_t *src_offsets, const size_t *dst_dimensions,
                                             const size_t *src_dimensions, int dst_device_num, int src_device_num) {
  if (!dst && !src) return INT_MAX;   // the query form: any number of dimensions
  if (!dst || !src || num_dims < 1 || element_size == 0 || !volume || !dst_offsets || !src_offsets ||
      !dst_dimensions || !src_dimensions)
    return 1;
  if (api_device(dst_device_num) == kInvalid || api_device(src_device_num) == kInvalid) return 1;
  for (int i = 0; i < num_dims; ++i) {
    if (volume[i] == 0) return 0;
    if (dst_offsets[i] + volume[i] > dst_dimensions[i] || src_offsets[i] + volume[i] > src_dimensions[i]) return 1;
  }
  return copy_rect(static_cast<char *>(dst), static_cast<const char *>(src), element_size, num_dims, volume,
                   dst_offsets, src_offsets, dst_dimensions, src_dimensions, dst_device_num, src_device_num);
}

// ------------------------------------------------------------------ the omp_* names
// Defined here (and in device.cpp) so that code not compiled by ompgpu, which calls the
// omp_* names, gets this runtime's routines rather than libgomp's.

extern "C" void *omp_target_alloc(size_t size, int device_num) { return ompgpu_omp_target_alloc(size, device_num); }
extern "C" void omp_target_free(void *device_ptr, int device_num) { ompgpu_omp_target_free(device_ptr, device_num); }
extern "C" int omp_target_memcpy(void *dst, const void *src, size_t length, size_t dst_offset, size_t src_offset,
                                 int dst_device_num, int src_device_num) {
  return ompgpu_omp_target_memcpy(dst, src, length, dst_offset, src_offset, dst_device_num, src_device_num);
}
extern "C" int omp_target_memcpy_rect(void *dst, const void *src, size_t element_size, int num_dims,
                                      const size_t *volume, const size_t *dst_offsets, const size_t *src_offsets,
                                      const size_t *dst_dimensions, const size_t *src_dimensions, int dst_device_num,
                                      int src_device_num) {
  return ompgpu_omp_target_memcpy_rect(dst, src, element_size, num_dims, volume, dst_offsets, src_offsets,
                                       dst_dimensions, src_dimensions, dst_device_num, src_device_num);
}
extern "C" int omp_target_is_present(const void *ptr, int device_num) { return ompgpu_omp_target_is_present(ptr, device_num); }
extern "C" void *omp_get_mapped_ptr(const void *ptr, int device_num) { return ompgpu_omp_get_mapped_ptr(ptr, device_num); }
extern "C" int omp_target_associate_ptr(const void *host_ptr, const void *device_ptr, size_t size,
                                        size_t device_offset, int device_num) {
  return ompgpu_omp_target_associate_ptr(host_ptr, device_ptr, size, device_offset, device_num);
}
extern "C" int omp_target_disassociate_ptr(const void *ptr, int device_num) {
  return ompgpu_omp_target_disassociate_ptr(ptr, device_num);
}
