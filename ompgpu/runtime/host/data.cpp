// ompgpu host runtime: the present table (one per device, reference counted) and the
// data-mapping constructs: target data, target enter/exit data, target update,
// use_device_ptr.
//
// Semantics (OpenMP 4.5/5.x): on entry to a construct a list item that is not present
// is allocated (and copied to the device for to/tofrom) with reference count 1; one that
// is present only gets its reference count raised (copied only with `always`). On exit
// the count drops by one (`delete` sets it to 0, `release` just decrements); `from`
// items are copied back when it reaches 0 (or always with `always`), then the device
// memory is released (to the device's cache, device_cache.cpp). A list item that lies
// inside a present mapping (an array sub-section) is translated into it; one that
// partially overlaps a mapping is an error. Within one construct a mapping's count
// changes at most once, however many of its items name it.
#include "host_internal.hpp"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>

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

// Entries that occupy mapped device memory (LITERAL, ATTACH_ONLY and ATTACH never do; PRIVATE's
// copy is the launch's own, not in the present table).
inline bool is_mapped_item(const ompgpu_map_entry &e) {
  return !(e.flags & (OMPGPU_MAP_LITERAL | OMPGPU_MAP_ATTACH_ONLY | OMPGPU_MAP_ATTACH | OMPGPU_MAP_PRIVATE));
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

// Synchronous copy on this thread's stream (the source or destination host memory may be
// reused as soon as the construct returns).
cudaError_t copy_sync(const Loc &loc, Device &dev, void *dst, const void *src, std::size_t s, cudaMemcpyKind kind) {
  return copy_host_device(loc, dev.id, thread_stream(loc, dev.id), dst, src, s, kind);
}

// The same for count elements of elem bytes, pitch bytes apart on both sides (pitch == elem:
// one contiguous copy).
cudaError_t copy_sync_strided(const Loc &loc, Device &dev, void *dst, const void *src, std::size_t elem,
                              std::size_t count, std::size_t pitch, cudaMemcpyKind kind) {
  if (pitch == elem) return copy_sync(loc, dev, dst, src, elem * count, kind);
  cudaStream_t st = thread_stream(loc, dev.id);
  const double t0 = profiling() ? profile_now_us() : 0;
  cudaError_t err = cudaMemcpy2DAsync(dst, pitch, src, pitch, elem, count, kind, st);
  if (err == cudaSuccess) err = cudaStreamSynchronize(st);
  if (profiling()) profile_transfer(loc, dev.id, st, kind == cudaMemcpyHostToDevice, elem * count, t0, profile_now_us());
  return err;
}

// Writes the device copy of each attached pointer inside [b, b+s) of mapping m.
void reattach(Device &dev, const Loc &loc, const Mapping *m, std::uintptr_t b, std::size_t s) {
  for (auto it = m->attached.lower_bound(b); it != m->attached.end() && it->first < b + s; ++it) {
    std::uintptr_t value = it->second;
    cudaError_t err = copy_sync(loc, dev, ptr(m->translate(it->first)), &value, sizeof value, cudaMemcpyHostToDevice);
    if (err != cudaSuccess) cuda_fatal(loc, err, strprintf("attaching a pointer inside '%s'", m->name.c_str()));
  }
}

// A pointer variable's value as its device copy holds it (OMPGPU_MAP_POINTER_VALUE): the device
// address where the host value points into mapped storage, else the value itself.
std::uintptr_t pointer_to_device(Device &dev, std::uintptr_t host_value) {
  Mapping *m = nullptr;
  if (!host_value || dev.table.find(host_value, 0, &m) != Lookup::Contained || absent_link(m)) return host_value;
  return m->translate(host_value);
}

// Its copy back: the device's value, as OpenMP says, except where the region left it as it
// went out (the host's value translated): then the host keeps its own value, not a device
// address it never asked for.
std::uintptr_t pointer_from_device(Device &dev, std::uintptr_t device_value, std::uintptr_t host_value) {
  return device_value == pointer_to_device(dev, host_value) ? host_value : device_value;
}

void copy_to_device(Device &dev, const Loc &loc, const ompgpu_map_entry &e, const Mapping *m) {
  std::uintptr_t b = addr(e.begin);
  std::size_t s = static_cast<std::size_t>(e.size);
  if (m->translate(b) == b) return;   // device memory mapped onto itself (a device array passed in)
  std::uintptr_t pointer_value = 0;
  const void *src = e.begin;
  if ((e.flags & OMPGPU_MAP_POINTER_VALUE) && s == sizeof pointer_value) {
    std::memcpy(&pointer_value, e.begin, sizeof pointer_value);
    pointer_value = pointer_to_device(dev, pointer_value);
    src = &pointer_value;
  }
  cudaError_t err = copy_sync(loc, dev, ptr(m->translate(b)), src, s, cudaMemcpyHostToDevice);
  if (err != cudaSuccess)
    cuda_fatal(loc, err, strprintf("copy of '%s' to device", item_name(e)));
  info(loc, "copy to device '%s' (%zu bytes)", item_name(e), s);
  // The copy carried host pointer values over attached device pointers: restore those.
  if (!m->attached.empty()) reattach(dev, loc, m, b, s);
}

void copy_from_device(Device &dev, const Loc &loc, const ompgpu_map_entry &e, const Mapping *m) {
  std::uintptr_t b = addr(e.begin);
  std::size_t s = static_cast<std::size_t>(e.size);
  if (m->translate(b) == b) return;   // device memory mapped onto itself
  std::uintptr_t host_pointer = 0;   // an OMPGPU_MAP_POINTER_VALUE item's value before the copy
  if (e.flags & OMPGPU_MAP_POINTER_VALUE) std::memcpy(&host_pointer, e.begin, std::min(s, sizeof host_pointer));
  // Attached pointers keep their host values (their device copies hold device addresses).
  std::vector<std::pair<std::uintptr_t, void *>> keep;
  for (auto it = m->attached.lower_bound(b); it != m->attached.end() && it->first < b + s; ++it) {
    void *v;
    std::memcpy(&v, ptr(it->first), sizeof v);
    keep.emplace_back(it->first, v);
  }
  cudaError_t err = copy_sync(loc, dev, e.begin, ptr(m->translate(b)), s, cudaMemcpyDeviceToHost);
  if (err != cudaSuccess) {
    std::vector<std::string> notes;
    if (is_kernel_fault(err))
      notes.push_back("the error comes from an earlier kernel on this device");
    cuda_fatal(loc, err, strprintf("copy of '%s' from device", item_name(e)), notes);
  }
  for (auto &k : keep) std::memcpy(ptr(k.first), &k.second, sizeof k.second);
  if ((e.flags & OMPGPU_MAP_POINTER_VALUE) && s == sizeof(std::uintptr_t)) {
    std::uintptr_t value;
    std::memcpy(&value, e.begin, sizeof value);
    value = pointer_from_device(dev, value, host_pointer);
    std::memcpy(e.begin, &value, sizeof value);
  }
  info(loc, "copy from device '%s' (%zu bytes)", item_name(e), s);
}

Mapping *allocate(Device &dev, const Loc &loc, const ompgpu_map_entry &e, std::size_t s) {
  void *p = nullptr;
  std::size_t cls = 0;
  const double t0 = profiling() ? profile_now_us() : 0;
  cudaError_t err = dev.cache.allocate(s, &p, &cls);
  if (err != cudaSuccess) {
    std::vector<std::string> notes;
    if (err == cudaErrorMemoryAllocation)
      notes.push_back(strprintf("out of device memory (device %d '%s' has %zu bytes in total)", dev.id,
                                dev.name.c_str(), dev.total_mem));
    cuda_fatal(loc, err, strprintf("allocation of %zu bytes for '%s'", s, item_name(e)), notes);
  }
  info(loc, "alloc '%s' (%zu bytes)", item_name(e), s);
  if (profiling()) profile_alloc(loc, dev.id, s, (profile_now_us() - t0) / 1e3);
  Mapping m;
  m.hbegin = addr(e.begin);
  m.size = s;
  m.dbegin = addr(p);
  m.dalloc = addr(p);
  m.dalloc_class = cls;
  m.refcount = 1;
  m.name = item_name(e);
  return dev.table.insert(m);
}

// Removes a mapping whose count reached zero; its memory goes back to the device's cache
// (or to *to_free). A link variable's storage is the device symbol: it stays in the
// table, absent.
void release(Device &dev, const Loc &loc, Mapping *m, std::vector<void *> *to_free) {
  if (m->link) {
    m->attached.clear();
    return;
  }
  info(loc, "free '%s' (%zu bytes)", m->name.c_str(), m->size);
  dev.cache.release(ptr(m->dalloc), m->dalloc_class, to_free);
  dev.table.erase(m);
}

// OMPGPU_MAP_ATTACH: set the device copy of the pointer at e.base to the device address
// of the section starting at e.begin (NULL when the section is not present, e.g. of
// length zero), and remember it so that later copies of the struct keep it.
void attach(Device &dev, const Loc &loc, const ompgpu_map_entry &e) {
  std::uintptr_t where = addr(e.base);
  Mapping *holder = nullptr;
  if (dev.table.find(where, sizeof(void *), &holder) != Lookup::Contained || absent_link(holder))
    fatal(loc, "cannot attach '%s': the struct holding its pointer is not mapped on device %d", item_name(e), dev.id);
  void *host_value;
  std::memcpy(&host_value, ptr(where), sizeof host_value);
  std::uintptr_t b = addr(e.begin);
  Mapping *target = nullptr;
  std::uintptr_t device_value = 0;
  if (b && dev.table.find(b, 0, &target) == Lookup::Contained && !absent_link(target))
    device_value = target->translate(b) - (b - addr(host_value));
  holder->attached[where] = device_value;
  cudaError_t err = copy_sync(loc, dev, ptr(holder->translate(where)), &device_value, sizeof device_value,
                              cudaMemcpyHostToDevice);
  if (err != cudaSuccess) cuda_fatal(loc, err, strprintf("attaching '%s'", item_name(e)));
  info(loc, "attach '%s'", item_name(e));
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
      if ((e.flags & OMPGPU_MAP_PRESENT) && (r != Lookup::Contained || absent_link(m)))
        fatal(loc, "'%s' is not present on device %d (map with the 'present' modifier)", item_name(e), dev.id);
      continue;
    }
    if (r == Lookup::Overlap) overlap_error(loc, "map", e, m);
    if (r == Lookup::Contained && absent_link(m)) {   // a link variable's first map: as if allocated
      if (e.flags & OMPGPU_MAP_PRESENT)
        fatal(loc, "'%s' is not present on device %d (map with the 'present' modifier)", item_name(e), dev.id);
      m->refcount = 1;
      created.push_back(m);
      info(loc, "map link variable '%s' (%zu bytes)", item_name(e), s);
    }
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
    if (unified_shared_memory()) continue;   // the device uses the host's storage: nothing to allocate or copy
    m = allocate(dev, loc, e, s);
    created.push_back(m);
    if (e.flags & OMPGPU_MAP_TO) copy_to_device(dev, loc, e, m);
  }
  for (int i = 0; i < n; ++i)
    if (maps[i].flags & OMPGPU_MAP_ATTACH) attach(dev, loc, maps[i]);
}

void map_exit(Device &dev, const Loc &loc, int n, const ompgpu_map_entry *maps, std::vector<void *> *to_free) {
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
    if (absent_link(m) && !contains(seen, m)) continue;
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
    if (absent_link(m) && !contains(seen, m)) continue;
    bool last = !m->associated && m->refcount == 0;
    if (last || (e.flags & OMPGPU_MAP_ALWAYS)) copy_from_device(dev, loc, e, m);
  }
  // 3. removals (memory the cache does not keep is freed by the caller, without the lock)
  for (Mapping *m : seen)
    if (m->refcount == 0) release(dev, loc, m, to_free);
}

void free_device_memory(const Loc &loc, int d, const std::vector<void *> &to_free) {
  if (to_free.empty()) return;
  select_device(loc, d);
  const double t0 = profiling() ? profile_now_us() : 0;
  for (void *p : to_free) {
    cudaError_t err = cudaFree(p);
    if (err != cudaSuccess) cuda_fatal(loc, err, "freeing device memory");
  }
  if (profiling()) profile_alloc(loc, d, 0, (profile_now_us() - t0) / 1e3);
}

std::uintptr_t translate_entry(Device &dev, const Loc &loc, const ompgpu_map_entry &e) {
  (void)loc;
  std::uintptr_t b = addr(e.begin);
  if (!b) return 0;
  Mapping *m = nullptr;
  // OpenMP 5.1 (pointer initialization for device data environments): a pointer that points
  // into no mapped storage keeps its value, as a firstprivate variable: memory from
  // omp_target_alloc, the host's address of a `declare target indirect` function, the host's
  // own storage under unified shared memory.
  if (dev.table.find(b, 0, &m) != Lookup::Contained || absent_link(m)) return addr(e.base);
  return m->translate(b) - (b - addr(e.base));
}

const Mapping *argument_mapping(Device &dev, const ompgpu_map_entry &e) {
  const std::uintptr_t b = addr(e.begin);
  Mapping *m = nullptr;
  if (!b || dev.table.find(b, 0, &m) != Lookup::Contained || absent_link(m)) return nullptr;
  return m;
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

// The fresh destinations of a target data region's copies back, faulted in from the region's start
// (FreshDestinations): its kernels run meanwhile, and the copies at its end find touched memory.
// Kept by the region's map array, which lives on the stack of its thread while the region lasts.
std::mutex g_data_fresh_mu;
std::map<const void *, std::unique_ptr<FreshDestinations>> &data_fresh() {
  static auto *m = new std::map<const void *, std::unique_ptr<FreshDestinations>>();
  return *m;
}

std::unique_ptr<FreshDestinations> take_data_fresh(const void *maps) {
  std::lock_guard<std::mutex> g(g_data_fresh_mu);
  auto it = data_fresh().find(maps);
  if (it == data_fresh().end()) return nullptr;
  std::unique_ptr<FreshDestinations> f = std::move(it->second);
  data_fresh().erase(it);
  return f;
}

}  // namespace

extern "C" void ompgpu_target_data_begin(const ompgpu_srcloc *l, long long device, int if_cond, int n,
                                         ompgpu_map_entry *maps) {
  Loc loc = make_loc(l, "target data");
  Device *dev = data_device(loc, device, if_cond);
  if (!dev || n <= 0) return;
  {
    std::lock_guard<std::mutex> g(rt().mu);
    check_host_extents(*dev, loc, n, maps);
    map_enter(*dev, loc, n, maps);
  }
  auto fresh = std::make_unique<FreshDestinations>();
  fresh->start(n, maps);
  if (fresh->bytes() == 0) return;
  info(loc, "%.1f MB of fresh destination pages faulted in from the region's start",
       static_cast<double>(fresh->bytes()) / 1e6);
  // A region left without its end (a jump out of it) leaves its entry behind; a later region with
  // its map array at the same address takes the place (the old one goes outside the lock).
  std::unique_ptr<FreshDestinations> left;
  std::lock_guard<std::mutex> g(g_data_fresh_mu);
  std::unique_ptr<FreshDestinations> &slot = data_fresh()[maps];
  left = std::move(slot);
  slot = std::move(fresh);
}

extern "C" void ompgpu_target_data_end(const ompgpu_srcloc *l, long long device, int if_cond, int n,
                                       ompgpu_map_entry *maps) {
  Loc loc = make_loc(l, "target data");
  Device *dev = data_device(loc, device, if_cond);
  if (!dev || n <= 0) return;
  std::vector<void *> to_free;
  const std::unique_ptr<FreshDestinations> fresh = take_data_fresh(maps);   // goes once the copies are done
  {
    std::lock_guard<std::mutex> g(rt().mu);
    check_host_extents(*dev, loc, n, maps);
    map_exit(*dev, loc, n, maps, &to_free);
  }
  free_device_memory(loc, dev->id, to_free);
}

extern "C" void ompgpu_target_update(const ompgpu_srcloc *l, long long device, int if_cond, int n,
                                     ompgpu_map_entry *maps) {
  Loc loc = make_loc(l, "target update");
  Device *dev = data_device(loc, device, if_cond);
  if (!dev || n <= 0) return;
  std::lock_guard<std::mutex> g(rt().mu);
  check_host_extents(*dev, loc, n, maps);
  for (int i = 0; i < n; ++i) {
    const ompgpu_map_entry &e = maps[i];
    if (!is_mapped_item(e)) continue;
    std::size_t s = item_size(loc, e);
    if (s == 0) continue;
    Mapping *m = nullptr;
    Lookup r = dev->table.find(addr(e.begin), s, &m);
    if (r == Lookup::NotPresent) continue;   // not present: skipped (OpenMP 5.x)
    if (r == Lookup::Overlap) overlap_error(loc, "update", e, m);
    if (absent_link(m)) continue;
    if (e.flags & OMPGPU_MAP_TO) copy_to_device(*dev, loc, e, m);
    if (e.flags & OMPGPU_MAP_FROM) copy_from_device(*dev, loc, e, m);
  }
}

namespace {

// One run of a section update: count elements of elem bytes, stride elements apart, from host
// address h. Skipped when not present (OpenMP 5.x); a run that leaves its mapping is an error.
void update_run(Device &dev, const Loc &loc, int flags, std::uintptr_t h, long long count, long long stride,
                long long elem, const char *what) {
  if (count <= 0) return;
  std::size_t span = static_cast<std::size_t>(((count - 1) * stride + 1) * elem);
  Mapping *m = nullptr;
  Lookup r = dev.table.find(h, span, &m);
  if (r == Lookup::NotPresent || (r == Lookup::Contained && absent_link(m))) return;
  if (r == Lookup::Overlap)
    fatal(loc, "update of '%s' reaches beyond the mapped section '%s'", what, m->name.c_str());
  std::uintptr_t d = m->translate(h);
  if (d == h) return;   // device memory mapped onto itself
  const bool to = flags & OMPGPU_MAP_TO;
  cudaError_t err = copy_sync_strided(loc, dev, ptr(to ? d : h), ptr(to ? h : d), static_cast<std::size_t>(elem),
                                      static_cast<std::size_t>(count), static_cast<std::size_t>(stride * elem),
                                      to ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost);
  if (err != cudaSuccess) cuda_fatal(loc, err, strprintf("update of '%s' %s the device", what, to ? "to" : "from"));
}

}  // namespace

extern "C" void ompgpu_target_update_section(const ompgpu_srcloc *l, long long device, int if_cond, int flags,
                                             void *base, long long elem, int ndims, const long long *dims,
                                             const long long *lower, const long long *length, const long long *stride,
                                             const char *name) {
  Loc loc = make_loc(l, "target update");
  Device *dev = data_device(loc, device, if_cond);
  if (!dev || ndims <= 0) return;
  const char *what = name ? name : "<unnamed>";
  for (int k = 0; k < ndims; ++k) {
    if (length[k] < 0 || lower[k] < 0 || stride[k] <= 0)
      fatal(loc, "section '%s' has a negative bound or a stride below 1 in dimension %d", what, k + 1);
    if (length[k] == 0) return;
  }
  // Elements per index of each dimension (row-major).
  std::vector<long long> pitch(static_cast<std::size_t>(ndims), 1);
  for (int k = ndims - 2; k >= 0; --k) pitch[static_cast<std::size_t>(k)] = pitch[static_cast<std::size_t>(k) + 1] * dims[k + 1];
  std::lock_guard<std::mutex> g(rt().mu);
  std::vector<long long> t(static_cast<std::size_t>(ndims), 0);   // position in each outer dimension
  const int last = ndims - 1;
  for (;;) {
    long long offset = 0;
    for (int k = 0; k < last; ++k)
      offset += (lower[k] + t[static_cast<std::size_t>(k)] * stride[k]) * pitch[static_cast<std::size_t>(k)];
    offset += lower[last];
    update_run(*dev, loc, flags, addr(base) + static_cast<std::uintptr_t>(offset * elem), length[last], stride[last], elem,
               what);
    int k = last - 1;
    while (k >= 0 && ++t[static_cast<std::size_t>(k)] == length[k]) t[static_cast<std::size_t>(k--)] = 0;
    if (k < 0) break;
  }
  info(loc, "update %s '%s' (section)", (flags & OMPGPU_MAP_TO) ? "to" : "from", what);
}

extern "C" void *ompgpu_get_device_ptr(const ompgpu_srcloc *l, long long device, void *host_ptr) {
  if (!host_ptr) return nullptr;
  Loc loc = make_loc(l, "target data");
  Device *dev = data_device(loc, device, 1);
  if (!dev) return host_ptr;   // the host is the device
  device_addresses_escape();   // the program may use the address with CUDA of its own
  std::lock_guard<std::mutex> g(rt().mu);
  Mapping *m = nullptr;
  if (dev->table.find(addr(host_ptr), 0, &m) != Lookup::Contained || absent_link(m)) return host_ptr;   // OpenMP 5.1
  return ptr(m->translate(addr(host_ptr)));
}
