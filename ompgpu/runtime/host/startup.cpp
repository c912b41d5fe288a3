// ompgpu host runtime: device start-up before the program's own code.
//
// Creating a CUDA context and loading a program's device code takes a few hundred
// milliseconds, most of it in the driver (on an H200: about 100 ms to initialise the CUDA
// runtime, 100-125 to create the context, 22-46 for the pinned staging buffers,
// bench/results/s13-h200-2026-11-29-run4). Done at the first target construct, it lands
// inside whatever the program times (a proxy app that times its own run, first region
// included, reported ompgpu at 0.41x clang's rate although its kernel was faster). So a
// program with device code starts its devices at program start, from a constructor of the
// runtime library, on a thread of their own: the runtime's device list, the default
// device's context, each registered kernel's module and its residency, an allocation that
// warms the device allocator, the pinned staging buffers and copy helpers of transfer.cpp.
//
// When main runs (OMPGPU_STARTUP):
// - eager (the default): after the start-up, as with clang, whose runtime starts its devices
//   before main. A program that times its regions from its own clock never counts the
//   start-up: RSBench, which builds its data in 10-30 ms and then starts its timer, counted
//   about 250 ms of start-up in its run of 62 ms of kernel while the start-up ran beside main
//   (run 3: 30.1 M lookups/s against CUDA's 164.4 M, whose timer starts after its own
//   start-up and copies).
// - background: at once; the program's own start-up (reading inputs, building its data) runs
//   meanwhile, and the first construct waits only for what is not ready yet: rt() and
//   activate_device are call_once, and the CUDA runtime serialises a thread's use of a
//   context that another thread is still creating. The process as a whole ends sooner (by
//   as much of the start-up as the program's own set-up covers), its first timed region
//   later. A shared object (the Python API's modules, `ompgpu cc -shared`) always starts its
//   devices so: a program that loads it has no main of the library's to wait for.
// - lazy: CUDA is untouched until the first construct.
//
// What it does not do:
// - touch CUDA in a program without device code (no kernel registered with device code,
//   --offload=none), under OMP_TARGET_OFFLOAD=DISABLED, or with OMPGPU_STARTUP=lazy;
// - start devices other than the default one (under MPI the rank's own: the node-local rank
//   modulo the device count); the others start when the program first names them;
// - report errors: a failure here is met again, and reported as before, at the first use.
//
// fork(): the CUDA state of a process is not usable in a child it forks. A fork while the
// start-up runs waits for it (the child inherits no half-initialised state or held lock);
// a child forked after it finds no devices and runs its target regions on the host, with a
// warning that names OMPGPU_STARTUP=lazy (which keeps CUDA untouched until the first
// construct, so that a child which offloads works wherever its parent did not).
//
// Exit: a program that ends while the start-up runs waits for it (the CUDA runtime's exit
// handlers must not run under a thread still inside it). The waiter is registered with
// atexit from a constructor of this file, which runs after those of the program's objects
// (the runtime library is linked after them), so it runs before their exit handlers (the
// device code's unregistration), and again once the thread's first CUDA call has returned,
// so it also runs before the handlers the CUDA runtime registered at its initialisation.
#include "host_internal.hpp"

#include <link.h>
#include <pthread.h>

#include <chrono>
#include <cstdint>
#include <condition_variable>
#include <cstdlib>
#include <new>
#include <thread>

namespace ompgpu_host {
namespace {

// Function-local statics: the constructors of other translation units may run first.
std::mutex &kernels_mu() {
  static std::mutex *mu = new std::mutex();   // never destroyed: exit handlers and late threads
  return *mu;
}
std::vector<const ompgpu_kernel_desc *> &kernels() {
  static auto *v = new std::vector<const ompgpu_kernel_desc *>();
  return *v;
}

enum class Phase { NotStarted, Running, Finished };

struct Startup {
  std::mutex mu;
  std::condition_variable done;
  Phase phase = Phase::NotStarted;
  bool cuda_touched = false;   // this process (or the parent it was forked from) initialised CUDA
  bool before_main = false;    // main waits for it (OMPGPU_STARTUP=eager in the program itself)
};
Startup &startup() {
  static Startup *s = new Startup();
  return *s;
}

std::string &child_reason() {
  static std::string *r = new std::string();
  return *r;
}

bool has_device_code() {
  std::lock_guard<std::mutex> g(kernels_mu());
  for (const ompgpu_kernel_desc *k : kernels())
    if (k->launch) return true;
  return false;
}

void wait_for_startup() {
  // A fatal error may end the process while its thread holds rt().mu, which the start-up
  // may be waiting for: then the process ends without waiting.
  if (exiting_on_error()) return;
  Startup &s = startup();
  std::unique_lock<std::mutex> lock(s.mu);
  s.done.wait(lock, [&] { return s.phase != Phase::Running; });
}

void finish() {
  Startup &s = startup();
  {
    std::lock_guard<std::mutex> g(s.mu);
    s.phase = Phase::Finished;
  }
  s.done.notify_all();
}

// Milliseconds since t, for the start-up's report of its steps (OMPGPU_INFO).
double ms_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

void run_startup() {
  const auto t0 = std::chrono::steady_clock::now();
  Runtime &r = rt();   // the device count and properties: the CUDA runtime initialises here
  const double runtime_ms = ms_since(t0);
  std::atexit(wait_for_startup);   // now ahead of the CUDA runtime's own exit handlers
  if (!r.available) return finish();
  long long d = default_device_icv();   // under MPI: the rank's device
  if (d < 0 || d >= r.num_devices) return finish();
  const int dev_num = static_cast<int>(d);
  activate_device(dev_num);   // the context, and the globals in its present table
  const double context_ms = ms_since(t0);
  Device &dev = *r.devices[static_cast<std::size_t>(dev_num)];
  // The first allocation of a context sets up its allocator: take that out of the first map.
  void *warm = nullptr;
  if (cudaMalloc(&warm, 1 << 20) == cudaSuccess) (void)cudaFree(warm);
  (void)cudaGetLastError();
  const double allocator_ms = ms_since(t0);
  prepare_transfers(dev_num);   // pinned staging buffers (a pinned allocation takes milliseconds), copy helpers
  const double transfers_ms = ms_since(t0);
  std::vector<const ompgpu_kernel_desc *> ks;
  {
    std::lock_guard<std::mutex> g(kernels_mu());
    ks = kernels();
  }
  int loaded = 0;
  for (const ompgpu_kernel_desc *k : ks) {
    if (!k->launch) continue;
    prepare_kernel(dev, k);
    if (k->dense) prepare_kernel(dev, k->dense);
    ++loaded;
  }
  (void)cudaGetLastError();
  info(Loc(),
       "start-up %s: device %d (%s) ready, %d kernel%s loaded, after %.1f ms (CUDA runtime %.1f, "
       "context %.1f, device memory %.1f, staging %.1f, kernels %.1f)",
       startup().before_main ? "before main" : "in the background", dev_num, dev.name.c_str(), loaded,
       loaded == 1 ? "" : "s", ms_since(t0), runtime_ms, context_ms - runtime_ms, allocator_ms - context_ms,
       transfers_ms - allocator_ms, ms_since(t0) - transfers_ms);
  finish();
}

// Whether this runtime is part of the program's executable, not of a shared object: the first
// object dl_iterate_phdr visits is the program, and this function lies in one of its segments.
bool in_the_program_itself() {
  struct Probe {
    std::uintptr_t address;
    bool inside;
  } probe{reinterpret_cast<std::uintptr_t>(&in_the_program_itself), false};
  dl_iterate_phdr(
      [](dl_phdr_info *object, std::size_t, void *data) -> int {
        Probe *p = static_cast<Probe *>(data);
        for (int i = 0; i < object->dlpi_phnum; ++i) {
          const ElfW(Phdr) &segment = object->dlpi_phdr[i];
          const std::uintptr_t begin = object->dlpi_addr + segment.p_vaddr;
          if (segment.p_type == PT_LOAD && p->address >= begin && p->address < begin + segment.p_memsz)
            p->inside = true;
        }
        return 1;   // the program only
      },
      &probe);
  return probe.inside;
}

// pthread_atfork handlers. prepare: no fork while the start-up is inside CUDA.
void before_fork() { wait_for_startup(); }

void in_child() {
  Startup &s = startup();
  // The lock may have been taken by a thread that does not exist here: start afresh.
  new (&s.mu) std::mutex();
  new (&s.done) std::condition_variable();
  if (s.phase == Phase::Running) s.phase = Phase::Finished;   // (cannot be: before_fork waited)
  if (!s.cuda_touched) return;
  child_reason() =
      "this process was forked after its parent initialised CUDA, and a child cannot use its parent's CUDA "
      "state (with OMPGPU_STARTUP=lazy the runtime initialises CUDA only at the first target construct)";
  forget_inherited_devices(child_reason());
}

// A constructor of the runtime library: after those of the program's objects (see above).
__attribute__((constructor)) void start_devices_early() {
  pthread_atfork(before_fork, nullptr, in_child);
  if (!has_device_code()) return;
  if (env().lazy_startup || env().offload == Offload::Disabled) return;
  Startup &s = startup();
  {
    std::lock_guard<std::mutex> g(s.mu);
    if (s.phase != Phase::NotStarted) return;
    s.phase = Phase::Running;
  }
  s.before_main = !env().background_startup && in_the_program_itself();
  std::atexit(wait_for_startup);
  try {
    std::thread(run_startup).detach();
  } catch (const std::exception &) {   // no thread: everything happens at the first use, as before
    finish();
  }
  if (s.before_main) wait_for_startup();
}

}  // namespace

const std::string &forked_child_reason() { return child_reason(); }

void note_cuda_touched() {
  std::lock_guard<std::mutex> g(startup().mu);
  startup().cuda_touched = true;
}

}  // namespace ompgpu_host

extern "C" void ompgpu_register_kernels(const ompgpu_kernel_desc *const *list, int n) {
  std::lock_guard<std::mutex> g(ompgpu_host::kernels_mu());
  for (int i = 0; i < n; ++i)
    if (list[i]) ompgpu_host::kernels().push_back(list[i]);
}
