// `declare target` global variables: registered by generated constructors before main,
// entered into each device's present table when the runtime initialises.
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

void register_globals_on(Device &dev) {
  for (const GlobalVar &g : registry()) {
    if (cudaSetDevice(dev.id) != cudaSuccess) { (void)cudaGetLastError(); return; }
    void *daddr = g.device_address();
    if (daddr == nullptr) continue;
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
}

}  // namespace ompgpu_host

extern "C" void ompgpu_register_global(void *host, long long size, void *(*device_address)(void), const char *name) {
  ompgpu_host::registry().push_back({host, size, device_address, name, false});
}

extern "C" void ompgpu_register_link_global(void *host, long long size, void *(*device_address)(void), const char *name) {
  ompgpu_host::registry().push_back({host, size, device_address, name, true});
}
