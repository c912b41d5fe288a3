// Device images (issue 35): a file whose device code was compiled on its own (device code only,
// no host pass: a fatbin with the sm_XX cubin and its PTX) carries that image in its host object
// as data; its generated host code launches the kernels through here. The image is loaded as a
// module into a device's primary context at the first need there (the start-up's occupancy
// query, off the critical path), through the CUDA driver API, as clang's offload runtime does;
// the driver's functions come from the CUDA runtime's entry-point query, so nothing links
// libcuda. Loading writes the module's copy of ompgpu_device_identity (runtime/device/api.cuh)
// once per device, and a module's first launch there the device's table of indirect functions
// (indirect.cuh), which the launch stubs of nvcc's whole compile write at their first launch.
#include "host_internal.hpp"

#include <atomic>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#ifndef OMPGPU_EMU
#include <cuda.h>
#endif

namespace ompgpu_host {
namespace {

#ifndef OMPGPU_EMU

// The driver functions images need, with the signatures of CUDA 12.0's ABI (the version asked for).
struct Driver {
  CUresult (*module_load_data)(CUmodule *, const void *) = nullptr;
  CUresult (*module_get_function)(CUfunction *, CUmodule, const char *) = nullptr;
  CUresult (*module_get_global)(CUdeviceptr *, size_t *, CUmodule, const char *) = nullptr;
  CUresult (*launch_kernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream,
                            void **, void **) = nullptr;
  CUresult (*launch_cooperative)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                 CUstream, void **) = nullptr;
  CUresult (*occupancy)(int *, CUfunction, int, size_t) = nullptr;
  CUresult (*func_get_attribute)(int *, CUfunction_attribute, CUfunction) = nullptr;
  CUresult (*memcpy_htod)(CUdeviceptr, const void *, size_t) = nullptr;
  CUresult (*memcpy_dtoh)(void *, CUdeviceptr, size_t) = nullptr;
  cudaError_t missing = cudaSuccess;   // why a function could not be found
};

template <class Fn>
void entry_point(Driver &d, const char *name, Fn &fn) {
  void *p = nullptr;
  cudaDriverEntryPointQueryResult status = cudaDriverEntryPointSymbolNotFound;
  const cudaError_t err = cudaGetDriverEntryPointByVersion(name, &p, 12000, cudaEnableDefault, &status);
  if (err != cudaSuccess || status != cudaDriverEntryPointSuccess || p == nullptr) {
    (void)cudaGetLastError();
    if (d.missing == cudaSuccess) d.missing = err != cudaSuccess ? err : cudaErrorSymbolNotFound;
    return;
  }
  fn = reinterpret_cast<Fn>(p);
}

const Driver &driver() {
  static const Driver d = [] {
    Driver x;
    entry_point(x, "cuModuleLoadData", x.module_load_data);
    entry_point(x, "cuModuleGetFunction", x.module_get_function);
    entry_point(x, "cuModuleGetGlobal", x.module_get_global);
    entry_point(x, "cuLaunchKernel", x.launch_kernel);
    entry_point(x, "cuLaunchCooperativeKernel", x.launch_cooperative);
    entry_point(x, "cuOccupancyMaxActiveBlocksPerMultiprocessor", x.occupancy);
    entry_point(x, "cuFuncGetAttribute", x.func_get_attribute);
    entry_point(x, "cuMemcpyHtoD", x.memcpy_htod);
    entry_point(x, "cuMemcpyDtoH", x.memcpy_dtoh);
    return x;
  }();
  return d;
}

// The driver's error codes are the runtime's where both have one (cudaError_t's documentation).
int as_cuda_error(CUresult r) { return static_cast<int>(r); }

int current_device() {
  int d = -1;
  if (cudaGetDevice(&d) != cudaSuccess) {
    (void)cudaGetLastError();
    return -1;
  }
  return d;
}

struct Images {
  std::mutex mu;
  // modules by image data and device: the files whose relocatable device code is in the
  // program's linked image (nvJitLink) each have an ompgpu_device_image of their own, all with
  // the same data, and share its one module (their device variables and functions are one)
  std::map<std::pair<const void *, int>, CUmodule> modules;
  std::map<std::pair<const ompgpu_image_kernel *, int>, CUfunction> functions;
  std::map<std::pair<const void *, int>, bool> indirect_written;   // by image data and device
};
Images &images() {
  static Images *s = new Images();   // never destroyed: kernels may launch from exit handlers
  return *s;
}

// The image's module on the current device `d`, loaded at the first call there (0: *err says why).
CUmodule module_on(ompgpu_device_image *image, int d, int *err) {
  const bool cached = d >= 0 && d < OMPGPU_IMAGE_DEVICES;
  if (cached) {
    if (void *m = __atomic_load_n(&image->module[d], __ATOMIC_ACQUIRE))
      return static_cast<CUmodule>(m);
  }
  const Driver &drv = driver();
  if (drv.missing != cudaSuccess) {
    *err = static_cast<int>(drv.missing);
    return nullptr;
  }
  if (image->data == nullptr) {
    // relocatable device code whose program was linked without its linked image (not by ompgpu cc)
    static std::once_flag said;
    std::call_once(said, [] {
      std::fprintf(stderr, "ompgpu: the program's relocatable device code was not linked into it: link the "
                           "program with 'ompgpu cc' (it links the device code with nvJitLink)\n");
    });
    *err = static_cast<int>(cudaErrorNoKernelImageForDevice);
    return nullptr;
  }
  Images &s = images();
  std::lock_guard<std::mutex> g(s.mu);
  auto it = s.modules.find({image->data, d});
  if (it != s.modules.end()) {
    if (cached) __atomic_store_n(&image->module[d], static_cast<void *>(it->second), __ATOMIC_RELEASE);
    return it->second;
  }
  // The primary context of the device: the runtime makes it current (activate_device did, and
  // a runtime call here makes sure on this thread).
  (void)cudaFree(nullptr);
  CUmodule m = nullptr;
  CUresult r = drv.module_load_data(&m, image->data);
  // A cubin for another GPU than this one: its PTX, which the driver compiles for this GPU.
  if ((r == CUDA_ERROR_NO_BINARY_FOR_GPU || r == CUDA_ERROR_INVALID_IMAGE) && image->ptx && image->ptx[0])
    r = drv.module_load_data(&m, image->ptx);
  if (r != CUDA_SUCCESS) {
    *err = as_cuda_error(r);
    return nullptr;
  }
  // Which device this is and how many there are (omp_get_device_num in device code).
  CUdeviceptr identity = 0;
  size_t bytes = 0;
  if (drv.module_get_global(&identity, &bytes, m, "ompgpu_device_identity") == CUDA_SUCCESS && bytes == 4 * sizeof(int)) {
    int values[4] = {d, static_cast<int>(rt().num_devices), 0, 0};
    ompgpu_device_teams_icvs(values + 2);
    r = drv.memcpy_htod(identity, values, sizeof values);
    if (r != CUDA_SUCCESS) {
      *err = as_cuda_error(r);
      return nullptr;
    }
  }
  s.modules.emplace(std::make_pair(static_cast<const void *>(image->data), d), m);
  if (cached) __atomic_store_n(&image->module[d], static_cast<void *>(m), __ATOMIC_RELEASE);
  return m;
}

// Device code that calls through function pointers looks them up in the device's table of
// indirect functions (runtime/device/indirect.cuh): written into the module before its first
// launch on a device, as nvcc's launch stubs do. Not while holding images().mu: making the table
// reads the indirect functions of every file, whose modules this may load (module_on).
int write_indirect_table(ompgpu_device_image *image, CUmodule m, int d) {
  if (!image->calls_indirect) return 0;
  Images &s = images();
  {
    std::lock_guard<std::mutex> g(s.mu);
    if (s.indirect_written.count({image->data, d})) return 0;
  }
  const void *table = nullptr;
  unsigned count = 0;
  int err = ompgpu_indirect_table(d, &table, &count);
  if (err) return err;
  const Driver &drv = driver();
  CUdeviceptr entries = 0, how_many = 0;
  size_t bytes = 0;
  CUresult r = drv.module_get_global(&entries, &bytes, m, "ompgpu_indirect_entries");
  if (r == CUDA_SUCCESS) r = drv.memcpy_htod(entries, &table, sizeof table);
  if (r == CUDA_SUCCESS) r = drv.module_get_global(&how_many, &bytes, m, "ompgpu_indirect_count");
  if (r == CUDA_SUCCESS) r = drv.memcpy_htod(how_many, &count, sizeof count);
  if (r != CUDA_SUCCESS) return as_cuda_error(r);
  std::lock_guard<std::mutex> g(s.mu);   // threads that raced here wrote the same values
  s.indirect_written[{image->data, d}] = true;
  return 0;
}

CUfunction function_on(ompgpu_image_kernel *k, int d, int *err) {
  const bool cached = d >= 0 && d < OMPGPU_IMAGE_DEVICES;
  if (cached) {
    if (void *f = __atomic_load_n(&k->function[d], __ATOMIC_ACQUIRE)) return static_cast<CUfunction>(f);
  }
  CUmodule m = module_on(k->image, d, err);
  if (!m) return nullptr;
  // (before the function is published: a launch that finds it finds the table written)
  if ((*err = write_indirect_table(k->image, m, d)) != 0) return nullptr;
  Images &s = images();
  std::lock_guard<std::mutex> g(s.mu);
  auto it = s.functions.find({k, d});
  if (it != s.functions.end()) return it->second;
  CUfunction f = nullptr;
  const CUresult r = driver().module_get_function(&f, m, k->name);
  if (r != CUDA_SUCCESS) {
    *err = as_cuda_error(r);
    return nullptr;
  }
  s.functions.emplace(std::make_pair(static_cast<const ompgpu_image_kernel *>(k), d), f);
  if (cached) __atomic_store_n(&k->function[d], static_cast<void *>(f), __ATOMIC_RELEASE);
  return f;
}

#endif  // OMPGPU_EMU

}  // namespace
}  // namespace ompgpu_host

using namespace ompgpu_host;

#ifndef OMPGPU_EMU

extern "C" int ompgpu_image_launch(ompgpu_image_kernel *k, const ompgpu_launch_config *cfg, void **args) {
  int err = 0;
  CUfunction f = function_on(k, current_device(), &err);
  if (!f) return err ? err : static_cast<int>(cudaErrorInvalidDeviceFunction);
  unsigned grid = cfg->num_teams, block = cfg->threads_per_team;
  void *packed_args[OMPGPU_IMAGE_MAX_PARAMS + 5];
  unsigned league = cfg->num_teams;
  if (k->packed > 1 || k->scratch || k->combine || k->generic) {
    if (k->params > OMPGPU_IMAGE_MAX_PARAMS) return static_cast<int>(cudaErrorInvalidConfiguration);
    unsigned extra = k->params;
    for (unsigned i = 0; i < k->params; ++i) packed_args[i] = args[i];
    if (k->packed > 1) {
      // Packed teams: blocks of `packed` teams of the kernel's constant team size; the
      // parameter after the captures is the number of teams (the warps of the last block past
      // it leave).
      if (cfg->threads_per_team != k->team_threads) return static_cast<int>(cudaErrorInvalidConfiguration);
      grid = (cfg->num_teams + k->packed - 1) / k->packed;
      block = cfg->threads_per_team * k->packed;
      packed_args[extra++] = &league;
    }
    if (k->scratch) {
      // Inner loops spread across the grid: the launch's scratch and its epoch last.
      packed_args[extra++] = const_cast<void **>(&cfg->scratch);
      packed_args[extra++] = const_cast<unsigned *>(&cfg->scratch_epoch);
    }
    if (k->combine) packed_args[extra++] = const_cast<unsigned *>(&cfg->combine);   // combined atomics' mask
    if (k->generic) packed_args[extra++] = const_cast<unsigned *>(&cfg->team_threads);   // the team's thread limit
    args = packed_args;
  }
  if (k->cooperative)   // every block resident at once (a persistent loop's grid barrier)
    return as_cuda_error(driver().launch_cooperative(f, grid, 1, 1, block, 1, 1, static_cast<unsigned>(cfg->dyn_shmem),
                                                     static_cast<CUstream>(cfg->stream), args));
  const CUresult r = driver().launch_kernel(f, grid, 1, 1, block, 1, 1, static_cast<unsigned>(cfg->dyn_shmem),
                                            static_cast<CUstream>(cfg->stream), args, nullptr);
  return as_cuda_error(r);
}

extern "C" int ompgpu_image_occupancy(ompgpu_image_kernel *k, int threads_per_team, unsigned dyn_shmem, int *local_bytes) {
  int err = 0;
  CUfunction f = function_on(k, current_device(), &err);
  if (!f) return 0;
  const unsigned packed = k->packed > 1 ? k->packed : 1;
  int blocks = 0, local = 0;
  const Driver &drv = driver();
  if (drv.occupancy(&blocks, f, threads_per_team * static_cast<int>(packed), dyn_shmem) != CUDA_SUCCESS ||
      drv.func_get_attribute(&local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, f) != CUDA_SUCCESS)
    return 0;
  *local_bytes = local;
  return blocks * static_cast<int>(packed);   // teams
}

extern "C" void *ompgpu_image_global(ompgpu_device_image *image, const char *symbol) {
  int err = 0;
  CUmodule m = module_on(image, current_device(), &err);
  if (!m) return nullptr;
  CUdeviceptr p = 0;
  size_t bytes = 0;
  if (driver().module_get_global(&p, &bytes, m, symbol) != CUDA_SUCCESS) return nullptr;
  return reinterpret_cast<void *>(static_cast<std::uintptr_t>(p));
}

extern "C" int ompgpu_image_read(ompgpu_device_image *image, const char *symbol, void *out, size_t bytes) {
  int err = 0;
  CUmodule m = module_on(image, current_device(), &err);
  if (!m) return err ? err : static_cast<int>(cudaErrorInvalidValue);
  CUdeviceptr p = 0;
  size_t size = 0;
  CUresult r = driver().module_get_global(&p, &size, m, symbol);
  if (r == CUDA_SUCCESS && size < bytes) return static_cast<int>(cudaErrorInvalidValue);
  if (r == CUDA_SUCCESS) r = driver().memcpy_dtoh(out, p, bytes);
  return as_cuda_error(r);
}

#else  // the emulator runs device code compiled with its launch stubs, never an image

extern "C" int ompgpu_image_launch(ompgpu_image_kernel *, const ompgpu_launch_config *, void **) {
  return static_cast<int>(cudaErrorInvalidValue);
}
extern "C" int ompgpu_image_occupancy(ompgpu_image_kernel *, int, unsigned, int *) { return 0; }
extern "C" void *ompgpu_image_global(ompgpu_device_image *, const char *) { return nullptr; }
extern "C" int ompgpu_image_read(ompgpu_device_image *, const char *, void *, size_t) {
  return static_cast<int>(cudaErrorInvalidValue);
}

#endif
