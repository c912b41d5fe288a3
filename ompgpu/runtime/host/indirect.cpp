// Functions of `declare target ... indirect` (OpenMP 5.1): a function pointer that host code
// made holds the function's host address, and device code may call through it. Each file
// registers its indirect functions' host addresses at program start, with a function of its
// device object that gives their device addresses; at a device's first launch of a kernel that
// calls through pointers, the runtime makes that device's table of (host, device) address
// pairs, sorted by host address, which device code searches (runtime/device/indirect.cuh).
#include "host_internal.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

namespace ompgpu_host {
namespace {

struct IndirectFunctions {
  const void *const *host;
  int n;
  int (*device_addresses)(const void **out);
};

struct IndirectEntry {   // the device's layout: runtime/device/indirect.cuh
  const void *host;
  const void *device;
};

struct IndirectTables {
  std::mutex mu;
  std::vector<IndirectFunctions> files;
  std::map<int, std::pair<const void *, unsigned>> by_device;   // device -> (table, count)
};

// Function-local static: the constructors of other translation units may run first.
IndirectTables &tables() {
  static IndirectTables t;
  return t;
}

// The current device's table; called with the lock held.
cudaError_t make_table(std::pair<const void *, unsigned> *made) {
  std::vector<IndirectEntry> entries;
  for (const IndirectFunctions &f : tables().files) {
    std::vector<const void *> device(static_cast<std::size_t>(f.n));
    const cudaError_t err = static_cast<cudaError_t>(f.device_addresses(device.data()));
    if (err != cudaSuccess) return err;
    for (int i = 0; i < f.n; ++i) entries.push_back({f.host[i], device[static_cast<std::size_t>(i)]});
  }
  std::sort(entries.begin(), entries.end(),
            [](const IndirectEntry &a, const IndirectEntry &b) { return a.host < b.host; });
  entries.erase(std::unique(entries.begin(), entries.end(),
                            [](const IndirectEntry &a, const IndirectEntry &b) { return a.host == b.host; }),
                entries.end());
  *made = {nullptr, 0u};
  if (entries.empty()) return cudaSuccess;
  void *table = nullptr;
  const std::size_t bytes = entries.size() * sizeof(IndirectEntry);
  cudaError_t err = cudaMalloc(&table, bytes);   // kept for the process's lifetime
  if (err != cudaSuccess) return err;
  err = cudaMemcpy(table, entries.data(), bytes, cudaMemcpyHostToDevice);
  if (err != cudaSuccess) {
    (void)cudaFree(table);
    return err;
  }
  *made = {table, static_cast<unsigned>(entries.size())};
  return cudaSuccess;
}

}  // namespace
}  // namespace ompgpu_host

extern "C" void ompgpu_register_indirect(const void *const *host_functions, int n,
                                         int (*device_addresses)(const void **out)) {
  ompgpu_host::IndirectTables &t = ompgpu_host::tables();
  std::lock_guard<std::mutex> lock(t.mu);
  // (A library loaded after a device's table was made: its functions are not in that table.)
  t.files.push_back({host_functions, n, device_addresses});
}

extern "C" int ompgpu_indirect_table(int device_num, const void **table, unsigned *count) {
  ompgpu_host::IndirectTables &t = ompgpu_host::tables();
  std::lock_guard<std::mutex> lock(t.mu);
  auto found = t.by_device.find(device_num);
  if (found == t.by_device.end()) {
    std::pair<const void *, unsigned> made;
    const cudaError_t err = ompgpu_host::make_table(&made);
    if (err != cudaSuccess) return static_cast<int>(err);
    found = t.by_device.emplace(device_num, made).first;
  }
  *table = found->second.first;
  *count = found->second.second;
  return 0;
}
