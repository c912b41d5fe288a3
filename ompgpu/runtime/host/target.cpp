// ompgpu host runtime: launch configuration and ompgpu_target (map, launch, unmap).
#include "host_internal.hpp"

#include <algorithm>
#include <climits>
#include <cstring>
#include <vector>

using namespace ompgpu_host;

namespace {

constexpr long long kMasterWarp = 32;

long long round_up(long long v, long long m) { return (v + m - 1) / m * m; }

// Threads per team (CUDA block size).
//   thread_limit clause > 0, else OMP_TEAMS_THREAD_LIMIT, else k->default_threads, else
//   128 workers + the master warp (generic) / 256 (spmd). The clause and the variable
//   limit the OpenMP threads of a team; in generic mode those are the workers, so the
//   master warp is added on top. Clamped to the kernel's launch bound and the device's
//   limit; generic mode: a multiple of 32 and at least 64 (one worker warp + the master).
long long threads_for(const ompgpu_kernel_desc *k, const Device &dev, int thread_limit) {
  bool generic = k->mode != OMPGPU_MODE_SPMD;
  long long t;
  if (thread_limit > 0) t = thread_limit + (generic ? kMasterWarp : 0);
  else if (env().teams_thread_limit > 0) t = env().teams_thread_limit + (generic ? kMasterWarp : 0);
  else if (k->default_threads > 0) t = k->default_threads;
  else t = generic ? 128 + kMasterWarp : 256;
  long long cap = dev.max_threads_per_block > 0 ? dev.max_threads_per_block : 1024;
  if (k->max_threads > 0) cap = std::min<long long>(cap, k->max_threads);
  if (generic) {
    t = std::max(round_up(t, 32), 2 * kMasterWarp);
    cap = std::max(cap / 32 * 32, 2 * kMasterWarp);
  }
  return std::max(1LL, std::min(t, cap));
}

// A generic team's thread limit (thread-limit-var) on a block of `threads`: the thread_limit
// clause, else OMP_TEAMS_THREAD_LIMIT, at most the block's workers. threads_for rounds the
// workers up to whole warps, so they may be more than the limit (thread_limit(16): a warp).
long long team_threads_for(const ompgpu_kernel_desc *k, int thread_limit, long long threads) {
  if (k->mode == OMPGPU_MODE_SPMD) return threads;
  const long long workers = threads - kMasterWarp;
  const long long limit = thread_limit > 0 ? thread_limit : env().teams_thread_limit;
  return limit > 0 && limit < workers ? limit : workers;
}

// What the occupancy calculator says of kernel k at teams of `threads` threads on dev (the
// Residency of host_internal.hpp), cached per kernel and team size (rt().mu is taken here).
Residency residency(const ompgpu_kernel_desc *k, Device &dev, long long threads) {
  if (!k->occupancy) return {};
  std::lock_guard<std::mutex> g(rt().mu);
  const auto key = std::make_pair(static_cast<const void *>(k), threads);
  auto it = dev.residency.find(key);
  if (it == dev.residency.end()) {
    Residency r;
    r.teams = k->occupancy(static_cast<int>(threads), 0, &r.local_bytes);
    it = dev.residency.emplace(key, r).first;
  }
  return it->second;
}

// Teams of `threads` threads of kernel k that one SM of dev holds at once: the occupancy
// calculator's answer for the kernel (its registers, shared memory and launch bound); without
// one (a kernel built before it existed), the thread count alone.
long long resident_teams_per_sm(const ompgpu_kernel_desc *k, Device &dev, long long threads) {
  const Residency r = residency(k, dev, threads);
  return r.teams > 0 ? r.teams : std::max(1LL, dev.max_threads_per_sm / threads);
}

// The instance of kernel k to launch with teams of `threads` threads: its dense instance (compiled
// for more resident teams, ptxas keeping fewer registers) where that holds more teams per SM and
// spills at most kDenseSpillBytes more a thread, else k. Only where the runtime picks the team
// count: with num_teams or OMP_NUM_TEAMS the dense one would hold teams that do not exist. And
// only for a grid of one full wave: a grid-stride launch (no trip count), or a loop taken in one
// wave at most (grid_waves 1) with more iterations than a wave of the plain instance has threads;
// a grid of several waves, or of fewer teams than one, gains nothing from more teams at once.
constexpr int kDenseSpillBytes = 64;
const ompgpu_kernel_desc *instance_for(const ompgpu_kernel_desc *k, Device &dev, long long threads, int num_teams,
                                       long long trip_count) {
  if (!k->dense || num_teams > 0 || env().num_teams > 0 || k->static_teams > 0) return k;
  if (trip_count >= 0 && k->grid_waves != 1) return k;
  const Residency plain = residency(k, dev, threads), dense = residency(k->dense, dev, threads);
  if (trip_count >= 0 && trip_count <= static_cast<long long>(dev.sms) * plain.teams * threads) return k;
  if (dense.teams > plain.teams && plain.teams > 0 && dense.local_bytes <= plain.local_bytes + kDenseSpillBytes)
    return k->dense;
  return k;
}

// Number of teams (CUDA grid size).
//   num_teams clause > 0, else OMP_NUM_TEAMS, else the compiler's static count, else as many
//   teams as the GPU holds at once: SMs x the kernel's resident teams per SM. More would queue
//   as a second, partial wave behind the first, whose teams (each with the same share of a
//   distributed loop) then finish one share late: XSBench-style lookups ran 10.33 ms with the
//   old guess (SMs x 2048 / threads, blind to registers) against 10.05 with one exact wave
//   (bench/results/exp-h100-2026-11-25-s6-implemented.txt; 9.37 with the dense instance).
//   trip_count >= 0 (a kernel that is one loop over the grid, counted by the host): one
//   iteration per thread, ceil(trip_count / threads) teams, which measured faster than a
//   grid-stride loop over the occupancy guess for short-bodied loops (STREAM, stencils:
//   bench/results/flat-h100-2026-11-25-geometry.txt), in at most OMPGPU_GRID_WAVES waves; a loop
//   with a reduction and a generic kernel's loop (grid_waves 1) in one wave at most, the grid
//   without a trip count, and fewer teams where it has fewer iterations than a wave has threads.
// The launch's mask of combined atomic updates (ompgpu_kernel_desc.combine_roles): bit k where the
// kernel's k-th combined pointer points into a mapping that no other pointer argument points
// into, so that nothing the kernel reads through another pointer is storage those updates change
// (plan/combine.py allows only kernels whose every access is through their pointer arguments).
// Called with rt().mu held (the present table).
unsigned combine_mask(const ompgpu_kernel_desc *k, Device &dev, int n, const ompgpu_map_entry *maps) {
  if (!k->combine_roles) return 0;
  std::vector<std::pair<int, const Mapping *>> pointers;   // (role, mapping) of each pointer argument
  int arg = 0;
  for (int i = 0; i < n; ++i) {
    if (!(maps[i].flags & OMPGPU_MAP_ARG)) continue;
    const int role = k->combine_roles[arg++];
    if (role == 0) continue;
    if (role == -2) return 0;
    const Mapping *m = argument_mapping(dev, maps[i]);
    if (!m) return 0;   // storage the runtime does not know: it might be anything's
    pointers.emplace_back(role, m);
  }
  unsigned mask = 0;
  for (const auto &p : pointers) {
    if (p.first <= 0 || p.first > 32) continue;
    bool alone = true;
    for (const auto &q : pointers) alone = alone && (&q == &p || q.second != p.second);
    if (alone) mask |= 1u << (p.first - 1);
  }
  return mask;
}

long long teams_for(const ompgpu_kernel_desc *k, Device &dev, int num_teams, long long threads,
                    long long trip_count = -1) {
  long long T;
  if (num_teams > 0) T = num_teams;
  else if (env().num_teams > 0) T = env().num_teams;
  else if (k->static_teams > 0) T = k->static_teams;
  else if (trip_count >= 0) {
    T = (trip_count + threads - 1) / threads;   // one iteration per thread...
    // ...in at most this many waves of resident teams
    const long long waves = k->grid_waves > 0 ? k->grid_waves : env().grid_waves;
    // A kernel that takes its loop a tile per team runs a team per tile: a stencil over 4096^2
    // points ran at CUDA's speed that way and at 0.8x in 4 waves of teams that each walked
    // tiles far apart (bench/results/s12-h200-2026-11-28-run1).
    if (waves > 0 && !k->grid_tiles)
      T = std::min(T, static_cast<long long>(dev.sms) * resident_teams_per_sm(k, dev, threads) * waves);
  }
  else T = static_cast<long long>(dev.sms) * resident_teams_per_sm(k, dev, threads);
  return std::max(1LL, std::min<long long>(T, INT_MAX));   // gridDim.x limit
}

const char *kname(const ompgpu_kernel_desc *k) { return k->name ? k->name : "<unnamed kernel>"; }

int fallback(const Loc &loc, const ompgpu_kernel_desc *k, const char *why) {
  info(loc, "kernel %s: host fallback (%s)", kname(k), why);
  return 1;
}

}  // namespace

ompgpu_launch_config ompgpu_host::launch_config(long long teams, long long threads, int d, cudaStream_t stream) {
  ompgpu_launch_config cfg;
  cfg.num_teams = static_cast<unsigned>(teams);
  cfg.threads_per_team = static_cast<unsigned>(threads);
  cfg.dyn_shmem = 0;
  cfg.stream = stream;
  cfg.device_num = d;
  cfg.num_devices = usable_devices();
  cfg.scratch = nullptr;
  cfg.scratch_epoch = 0;
  cfg.combine = 0;
  cfg.team_threads = static_cast<unsigned>(threads);
  return cfg;
}

void ompgpu_host::prepare_kernel(Device &dev, const ompgpu_kernel_desc *k) {
  // The occupancy query loads the kernel's module (CUDA loads modules lazily, at a kernel's
  // first use) and its answer is what the first launch at the default team size looks up.
  // Queried without rt().mu: loading a module takes a while, and constructs of other threads
  // must not wait for it.
  if (!k->occupancy) return;
  const long long threads = threads_for(k, dev, 0);
  Residency r;
  r.teams = k->occupancy(static_cast<int>(threads), 0, &r.local_bytes);
  std::lock_guard<std::mutex> g(rt().mu);
  dev.residency.emplace(std::make_pair(static_cast<const void *>(k), threads), r);
}

namespace {

// uses_allocators(a(traits)) (OpenMP 5.0): the allocator object that the device's omp_alloc
// family reads (runtime/device/api.cuh, AllocatorObject: five 64-bit words, then the traits as
// the host's omp_alloctrait_t array, 16 bytes each), in device memory for one launch; its
// traits are read there at each allocation.
void *make_device_allocator(const Loc &loc, const ompgpu_map_entry &e) {
  struct Trait {
    int key;
    std::uint64_t value;
  };
  static_assert(sizeof(Trait) == 16, "omp_alloctrait_t is 16 bytes");
  const std::size_t count = e.size > 0 ? static_cast<std::size_t>(e.size) : 0;
  std::vector<std::uint64_t> words(5 + 2 * std::max<std::size_t>(count, 1), 0);
  words[0] = 0x4f4d504755414c43ull;   // kAllocatorMagic
  words[4] = count;   // memory space: the default (the 5.0 form names none); pool empty; not on the heap
  if (count > 0) std::memcpy(&words[5], e.base, count * sizeof(Trait));
  void *object = nullptr;
  cudaError_t err = cudaMalloc(&object, words.size() * sizeof(std::uint64_t));
  if (err == cudaSuccess)
    err = cudaMemcpy(object, words.data(), words.size() * sizeof(std::uint64_t), cudaMemcpyHostToDevice);
  if (err != cudaSuccess) cuda_fatal(loc, err, strprintf("making the allocator '%s' on the device", e.name ? e.name : "<unnamed>"));
  return object;
}

// A firstprivate array of the target region too large to pass by value (OMPGPU_MAP_PRIVATE): its
// device copy for one launch, the host's bytes as the construct found them.
void *make_private_copy(const Loc &loc, const ompgpu_map_entry &e) {
  const std::size_t bytes = e.size > 0 ? static_cast<std::size_t>(e.size) : 0;
  void *copy = nullptr;
  cudaError_t err = cudaMalloc(&copy, std::max<std::size_t>(bytes, 1));
  if (err == cudaSuccess && bytes > 0) err = cudaMemcpy(copy, e.begin, bytes, cudaMemcpyHostToDevice);
  if (err != cudaSuccess)
    cuda_fatal(loc, err, strprintf("the device copy of firstprivate '%s' (%zu bytes)", e.name ? e.name : "<unnamed>", bytes));
  return copy;
}

}  // namespace

// Every mapped item of the construct is present already (or passed by value): entering and
// leaving its maps copies and frees nothing, so a Python API call may return before the kernel
// ends (call_may_return_early). Expects rt().mu held.
bool uses_only_present(Device &dev, int n, const ompgpu_map_entry *maps) {
  constexpr int kCopiesOrOwns = OMPGPU_MAP_ALWAYS | OMPGPU_MAP_DELETE | OMPGPU_MAP_ATTACH | OMPGPU_MAP_ALLOCATOR |
                                OMPGPU_MAP_POINTER_VALUE | OMPGPU_MAP_PRIVATE;
  for (int i = 0; i < n; ++i) {
    const ompgpu_map_entry &e = maps[i];
    if (e.flags & kCopiesOrOwns) return false;
    if (e.flags & (OMPGPU_MAP_LITERAL | OMPGPU_MAP_ATTACH_ONLY) || e.size <= 0) continue;
    Mapping *m = nullptr;
    if (dev.table.find(reinterpret_cast<std::uintptr_t>(e.begin), static_cast<std::size_t>(e.size), &m) !=
            Lookup::Contained ||
        absent_link(m))
      return false;
  }
  return true;
}

extern "C" int ompgpu_target(const ompgpu_kernel_desc *k, long long device, int if_cond, int num_teams,
                             int thread_limit, int n, ompgpu_map_entry *maps) {
  return ompgpu_target_loop(k, device, if_cond, num_teams, thread_limit, -1, n, maps);
}

extern "C" int ompgpu_target_loop(const ompgpu_kernel_desc *k, long long device, int if_cond, int num_teams,
                                  int thread_limit, long long trip_count, int n, ompgpu_map_entry *maps) {
  Loc loc = make_loc(k);
  if (!if_cond) return fallback(loc, k, "if clause is false");
  const Env &e = env();
  if (e.offload == Offload::Disabled) return fallback(loc, k, "OMP_TARGET_OFFLOAD=DISABLED");
  if (!k->launch) {
    if (e.offload == Offload::Mandatory) {
      require_mandatory(loc);
      fatal(loc, "OMP_TARGET_OFFLOAD=MANDATORY but kernel %s was compiled without device code", kname(k));
    }
    return fallback(loc, k, "compiled without device code");
  }
  // OMPGPU_PROFILE's trace: the whole construct on the host's track, a wait for the device's
  // start-up included.
  const double construct_us = profiling() ? profile_now_us() : 0;
  int d = resolve_device(loc, device);
  if (d < 0) {
    if (!rt().available) return fallback(loc, k, ("no GPU: " + rt().unavailable_reason).c_str());
    return fallback(loc, k, "the device clause names the host");
  }
  select_device(loc, d);
  Device &dev = *rt().devices[static_cast<std::size_t>(d)];
  if (usm_managed()) usm_reach_stack_and_statics();

  // map, and build the arguments in the order of the MAP_ARG entries
  std::vector<void *> slots(static_cast<std::size_t>(n > 0 ? n : 0), nullptr);
  std::vector<void *> args;
  args.reserve(slots.size() + 1);
  std::uint64_t ticket;   // the kernel's, for the device memory cache (see DeviceMemoryCache)
  unsigned combine = 0;   // the launch's mask of combined atomic updates
  std::vector<void *> allocators;   // uses_allocators(a(traits)), firstprivate copies: freed after the kernel
  for (int i = 0; i < n; ++i)
    if ((maps[i].flags & (OMPGPU_MAP_ALLOCATOR | OMPGPU_MAP_PRIVATE)) && (maps[i].flags & OMPGPU_MAP_ARG)) {
      slots[static_cast<std::size_t>(i)] = maps[i].flags & OMPGPU_MAP_PRIVATE ? make_private_copy(loc, maps[i])
                                                                               : make_device_allocator(loc, maps[i]);
      allocators.push_back(slots[static_cast<std::size_t>(i)]);
    }
  bool early = call_may_return_early(d) && allocators.empty() && k->scratch_per_team <= 0 && !profiling();
  {
    std::lock_guard<std::mutex> g(rt().mu);
    check_host_extents(dev, loc, n, maps);
    early = early && uses_only_present(dev, n, maps);
    map_enter(dev, loc, n, maps);
    ticket = dev.cache.kernel_started();
    combine = combine_mask(k, dev, n, maps);
    for (int i = 0; i < n; ++i) {
      const ompgpu_map_entry &m = maps[i];
      if (!(m.flags & OMPGPU_MAP_ARG)) continue;
      if (m.flags & (OMPGPU_MAP_ALLOCATOR | OMPGPU_MAP_PRIVATE)) {
        args.push_back(&slots[static_cast<std::size_t>(i)]);
      } else if (m.flags & OMPGPU_MAP_LITERAL) {
        args.push_back(m.begin);
      } else {
        slots[static_cast<std::size_t>(i)] = reinterpret_cast<void *>(translate_entry(dev, loc, m));
        args.push_back(&slots[static_cast<std::size_t>(i)]);
      }
    }
  }
  args.push_back(nullptr);   // never read; keeps data() valid when there are no arguments

  long long threads = threads_for(k, dev, thread_limit);
  const ompgpu_kernel_desc *const compiled = k;
  k = instance_for(k, dev, threads, num_teams, trip_count);
  const char *instance = k != compiled ? ", the instance for more resident teams" : "";
  long long teams = teams_for(k, dev, num_teams, threads, trip_count);
  cudaStream_t stream = thread_stream(loc, d);
  ompgpu_launch_config cfg = launch_config(teams, threads, d, stream);
  cfg.combine = combine;
  cfg.team_threads = static_cast<unsigned>(team_threads_for(k, thread_limit, threads));
  cfg.scratch = k->scratch_per_team > 0
                    ? launch_scratch(d, static_cast<std::size_t>(teams) * static_cast<std::size_t>(k->scratch_per_team),
                                     &cfg.scratch_epoch)
                    : nullptr;
  const char *mode = k->mode == OMPGPU_MODE_SPMD ? "spmd" : "generic";
  if (rt().num_devices > 1)   // several GPUs: say which one
    info(loc, "kernel %s: %u teams x %u threads, %s%s, device %d", kname(k), cfg.num_teams, cfg.threads_per_team, mode,
         instance, d);
  else
    info(loc, "kernel %s: %u teams x %u threads, %s%s", kname(k), cfg.num_teams, cfg.threads_per_team, mode, instance);

  // Errors: from the launch itself (configuration, or - in the emulator, where launches
  // run to completion - a fault in the kernel), then from the kernel's execution.
  const char *fault_note =
      "a pointer used in the target region may not be mapped (captured pointers without "
      "map(...) are translated only if their target is present)";
  // OMPGPU_PROFILE: events around the launch (only then), and the host's wait.
  cudaEvent_t before = nullptr, after = nullptr;
  const bool prof = profiling() && cudaEventCreate(&before) == cudaSuccess && cudaEventCreate(&after) == cudaSuccess;
  if (prof) (void)cudaEventRecord(before, stream);
  const double launch_us = prof ? profile_now_us() : 0;
  cudaError_t err = static_cast<cudaError_t>(k->launch(&cfg, args.data()));
  if (prof) (void)cudaEventRecord(after, stream);
  if (err == cudaSuccess) err = cudaGetLastError();
  if (err != cudaSuccess) {
    std::vector<std::string> notes;
    if (is_kernel_fault(err)) notes.push_back(usm_managed() ? usm_fault_note() : fault_note);
    notes.push_back(strprintf("launched with %u teams x %u threads (%s mode) on device %d", cfg.num_teams,
                              cfg.threads_per_team, mode, d));
    cuda_fatal(loc, err, std::string("kernel ") + kname(k), notes);
  }
  if (early) {   // the caller's stream orders what comes after; nothing of the region waits for it
    std::vector<void *> none;   // every mapping was present before the construct: none ends here
    {
      std::lock_guard<std::mutex> g(rt().mu);
      cudaEvent_t left = dev.cache.event_for_left_running();
      if (left && cudaEventRecord(left, stream) != cudaSuccess) {
        (void)cudaGetLastError();
        left = nullptr;
      }
      early = left != nullptr;   // no event: the kernel is waited for below
      if (early) {
        dev.cache.kernel_left_running(ticket, left);
        map_exit(dev, loc, n, maps, &none);
      }
    }
    if (early) {
      left_running(d, stream);
      info(loc, "kernel %s: left running on the caller's stream (the call returns before it ends)", kname(k));
      free_device_memory(loc, d, none);
      return 0;
    }
  }
  // The destinations of the copies back that no page backs yet are faulted in while the kernel
  // runs (until the copies back are done, at the latest: `fresh` goes at the end).
  FreshDestinations fresh;
  fresh.start(n, maps);
  if (fresh.bytes() > 0)
    info(loc, "kernel %s: %.1f MB of fresh destination pages faulted in while it runs", kname(k),
         static_cast<double>(fresh.bytes()) / 1e6);
  const double wait_us = prof ? profile_now_us() : 0;
  err = cudaStreamSynchronize(stream);
  if (err != cudaSuccess) {
    std::vector<std::string> notes;
    if (is_kernel_fault(err)) notes.push_back(usm_managed() ? usm_fault_note() : fault_note);
    cuda_fatal(loc, err, std::string("kernel ") + kname(k), notes);
  }
  if (prof) {
    const double done_us = profile_now_us();
    float ms = 0;
    if (cudaEventElapsedTime(&ms, before, after) != cudaSuccess) (void)cudaGetLastError();
    // The kernel ended about when the wait did; it cannot have started before its launch.
    const double start_us = std::max(launch_us, done_us - static_cast<double>(ms) * 1e3);
    profile_kernel(loc, k, d, stream, start_us, ms, cfg.num_teams, cfg.threads_per_team);
    profile_wait(loc, "wait for the kernel", wait_us, done_us);
    (void)cudaEventDestroy(before);
    (void)cudaEventDestroy(after);
  }

  std::vector<void *> to_free;
  {
    std::lock_guard<std::mutex> g(rt().mu);
    dev.cache.kernel_finished(ticket);   // complete: blocks freed while it ran may be reused
    map_exit(dev, loc, n, maps, &to_free);
  }
  for (void *a : allocators) {
    const cudaError_t err = cudaFree(a);
    if (err != cudaSuccess) cuda_fatal(loc, err, "freeing a device allocator or firstprivate copy");
  }
  free_device_memory(loc, d, to_free);
  if (profiling()) profile_construct(loc, construct_us, profile_now_us());
  return 0;
}
