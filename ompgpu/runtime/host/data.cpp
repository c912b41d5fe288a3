// ompgpu host runtime: the present table (one per device, reference counted) and the
// data-mapping constructs: target data, target enter/exit data, target update,
// use_device_ptr.
//
// Semantics (OpenMP 4.5/5.x): on entry to a construct a list item that is not present
// is allocated (and copied to the device for to/tofrom) with reference count 1; one that
// is present only gets its reference count raised (copied only with `always`). On exit
// the count drops by one (`delete` sets it to 0, `release` just decrements); `from`
// items are copied back when it reaches 0 (or always with `always`), then the device
// memory is freed. A list item that lies inside a present mapping (an array sub-section)
// is translated into it; one that partially overlaps a mapping is an error. Within one
// construct a mapping's count changes at most once, however many of its items name it.
#include "host_internal.hpp"

#include <algorithm>
#include <iterator>

namespace ompgpu_host {

// ------------------------------------------------------------------ PresentTable

Lookup PresentTable::find(std::uintptr_t b, std::size_t size, Mapping **m) {
  *m = nullptr;
  auto it = table_.upper_bound(b);   // first mapping that starts after b
  if (it != table_.begin()) {
    Mapping &p = std::prev(it)->second;
    if (b >= p.hbegin && b < p.hend()) {
      *m = &p;
      return size <= p.hend() - b ? Lookup::Contained : Lookup::Overlap;
    }
  }
  if (size > 0 && it != table_.end() && it->second.hbegin - b < size) {
    *m = &it->second;   // [b, b+size) starts before this mapping and reaches into it
    return Lookup::Overlap;
  }
  return Lookup::NotPresent;
}

Mapping *PresentTable::insert(const Mapping &m) {
  auto r = table_.emplace(m.hbegin, m);
  return &r.first->second;
}

void PresentTable::erase(Mapping *m) { table_.erase(m->hbegin); }

// ------------------------------------------------------------------ helpers

namespace {

inline const char *item_name(const ompgpu_map_entry &e) { return e.name ? e.name : "<unnamed>"; }
inline std::uintptr_t addr(const void *p) { return reinterpret_cast<std::uintptr_t>(p); }
inline void *ptr(std::uintptr_t a) { return reinterpret_cast<void *>(a); }

// Entries that occupy device memory (LITERAL and ATTACH_ONLY never do).
inline bool is_mapped_item(const ompgpu_map_entry &e) {
  return !(e.flags & (OMPGPU_MAP_LITERAL | OMPGPU_MAP_ATTACH_ONLY));
}

std::size_t item_size(const Loc &loc, const ompgpu_map_entry &e) {
  if (e.size < 0) fatal(loc, "negative size (%lld bytes) in the map of '%s'", e.size, item_name(e));
  if (e.size > 0 && !e.begin) fatal(loc, "map of '%s' (%lld bytes) at a null address", item_name(e), e.size);
  return static_cast<std::size_t>(e.size);
}

bool contains(const std::vector<Mapping *> &v, const Mapping *m) {
  return std::find(v.begin(), v.end(), m) != v.end();
}

[[noreturn]] void overlap_error(const Loc &loc, const char *verb, const ompgpu_map_entry &e, const Mapping *m) {
  fatal(loc, "%s of '%s' extends beyond the mapped section '%s'", verb, item_name(e), m->name.c_str());
}

void copy_to_device(Device &dev, const Loc &loc, const ompgpu_map_entry &e, const Mapping *m) {
  std::uintptr_t b = addr(e.begin);
  std::size_t s = static_cast<std::size_t>(e.size);
  cudaError_t err = cudaMemcpy(ptr(m->translate(b)), e.begin, s, cudaMemcpyHostToDevice);
  if (err != cudaSuccess)
    cuda_fatal(loc, err, strprintf("copy of '%s' to device", item_name(e)));
  info(loc, "copy to device '%s' (%zu bytes)", item_name(e), s);
  (void)dev;
}

void copy_from_device(Device &dev, const Loc &loc, const ompgpu_map_entry &e, const Mapping *m) {
  std::uintptr_t b = addr(e.begin);
  std::size_t s = static_cast<std::size_t>(e.size);
  cudaError_t err = cudaMemcpy(e.begin, ptr(m->translate(b)), s, cudaMemcpyDeviceToHost);
  if (err != cudaSuccess) {
    std::vector<std::string> notes;
    if (is_kernel_fault(err))
      notes.push_back("the error comes from an earlier kernel on this device");
    cuda_fatal(loc, err, strprintf("copy of '%s' from device", item_name(e)), notes);
  }
  info(loc, "copy from device '%s' (%zu bytes)", item_name(e), s);
  (void)dev;
}

Mapping *allocate(Device &dev, const Loc &loc, const ompgpu_map_entry &e, std::size_t s) {
  void *p = nullptr;
  cudaError_t err = cudaMalloc(&p, s);
  if (err != cudaSuccess) {
    std::vector<std::string> notes;
    if (err == cudaErrorMemoryAllocation)
      notes.push_back(strprintf("out of device memory (device %d '%s' has %zu bytes in total)", dev.id,
                                dev.name.c_str(), dev.total_mem));
    cuda_fatal(loc, err, strprintf("allocation of %zu bytes for '%s'", s, item_name(e)), notes);
  }
  info(loc, "alloc '%s' (%zu bytes)", item_name(e), s);
  Mapping m;
  m.hbegin = addr(e.begin);
  m.size = s;
  m.dbegin = addr(p);
  m.dalloc = addr(p);
  m.refcount = 1;
  m.name = item_name(e);
  return dev.table.insert(m);
}

void release(Device &dev, const Loc &loc, Mapping *m) {
  cudaError_t err = cudaFree(ptr(m->dalloc));
  if (err != cudaSuccess)
    cuda_fatal(loc, err, strprintf("freeing the device memory of '%s'", m->name.c_str()));
  info(loc, "free '%s' (%zu bytes)", m->name.c_str(), m->size);
  dev.table.erase(m);
}

}  // namespace

// ------------------------------------------------------------------ mapping

void map_enter(Device &dev, const Loc &loc, int n, const ompgpu_map_entry *maps) {
  std::vector<Mapping *> created;   // allocated by this construct
  std::vector<Mapping *> counted;   // already present; count raised by this construct
  for (int i = 0; i < n; ++i) {
    const ompgpu_map_entry &e = maps[i];
    if (!is_mapped_item(e)) continue;
    std::size_t s = item_size(loc, e);
    Mapping *m = nullptr;
    Lookup r = dev.table.find(addr(e.begin), s, &m);
    if (s == 0) {   // zero-length section: nothing to allocate; translated if inside a mapping
      if ((e.flags & OMPGPU_MAP_PRESENT) && r != Lookup::Contained)
        fatal(loc, "'%s' is not present on device %d (map with the 'present' modifier)", item_name(e), dev.id);
      continue;
    }
    if (r == Lookup::Overlap) overlap_error(loc, "map", e, m);
    if (r == Lookup::Contained) {
      bool is_new = contains(created, m);
      if (!is_new && !contains(counted, m)) {
        if (!m->associated) ++m->refcount;
        counted.push_back(m);
      }
      if ((e.flags & OMPGPU_MAP_TO) && (is_new || (e.flags & OMPGPU_MAP_ALWAYS))) copy_to_device(dev, loc, e, m);
      continue;
    }
    if (e.flags & OMPGPU_MAP_PRESENT)
      fatal(loc, "'%s' is not present on device %d (map with the 'present' modifier)", item_name(e), dev.id);
    m = allocate(dev, loc, e, s);
    created.push_back(m);
    if (e.flags & OMPGPU_MAP_TO) copy_to_device(dev, loc, e, m);
  }
}

void map_exit(Device &dev, const Loc &loc, int n, const ompgpu_map_entry *maps) {
  std::vector<Mapping *> seen;   // mappings whose count this construct lowered
  // 1. reference counts
  for (int i = 0; i < n; ++i) {
    const ompgpu_map_entry &e = maps[i];
    if (!is_mapped_item(e)) continue;
    std::size_t s = item_size(loc, e);
    if (s == 0) continue;
    Mapping *m = nullptr;
    Lookup r = dev.table.find(addr(e.begin), s, &m);
    if (r == Lookup::NotPresent) continue;   // e.g. deleted by an exit data inside the region
    if (r == Lookup::Overlap) overlap_error(loc, "unmap", e, m);
    if (m->associated) continue;             // omp_target_associate_ptr: infinite count
    if (e.flags & OMPGPU_MAP_DELETE) m->refcount = 0;
    else if (!contains(seen, m) && m->refcount > 0) --m->refcount;
    if (!contains(seen, m)) seen.push_back(m);
  }
  // 2. copies back (before anything is freed: two items may share a mapping)
  for (int i = 0; i < n; ++i) {
    const ompgpu_map_entry &e = maps[i];
    if (!is_mapped_item(e) || !(e.flags & OMPGPU_MAP_FROM) || e.size <= 0) continue;
    if (e.flags & OMPGPU_MAP_DELETE) continue;
    Mapping *m = nullptr;
    if (dev.table.find(addr(e.begin), static_cast<std::size_t>(e.size), &m) != Lookup::Contained) continue;
    bool last = !m->associated && m->refcount == 0;
    if (last || (e.flags & OMPGPU_MAP_ALWAYS)) copy_from_device(dev, loc, e, m);
  }
  // 3. frees
  for (Mapping *m : seen)
    if (m->refcount == 0) release(dev, loc, m);
}

std::uintptr_t translate_entry(Device &dev, const Loc &loc, const ompgpu_map_entry &e) {
  (void)loc;
  std::uintptr_t b = addr(e.begin);
  if (!b) return 0;
  Mapping *m = nullptr;
  if (dev.table.find(b, 0, &m) != Lookup::Contained) return 0;
  return m->translate(b) - (b - addr(e.base));
}

}  // namespace ompgpu_host

// ------------------------------------------------------------------ C API: data constructs
using namespace ompgpu_host;

namespace {

// The device for a data construct, or nullptr when it is a no-op (if(false), host
// fallback). Selects the device for this thread.
Device *data_device(const Loc &loc, long long device, int if_cond) {
  if (!if_cond) return nullptr;
  int d = resolve_device(loc, device);
  if (d < 0) return nullptr;
  select_device(loc, d);
  return rt().devices[static_cast<std::size_t>(d)];
}

}  // namespace

extern "C" void ompgpu_target_data_begin(const ompgpu_srcloc *l, long long device, int if_cond, int n,
                                         ompgpu_map_entry *maps) {
  Loc loc = make_loc(l, "target data");
  Device *dev = data_device(loc, device, if_cond);
  if (!dev || n <= 0) return;
  std::lock_guard<std::mutex> g(rt().mu);
  map_enter(*dev, loc, n, maps);
}

extern "C" void ompgpu_target_data_end(const ompgpu_srcloc *l, long long device, int if_cond, int n,
                                       ompgpu_map_entry *maps) {
  Loc loc = make_loc(l, "target data");
  Device *dev = data_device(loc, device, if_cond);
  if (!dev || n <= 0) return;
  std::lock_guard<std::mutex> g(rt().mu);
  map_exit(*dev, loc, n, maps);
}

extern "C" void ompgpu_target_update(const ompgpu_srcloc *l, long long device, int if_cond, int n,
                                     ompgpu_map_entry *maps) {
  Loc loc = make_loc(l, "target update");
  Device *dev = data_device(loc, device, if_cond);
  if (!dev || n <= 0) return;
  std::lock_guard<std::mutex> g(rt().mu);
  for (int i = 0; i < n; ++i) {
    const ompgpu_map_entry &e = maps[i];
    if (!is_mapped_item(e)) continue;
    std::size_t s = item_size(loc, e);
    if (s == 0) continue;
    Mapping *m = nullptr;
    Lookup r = dev->table.find(addr(e.begin), s, &m);
    if (r == Lookup::NotPresent) continue;   // not present: skipped (OpenMP 5.x)
    if (r == Lookup::Overlap) overlap_error(loc, "update", e, m);
    if (e.flags & OMPGPU_MAP_TO) copy_to_device(*dev, loc, e, m);
    if (e.flags & OMPGPU_MAP_FROM) copy_from_device(*dev, loc, e, m);
  }
}

extern "C" void *ompgpu_get_device_ptr(const ompgpu_srcloc *l, long long device, void *host_ptr) {
  if (!host_ptr) return nullptr;
  Loc loc = make_loc(l, "target data");
  Device *dev = data_device(loc, device, 1);
  if (!dev) return host_ptr;   // the host is the device
  std::lock_guard<std::mutex> g(rt().mu);
  Mapping *m = nullptr;
  if (dev->table.find(addr(host_ptr), 0, &m) != Lookup::Contained) return host_ptr;   // OpenMP 5.1
  return ptr(m->translate(addr(host_ptr)));
}
