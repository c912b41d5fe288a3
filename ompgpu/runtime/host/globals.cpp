// `declare target` global variables: registered by generated constructors before main,
// entered into each device's present table when the process first uses the device.
#include "host_internal.hpp"

#include <vector>

namespace ompgpu_host {
namespace {

struct GlobalVar {
  void *host;
  long long size;
  void *(*device_address)(void);
  const char *name;
  bool link;
};

// Function-local static: constructors of other translation units may run first.
std::vector<GlobalVar> &registry() {
  static std::vector<GlobalVar> globals;
  return globals;
}

}  // namespace

namespace {

void enter_global(Device &dev, const GlobalVar &g) {
  if (cudaSetDevice(dev.id) != cudaSuccess) { (void)cudaGetLastError(); return; }
  void *daddr = g.device_address();
  if (daddr == nullptr) return;
  Mapping m;
  m.hbegin = reinterpret_cast<std::uintptr_t>(g.host);
  m.size = static_cast<std::size_t>(g.size);
  m.dbegin = reinterpret_cast<std::uintptr_t>(daddr);
  if (g.link) {
    m.refcount = 0;     // absent until mapped; the symbol is its storage
    m.link = true;
  } else {
    m.refcount = 1;
    m.associated = true;  // never freed, never counted down to zero
  }
  m.name = g.name;
  dev.table.insert(m);
}

// Registration after the runtime started (a library loaded later): enter it now.
void register_late(const GlobalVar &g) {
  if (!runtime_started()) return;
  Runtime &r = rt();
  std::lock_guard<std::mutex> lock(r.mu);
  for (Device *d : r.devices) {
    if (!d->active.load()) continue;   // entered when the device is activated
    Mapping *m = nullptr;
    if (d->table.find(reinterpret_cast<std::uintptr_t>(g.host), static_cast<std::size_t>(g.size), &m) ==
        Lookup::Contained)
      continue;   // the activation saw it already
    enter_global(*d, g);
  }
}

}  // namespace

void register_globals_on(Device &dev) {
  for (const GlobalVar &g : registry()) enter_global(dev, g);
}

}  // namespace ompgpu_host

extern "C" void ompgpu_register_global(void *host, long long size, void *(*device_address)(void), const char *name) {
  ompgpu_host::GlobalVar g{host, size, device_address, name, false};
  ompgpu_host::registry().push_back(g);
  ompgpu_host::register_late(g);
}

extern "C" void ompgpu_register_link_global(void *host, long long size, void *(*device_address)(void), const char *name) {
  ompgpu_host::GlobalVar g{host, size, device_address, name, true};
  ompgpu_host::registry().push_back(g);
  ompgpu_host::register_late(g);
}
