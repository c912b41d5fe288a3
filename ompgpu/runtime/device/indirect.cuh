// ompgpu device runtime: calls through function pointers (OpenMP 5.1 `declare target ...
// indirect`).
//
// A function pointer that host code made holds the host's address of the function; device code
// must call the device's copy. The host runtime keeps one table per device of (host address,
// device address) pairs of every indirect function of the program, sorted by host address
// (runtime/host/indirect.cpp). Each translation unit whose device code calls through pointers
// includes this header: its launch stubs tell its copy of the table's place once per device,
// and every call through a pointer looks the pointer up first. A pointer that is not in the
// table (one that device code took itself: already a device address) is called as it is.
#ifndef OMPGPU_INDIRECT_CUH
#define OMPGPU_INDIRECT_CUH

#include "config.cuh"

struct ompgpu_indirect_entry {
  const void *host;
  const void *device;
};

// The table's place on this device. In a device image (one module per file) the runtime finds
// them by these names and writes them before the module's first launch (runtime/host/image.cpp).
#ifdef OMPGPU_DEVICE_IMAGE
extern "C" {
OMPGPU_CONSTANT const ompgpu_indirect_entry *ompgpu_indirect_entries;
OMPGPU_CONSTANT unsigned ompgpu_indirect_count;
}
#else
static OMPGPU_CONSTANT const ompgpu_indirect_entry *ompgpu_indirect_entries;
static OMPGPU_CONSTANT unsigned ompgpu_indirect_count;
#endif

template <class F>
OMPGPU_DEV F ompgpu_indirect_callee(F fn) {
  const void *key = (const void *)fn;
  unsigned lo = 0, hi = ompgpu_indirect_count;
  while (lo < hi) {   // the first entry whose host address is not below the key
    const unsigned mid = lo + (hi - lo) / 2;
    if (ompgpu_indirect_entries[mid].host < key) lo = mid + 1;
    else hi = mid;
  }
  if (lo < ompgpu_indirect_count && ompgpu_indirect_entries[lo].host == key)
    return (F)ompgpu_indirect_entries[lo].device;
  return fn;
}

#ifndef __CUDACC_RTC__
// The host runtime's table of a device (runtime/host/indirect.cpp; ompgpu_host.h declares it too).
extern "C" int ompgpu_indirect_table(int device_num, const void **table, unsigned *count);

// Host side: tells this translation unit's copy of the table's place on the current device,
// once per device (several host threads may race here on the first launch; they write the
// same values).
static inline int ompgpu_set_indirect_table(int device_num) {
  static volatile bool written[OMPGPU_TRACKED_DEVICES];
  return ompgpu_once_per_device(written, device_num, [device_num] {
    const void *table = 0;
    unsigned count = 0;
    int err = ompgpu_indirect_table(device_num, &table, &count);
    if (err == 0) err = (int)cudaMemcpyToSymbol(ompgpu_indirect_entries, &table, sizeof table);
    if (err == 0) err = (int)cudaMemcpyToSymbol(ompgpu_indirect_count, &count, sizeof count);
    return err;
  });
}
#endif

#endif  // OMPGPU_INDIRECT_CUH
