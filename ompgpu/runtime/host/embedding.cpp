// ompgpu host runtime: hooks for a program that embeds compiled code rather than being it
// (the Python API, ompgpu/python_api): errors that come back to the caller instead of
// ending the process, and the extents of the caller's arrays, so that a map past the end
// of one, or a region's use of one that is not mapped, is an error naming it.
//
// Both are per host thread: the thread that calls into compiled code is the one whose
// constructs are checked and whose errors come back; other threads are not affected.
#include "host_internal.hpp"

#include <algorithm>
#include <cstring>
#include <exception>

namespace ompgpu_host {

namespace {

thread_local int t_protected_depth = 0;   // ompgpu_call_protected frames on this thread

struct HostExtent {
  std::uintptr_t begin;
  std::size_t size;
  std::string what;   // "the array passed as 'x' (10 elements)"
};
thread_local std::vector<HostExtent> t_extents;

const HostExtent *extent_of(std::uintptr_t b) {
  for (const HostExtent &x : t_extents)
    if (b >= x.begin && b < x.begin + x.size) return &x;
  return nullptr;
}

}  // namespace

RuntimeError::RuntimeError(std::string text) : text_(std::move(text)) {}
const char *RuntimeError::what() const noexcept { return text_.c_str(); }

bool errors_are_thrown() { return t_protected_depth > 0; }

void check_host_extents(Device &dev, const Loc &loc, int n, const ompgpu_map_entry *maps) {
  if (t_extents.empty()) return;
  for (int i = 0; i < n; ++i) {
    const ompgpu_map_entry &e = maps[i];
    if (e.flags & (OMPGPU_MAP_LITERAL | OMPGPU_MAP_ATTACH | OMPGPU_MAP_PRIVATE)) continue;
    std::uintptr_t b = reinterpret_cast<std::uintptr_t>(e.begin);
    const HostExtent *x = extent_of(b);
    if (!x) continue;
    const char *name = e.name ? e.name : "<unnamed>";
    if (e.flags & OMPGPU_MAP_ATTACH_ONLY) {
      // A pointer the region uses without a map: present already, or mapped by this construct.
      Mapping *m = nullptr;
      bool present = dev.table.find(b, 0, &m) == Lookup::Contained && !absent_link(m);
      for (int j = 0; j < n && !present; ++j) {
        const ompgpu_map_entry &o = maps[j];
        std::uintptr_t ob = reinterpret_cast<std::uintptr_t>(o.begin);
        present = !(o.flags & (OMPGPU_MAP_LITERAL | OMPGPU_MAP_ATTACH | OMPGPU_MAP_ATTACH_ONLY | OMPGPU_MAP_PRIVATE)) && o.size > 0 &&
                  b >= ob && b < ob + static_cast<std::size_t>(o.size);
      }
      if (!present)
        fatal_with_notes(loc, strprintf("target region uses '%s', but %s is not mapped", name, x->what.c_str()),
                         {strprintf("add map(to/from/tofrom: %s[0:n]), or map it in an enclosing 'target data'", name)});
      continue;
    }
    if (e.size > 0 && b + static_cast<std::size_t>(e.size) > x->begin + x->size)
      fatal(loc, "map of '%s' (bytes %zu to %zu of it) extends past the end of %s", name,
            static_cast<std::size_t>(b - x->begin), static_cast<std::size_t>(b - x->begin) + static_cast<std::size_t>(e.size),
            x->what.c_str());
  }
}

}  // namespace ompgpu_host

using namespace ompgpu_host;

extern "C" int ompgpu_call_protected(void (*fn)(void *), void *ctx, char *message, size_t capacity) {
  ++t_protected_depth;
  int rc = 0;
  std::string text;
  try {
    fn(ctx);
  } catch (const RuntimeError &e) {
    rc = 1;
    text = e.what();
  } catch (const std::exception &e) {
    rc = 1;
    text = std::string("ompgpu: error: ") + e.what() + "\n";
  }
  --t_protected_depth;
  if (rc && message && capacity > 0) {
    std::size_t n = std::min(text.size(), capacity - 1);
    std::memcpy(message, text.data(), n);
    message[n] = '\0';
  }
  return rc;
}

extern "C" void ompgpu_host_extent_add(const void *begin, size_t size, const char *what) {
  t_extents.push_back(HostExtent{reinterpret_cast<std::uintptr_t>(begin), size, what ? what : "an array"});
}

extern "C" void ompgpu_host_extents_clear(void) { t_extents.clear(); }

extern "C" void ompgpu_reread_launch_environment(void) { reread_launch_environment(); }
