// Interop objects (OpenMP 5.1): the interop construct's init/use/destroy and the objects that
// a dispatch construct appends to a variant's arguments (append_args), with the routines that
// read their properties. An object belongs to one GPU: its foreign runtime is CUDA (the runtime
// API), its targetsync property a CUDA stream of its own on that GPU. An object for the host
// (no GPU, OMP_TARGET_OFFLOAD=DISABLED, a device number that names the host) is
// omp_interop_none.
#include "host_internal.hpp"

#include <cstdint>

using namespace ompgpu_host;

namespace {

struct Interop {
  int device;
  bool targetsync;
  cudaStream_t stream;   // the targetsync object (null without targetsync)
};

// Property numbers, return codes and foreign runtime ids of OpenMP 5.1 (omp.h).
enum : int {
  kFrId = -1, kFrName = -2, kVendor = -3, kVendorName = -4, kDeviceNum = -5, kPlatform = -6, kDevice = -7,
  kDeviceContext = -8, kTargetsync = -9
};
enum : int {
  kNoValue = 1, kSuccess = 0, kEmpty = -1, kOutOfRange = -2, kTypeInt = -3, kTypePtr = -4, kTypeStr = -5, kOther = -6
};
constexpr int kForeignRuntimeCuda = 1;   // omp_ifr_cuda
constexpr int kVendorNvidia = 11;        // the OpenMP additional definitions' vendor number

void set_rc(int *rc, int value) {
  if (rc) *rc = value;
}

// The property's value type (an int, a pointer or a string), for the return code that a
// routine of another type gives.
int property_type(int property) {
  switch (property) {
    case kFrId: case kVendor: case kDeviceNum: return kTypeInt;
    case kFrName: case kVendorName: return kTypeStr;
    default: return kTypePtr;
  }
}

const Interop *object(const void *obj, int property, int *rc) {
  if (obj == nullptr) {
    set_rc(rc, kEmpty);
    return nullptr;
  }
  if (property < kTargetsync || property > kFrId) {
    set_rc(rc, kOutOfRange);   // no implementation-defined properties
    return nullptr;
  }
  return static_cast<const Interop *>(obj);
}

}  // namespace

// kinds: 1 target, 2 targetsync (either or both)
extern "C" void ompgpu_interop_init(void **obj, long long device, int kinds) {
  Loc loc = make_loc(nullptr, "interop");
  *obj = nullptr;
  int d = resolve_device(loc, device);
  if (d < 0) return;   // the host: omp_interop_none
  select_device(loc, d);
  device_addresses_escape();   // foreign work on the device, which the runtime does not order
  Interop *it = new Interop{d, (kinds & 2) != 0, nullptr};
  if (it->targetsync) {
    const cudaError_t err = cudaStreamCreateWithFlags(&it->stream, cudaStreamNonBlocking);
    if (err != cudaSuccess) cuda_fatal(loc, err, "creating the targetsync stream of an interop object");
  }
  *obj = it;
}

// `use`: the foreign work queued on the object's targetsync stream is done.
extern "C" void ompgpu_interop_use(void *obj) {
  Interop *it = static_cast<Interop *>(obj);
  if (it == nullptr || !it->targetsync) return;
  Loc loc = make_loc(nullptr, "interop");
  select_device(loc, it->device);
  const cudaError_t err = cudaStreamSynchronize(it->stream);
  if (err != cudaSuccess) cuda_fatal(loc, err, "waiting for an interop object's targetsync stream");
}

extern "C" void ompgpu_interop_destroy(void **obj) {
  Interop *it = static_cast<Interop *>(*obj);
  *obj = nullptr;
  if (it == nullptr) return;
  if (it->targetsync) {
    ompgpu_interop_use(it);
    (void)cudaStreamDestroy(it->stream);
  }
  delete it;
}

extern "C" int omp_get_num_interop_properties(const void *) { return 0; }

extern "C" std::intptr_t omp_get_interop_int(const void *obj, int property, int *rc) {
  const Interop *it = object(obj, property, rc);
  if (it == nullptr) return 0;
  set_rc(rc, kSuccess);
  switch (property) {
    case kFrId: return kForeignRuntimeCuda;
    case kVendor: return kVendorNvidia;
    case kDeviceNum: return it->device;
    case kDevice: return it->device;   // the CUDA runtime's device number
    default: set_rc(rc, property_type(property)); return 0;
  }
}

extern "C" void *omp_get_interop_ptr(const void *obj, int property, int *rc) {
  const Interop *it = object(obj, property, rc);
  if (it == nullptr) return nullptr;
  switch (property) {
    case kTargetsync:
      set_rc(rc, it->targetsync ? kSuccess : kNoValue);
      return it->targetsync ? static_cast<void *>(it->stream) : nullptr;
    case kPlatform: case kDeviceContext:
      set_rc(rc, kNoValue);   // the CUDA runtime API has no platform; its context is the device's primary one
      return nullptr;
    case kDevice:
      set_rc(rc, kTypeInt);
      return nullptr;
    default:
      set_rc(rc, property_type(property));
      return nullptr;
  }
}

extern "C" const char *omp_get_interop_str(const void *obj, int property, int *rc) {
  const Interop *it = object(obj, property, rc);
  if (it == nullptr) return nullptr;
  set_rc(rc, kSuccess);
  if (property == kFrName) return "cuda";
  if (property == kVendorName) return "nvidia";
  set_rc(rc, property_type(property));
  return nullptr;
}

extern "C" const char *omp_get_interop_name(const void *, int property) {
  static const char *const names[] = {"fr_id", "fr_name", "vendor", "vendor_name", "device_num",
                                      "platform", "device", "device_context", "targetsync"};
  return property >= kTargetsync && property <= kFrId ? names[-property - 1] : nullptr;
}

extern "C" const char *omp_get_interop_type_desc(const void *, int property) {
  static const char *const types[] = {"omp_interop_fr_t", "const char *", "int", "const char *", "int",
                                      "N/A", "int (CUDA runtime device number)", "N/A", "cudaStream_t"};
  return property >= kTargetsync && property <= kFrId ? types[-property - 1] : nullptr;
}

extern "C" const char *omp_get_interop_rc_desc(const void *, int rc) {
  switch (rc) {
    case kNoValue: return "the property has no value";
    case kSuccess: return "success";
    case kEmpty: return "the interop object is omp_interop_none";
    case kOutOfRange: return "no such property";
    case kTypeInt: return "the property's value is an int";
    case kTypePtr: return "the property's value is a pointer";
    case kTypeStr: return "the property's value is a string";
    default: return "failure";
  }
}
