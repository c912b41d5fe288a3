// ompgpu host runtime: hooks for a program that embeds compiled code rather than being it
// (the Python API, ompgpu/python_api): errors that come back to the caller instead of
// ending the process, and the extents of the caller's arrays, so that a map past the end
// of one, or a region's use of one that is not mapped, is an error naming it.
//
// Both are per host thread: the thread that calls into compiled code is the one whose
// constructs are checked and whose errors come back; other threads are not affected.
//
// ompgpu_py_call does a whole call of the Python API in one step: the arrays' extents, the
// device arrays entered as present, and the caller's CUDA stream (the one CuPy or PyTorch
// work on, from __cuda_array_interface__), on which every construct of the call then runs,
// so that it follows the caller's earlier work on that stream. A call whose kernels use only
// memory already present on the device, and that copies nothing back, may return before they
// end (target.cpp, returns_early), as a CuPy kernel launch does; the thread remembers that
// stream and waits for it before any call that may not.
#include "host_internal.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <exception>

namespace ompgpu_host {

namespace {

thread_local int t_protected_depth = 0;   // run_protected frames on this thread

struct HostExtent {
  std::uintptr_t begin;
  std::size_t size;
  const char *name;   // the parameter it was passed as
  std::size_t elements;
  bool on_device;
  // "the array passed as 'x' (10 elements)": made only for an error message (a call gives the
  // runtime its arrays every time).
  std::string description() const {
    return strprintf("the %s passed as '%s' (%zu element%s)", on_device ? "device array" : "array", name, elements,
                     elements == 1 ? "" : "s");
  }
};
thread_local std::vector<HostExtent> t_extents;

// The Python API's call on this thread: its stream (on device `device`), and whether its kernels
// may be left running when it returns.
struct CallStream {
  bool active = false;
  bool may_return_early = false;
  int device = -1;
  cudaStream_t stream = nullptr;
};
thread_local CallStream t_call;
// The stream of kernels an earlier call of this thread left running (see ompgpu_py_call).
struct Pending {
  bool any = false;
  int device = -1;
  cudaStream_t stream = nullptr;
};
thread_local Pending t_pending;

const HostExtent *extent_of(std::uintptr_t b) {
  for (const HostExtent &x : t_extents)
    if (b >= x.begin && b < x.begin + x.size) return &x;
  return nullptr;
}

}  // namespace

RuntimeError::RuntimeError(std::string text) : text_(std::move(text)) {}
const char *RuntimeError::what() const noexcept { return text_.c_str(); }

bool errors_are_thrown() { return t_protected_depth > 0; }

bool call_stream(int d, cudaStream_t *s) {
  if (!t_call.active || t_call.device != d) return false;
  *s = t_call.stream;
  return true;
}

bool call_may_return_early(int d) { return t_call.active && t_call.may_return_early && t_call.device == d; }

void left_running(int d, cudaStream_t s) {
  t_pending.any = true;
  t_pending.device = d;
  t_pending.stream = s;
}

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
        fatal_with_notes(loc, strprintf("target region uses '%s', but %s is not mapped", name, x->description().c_str()),
                         {strprintf("add map(to/from/tofrom: %s[0:n]), or map it in an enclosing 'target data'", name)});
      continue;
    }
    if (e.size > 0 && b + static_cast<std::size_t>(e.size) > x->begin + x->size)
      fatal(loc, "map of '%s' (bytes %zu to %zu of it) extends past the end of %s", name,
            static_cast<std::size_t>(b - x->begin), static_cast<std::size_t>(b - x->begin) + static_cast<std::size_t>(e.size),
            x->description().c_str());
  }
}

}  // namespace ompgpu_host

using namespace ompgpu_host;

namespace {

// body() with the runtime's fatal errors thrown (errors_are_thrown) and caught: true when one
// was, its text in *error.
template <class Body> bool run_protected(Body &&body, std::string *error) {
  ++t_protected_depth;
  bool failed = false;
  try {
    body();
  } catch (const RuntimeError &e) {
    failed = true;
    *error = e.what();
  } catch (const std::exception &e) {
    failed = true;
    *error = std::string("ompgpu: error: ") + e.what() + "\n";
  }
  --t_protected_depth;
  return failed;
}

}  // namespace

extern "C" int omp_get_default_device(void);

// One array argument of a Python API call. The same struct is declared in the entries that
// ompgpu/python_api/templates/entry.c.j2 generates: keep the two alike.
struct ompgpu_py_array {
  const void *address;   // NULL: the argument was None
  size_t bytes;
  size_t itemsize;
  const char *name;      // the parameter's name
  int on_device;         // device memory (__cuda_array_interface__, DLPack), else host memory
};

enum { kPyStreamGiven = 1, kPyMayReturnEarly = 2 };

namespace {

thread_local std::string t_py_error;   // the last failed call's message (ompgpu_py_last_error)

void wait_for_pending() {
  Pending p = t_pending;
  t_pending = Pending{};
  if (!p.any) return;
  cudaError_t err = cudaSetDevice(p.device);
  if (err == cudaSuccess) err = cudaStreamSynchronize(p.stream);
  if (err != cudaSuccess)
    cuda_fatal(Loc(), err, "a kernel of an earlier call that returned before it ended",
               {"the error happened on the device after that call returned (as a CUDA kernel's does)"});
}

}  // namespace

namespace {

// The call's arrays as the runtime's extents; the device arrays' ranges, views of one array
// (overlapping or touching ranges) joined.
std::vector<std::pair<std::uintptr_t, std::size_t>> give_extents(const ompgpu_py_array *arrays, int n) {
  t_extents.clear();
  std::vector<std::pair<std::uintptr_t, std::size_t>> on_device;
  for (int i = 0; i < n; ++i) {
    const ompgpu_py_array &a = arrays[i];
    if (!a.address) continue;
    const std::size_t elements = a.itemsize ? a.bytes / a.itemsize : a.bytes;
    t_extents.push_back(HostExtent{reinterpret_cast<std::uintptr_t>(a.address), a.bytes, a.name, elements,
                                   a.on_device != 0});
    if (a.on_device && a.bytes > 0) on_device.emplace_back(reinterpret_cast<std::uintptr_t>(a.address), a.bytes);
  }
  std::sort(on_device.begin(), on_device.end());
  std::vector<std::pair<std::uintptr_t, std::size_t>> merged;
  for (const auto &r : on_device) {
    if (!merged.empty() && r.first <= merged.back().first + merged.back().second)
      merged.back().second = std::max(merged.back().second, r.first + r.second - merged.back().first);
    else
      merged.push_back(r);
  }
  return merged;
}

// Device arrays entered in device d's present table as mapped onto themselves, under one lock
// (what omp_target_associate_ptr does); a range present already (mapped, or associated by the
// caller) or overlapping a mapping stays as it is. Returns the ranges entered, by start.
std::vector<std::uintptr_t> enter_device_arrays(int d, const std::vector<std::pair<std::uintptr_t, std::size_t>> &ranges) {
  std::vector<std::uintptr_t> entered;
  if (ranges.empty() || d < 0 || d >= usable_devices()) return entered;
  activate_device(d);
  Device &dev = *rt().devices[static_cast<std::size_t>(d)];
  std::lock_guard<std::mutex> g(rt().mu);
  for (const auto &r : ranges) {
    Mapping *m = nullptr;
    if (dev.table.find(r.first, r.second, &m) != Lookup::NotPresent) continue;
    Mapping nm;
    nm.hbegin = nm.dbegin = r.first;
    nm.size = r.second;
    nm.refcount = 1;
    nm.associated = true;
    nm.name = "python array";   // short: no allocation
    dev.table.insert(nm);
    entered.push_back(r.first);
  }
  return entered;
}

void leave_device_arrays(int d, const std::vector<std::uintptr_t> &entered) {
  if (entered.empty()) return;
  Device &dev = *rt().devices[static_cast<std::size_t>(d)];
  std::lock_guard<std::mutex> g(rt().mu);
  for (const std::uintptr_t h : entered) {
    Mapping *m = nullptr;
    if (dev.table.find(h, 0, &m) == Lookup::Contained && m->associated && m->hbegin == h) dev.table.erase(m);
  }
}

}  // namespace

extern "C" int ompgpu_py_call(void (*fn)(void *), void *frame, const ompgpu_py_array *arrays, int n, void *stream,
                              int flags) {
  int device = -1;
  std::vector<std::uintptr_t> entered;
  const bool failed = run_protected([&] {
    reread_launch_environment();
    device = omp_get_default_device();
    const bool stream_given = flags & kPyStreamGiven;
    // Work left running by an earlier call is ordered before this one only on its own stream.
    if (t_pending.any && (!(flags & kPyMayReturnEarly) || !stream_given || t_pending.stream != stream))
      wait_for_pending();
    entered = enter_device_arrays(device, give_extents(arrays, n));
    t_call = CallStream{};
    if (stream_given && device >= 0 && device < usable_devices()) {
      t_call.active = true;
      t_call.device = device;
      t_call.stream = static_cast<cudaStream_t>(stream);
      t_call.may_return_early = flags & kPyMayReturnEarly;
    }
    fn(frame);
  }, &t_py_error);
  t_call = CallStream{};
  leave_device_arrays(device, entered);
  t_extents.clear();
  return failed ? 1 : 0;
}

extern "C" const char *ompgpu_py_last_error(void) { return t_py_error.c_str(); }

// The caller's work on `stream` (another than the call's) ends before the call starts; 1 on error.
extern "C" int ompgpu_py_wait_stream(void *stream) {
  if (!rt().available) return 0;
  if (cudaStreamSynchronize(static_cast<cudaStream_t>(stream)) == cudaSuccess) return 0;
  (void)cudaGetLastError();
  return 1;
}
