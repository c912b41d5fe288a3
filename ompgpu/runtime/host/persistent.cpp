// ompgpu host runtime: a host loop run as one persistent kernel (plan/persistent_loops.py).
//
// The compiler turns a host loop of target regions into one kernel that runs the loop itself,
// its regions separated by grid barriers (runtime/device/grid.cuh). The launch is cooperative:
// every block is resident at once, so the grid is what the occupancy calculator says the GPU
// holds. The kernel's items are the loop's map entries, each one device address: present ones
// translated as a region would, the loop's scalars not present given a copy of their own in the
// loop's frame. Where anything is missing, the loop runs as written (the caller's fallback).
#include "host_internal.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

using namespace ompgpu_host;

namespace {

constexpr int kNotForLoops = OMPGPU_MAP_ALWAYS | OMPGPU_MAP_DELETE | OMPGPU_MAP_ATTACH | OMPGPU_MAP_ALLOCATOR |
                             OMPGPU_MAP_POINTER_VALUE | OMPGPU_MAP_PRIVATE | OMPGPU_MAP_LITERAL | OMPGPU_MAP_RELEASE;

#ifdef OMPGPU_EMU
// The emulator runs each block of a cooperative launch on an OS thread of its own.
constexpr long long kEmulatedLoopTeams = 3;
#endif

std::size_t align16(std::size_t v) { return (v + 15) / 16 * 16; }
constexpr std::size_t kLineBytes = 128;   // a cache line of the device's L2
std::size_t align_line(std::size_t v) { return (v + kLineBytes - 1) / kLineBytes * kLineBytes; }

int run_as_written(const Loc &loc, const ompgpu_kernel_desc *k, const std::string &why) {
  info(loc, "persistent loop %s: runs as written (%s)", k->name ? k->name : "<unnamed>", why.c_str());
  return 1;
}

// The frame of one run in device memory: the items' addresses, their homes (a scalar's device copy
// where it is present), the grid barrier, the presence bits, the loop's scalars, then two 16-byte
// cells for each scalar item (OMPGPU_MAP_LOOP_COPY): its device storage while the loop runs, one
// cell an iteration (plan/persistent_loops.py).
// The barrier word has a 128-byte line of its own: blocks that arrived early read it over and over,
// and with a scalar's cell in the same line, updated atomically by the region's threads (bfs's
// `changed = 1`), bfs's loop took 1.10-1.14 ms fused against 0.88-0.92 run level by level, and
// 0.73-0.76 against 0.82-0.87 with the line its own (bench/results/s13-h200-2026-11-29-run{1,2}).
constexpr std::size_t kCellBytes = 16;
struct Frame {
  std::size_t homes = 0, barrier = 0, present = 0, state = 0, bytes = 0;
  std::vector<unsigned char> image;   // what is copied in
};

}  // namespace

extern "C" int ompgpu_persistent_loop(const ompgpu_kernel_desc *k, long long device, int n, ompgpu_map_entry *maps,
                                      void *state, long long state_bytes, long long iterations) {
  Loc loc = make_loc(k);
  const Env &e = env();
  if (!e.persistent_loops) return run_as_written(loc, k, "OMPGPU_PERSISTENT_LOOPS=0");
  if (e.offload == Offload::Disabled || !k->launch) return 1;   // the loop's regions say why
  int d = resolve_device(loc, device);
  if (d < 0) return 1;
  select_device(loc, d);
  Device &dev = *rt().devices[static_cast<std::size_t>(d)];
  if (usm_managed()) return run_as_written(loc, k, "unified shared memory on managed memory");
  int cooperative = 0;
  if (cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, d) != cudaSuccess || !cooperative) {
    (void)cudaGetLastError();
    return run_as_written(loc, k, "the device has no cooperative launch");
  }
  const long long threads = k->default_threads > 0 ? k->default_threads : k->max_threads;
  int local_bytes = 0;
  long long teams = k->occupancy ? k->occupancy(static_cast<int>(threads), 0, &local_bytes) : 0;
  teams *= dev.sms;   // resident
  // Long regions gain nothing from one launch and lose the waves of teams their own launches get:
  // more than kLongRegionIterations iterations a resident thread, the loop runs as written (the
  // stencil benchmark's 67M-point sweeps, about 250 a thread: fused 3.45-5.77 ms against 3.28
  // unfused at radius 2; Jacobi's 1M-point sweeps, about 4 a thread: 16 ms fused against 58:
  // bench/results/s10-h200-2026-11-28-run{5,7}).
  constexpr long long kLongRegionIterations = 32;
  if (iterations > teams * threads * kLongRegionIterations && e.loop_teams <= 0)
    return run_as_written(loc, k, strprintf("its regions' loops are long (%lld iterations): launched one by one, "
                                            "they keep more teams busy", iterations));

  // Every team meets every grid barrier, which costs more the more teams there are: no more teams
  // than fill half an SM's threads, nor than give each thread two of the longest region's
  // iterations. On an H200 (bench/results/s10-h200-2026-11-28-run3, teams of 256) the GPU holds
  // 660-1056 such teams; labelprop over 262,144 vertices took 14.2 ms on 660 teams and 10.2 on
  // 528, Jacobi over 1024^2 points 20.2 and 16.2, over 256^2 points 23.0 on 253 teams (one
  // iteration a thread) and 19.3 on 132.
  // OMPGPU_LOOP_TEAMS replaces the rule (at most what the GPU holds).
  if (e.loop_teams > 0) {
    teams = std::min(teams, e.loop_teams);
  } else {
    teams = std::min(teams, std::max(1LL, static_cast<long long>(dev.sms) * (dev.max_threads_per_sm / (2 * threads))));
    if (iterations > 0) teams = std::min(teams, std::max(1LL, (iterations + 2 * threads - 1) / (2 * threads)));
  }
#ifdef OMPGPU_EMU
  teams = std::min(teams, kEmulatedLoopTeams);
#endif
  if (teams < 1) return run_as_written(loc, k, "no team of its kernel fits on an SM");
  const std::size_t items = static_cast<std::size_t>(std::max(n, 0));
  const std::size_t words = (items + 63) / 64;
  Frame f;
  f.homes = 8 * items;
  f.barrier = align_line(f.homes + 8 * items);
  f.present = f.barrier + kLineBytes;
  f.state = align16(f.present + 8 * words);
  std::size_t end = align16(f.state + static_cast<std::size_t>(std::max(state_bytes, 0LL)));
  std::vector<std::size_t> copy_at(items, 0);   // frame offset of a scalar item's cells (0: none)
  std::vector<std::uintptr_t> address(items, 0), home(items, 0);
  std::vector<std::uint64_t> present(std::max<std::size_t>(words, 1), 0);
  std::uint64_t ticket;
  {
    std::lock_guard<std::mutex> g(rt().mu);
    check_host_extents(dev, loc, n, maps);
    for (std::size_t i = 0; i < items; ++i) {
      const ompgpu_map_entry &m = maps[i];
      const char *name = m.name ? m.name : "<unnamed>";
      if (m.flags & kNotForLoops) return run_as_written(loc, k, strprintf("'%s' has a map type the loop cannot keep", name));
      Mapping *found = nullptr;
      const std::uintptr_t b = reinterpret_cast<std::uintptr_t>(m.begin);
      const bool here = b && dev.table.find(b, static_cast<std::size_t>(std::max(m.size, 0LL)), &found) ==
                                 Lookup::Contained && !absent_link(found);
      if (m.flags & OMPGPU_MAP_LOOP_COPY) {
        if (m.size <= 0 || static_cast<std::size_t>(m.size) > kCellBytes)
          return run_as_written(loc, k, strprintf("'%s' is not a scalar", name));
        copy_at[i] = end;
        end += 2 * kCellBytes;
        if (here) {
          home[i] = found->translate(b);
          present[i / 64] |= 1ull << (i % 64);
        }
      } else if (m.flags & OMPGPU_MAP_ATTACH_ONLY) {   // a firstprivate pointer: translated where it points into a mapping
        address[i] = translate_entry(dev, loc, m);
        present[i / 64] |= 1ull << (i % 64);
      } else if (here) {
        address[i] = (m.flags & OMPGPU_MAP_PTR) ? translate_entry(dev, loc, m) : found->translate(b);
        present[i / 64] |= 1ull << (i % 64);
      } else {
        return run_as_written(loc, k, strprintf("'%s' is not present on the device", name));
      }
    }
    ticket = dev.cache.kernel_started();
  }
  f.bytes = std::max<std::size_t>(end, 16);
  f.image.assign(f.bytes, 0);
  void *frame = nullptr;
  cudaError_t err = cudaMalloc(&frame, f.bytes);
  if (err != cudaSuccess) cuda_fatal(loc, err, strprintf("the persistent loop's frame (%zu bytes)", f.bytes));
  const std::uintptr_t base = reinterpret_cast<std::uintptr_t>(frame);
  for (std::size_t i = 0; i < items; ++i) {
    const std::uintptr_t a = copy_at[i] ? base + copy_at[i] : address[i];
    std::memcpy(&f.image[8 * i], &a, sizeof a);
    std::memcpy(&f.image[f.homes + 8 * i], &home[i], sizeof home[i]);
  }
  std::memcpy(&f.image[f.present], present.data(), 8 * words);
  if (state_bytes > 0) std::memcpy(&f.image[f.state], state, static_cast<std::size_t>(state_bytes));
  cudaStream_t stream = thread_stream(loc, d);
  err = cudaMemcpyAsync(frame, f.image.data(), f.bytes, cudaMemcpyHostToDevice, stream);
  if (err != cudaSuccess) cuda_fatal(loc, err, "copying the persistent loop's frame to the device");
  for (std::size_t i = 0; i < items; ++i)   // a present scalar's value into its first cell
    if (copy_at[i] && home[i]) {
      err = cudaMemcpyAsync(reinterpret_cast<void *>(base + copy_at[i]), reinterpret_cast<void *>(home[i]),
                            static_cast<std::size_t>(maps[i].size), cudaMemcpyDeviceToDevice, stream);
      if (err != cudaSuccess) cuda_fatal(loc, err, "copying a scalar's device copy into the persistent loop's frame");
    }

  void *ptrs = frame, *homes = reinterpret_cast<void *>(base + f.homes), *barrier = reinterpret_cast<void *>(base + f.barrier),
       *bits = reinterpret_cast<void *>(base + f.present), *scalars = reinterpret_cast<void *>(base + f.state);
  void *args[] = {&ptrs, &homes, &barrier, &bits, &scalars, nullptr};
  const ompgpu_launch_config cfg = launch_config(teams, threads, d, stream);
  info(loc, "kernel %s: %u teams x %u threads, one cooperative launch for the whole loop", k->name, cfg.num_teams,
       cfg.threads_per_team);
  // OMPGPU_PROFILE: events around the launch (only then), as target.cpp's kernels
  cudaEvent_t before = nullptr, after = nullptr;
  const bool prof = profiling() && cudaEventCreate(&before) == cudaSuccess && cudaEventCreate(&after) == cudaSuccess;
  if (prof) (void)cudaEventRecord(before, stream);
  const double launch_us = prof ? profile_now_us() : 0;
  err = static_cast<cudaError_t>(k->launch(&cfg, args));
  if (prof) (void)cudaEventRecord(after, stream);
  if (err == cudaSuccess) err = cudaGetLastError();
  if (err == cudaErrorCooperativeLaunchTooLarge) {   // fewer resident teams than the calculator said
    (void)cudaGetLastError();
    (void)cudaFree(frame);
    if (prof) {
      (void)cudaEventDestroy(before);
      (void)cudaEventDestroy(after);
    }
    std::lock_guard<std::mutex> g(rt().mu);
    dev.cache.kernel_finished(ticket);
    return run_as_written(loc, k, "the cooperative launch was refused as too large");
  }
  if (err == cudaSuccess) err = cudaStreamSynchronize(stream);
  if (err != cudaSuccess)
    cuda_fatal(loc, err, strprintf("kernel %s", k->name),
               {strprintf("launched cooperatively with %u teams x %u threads on device %d", cfg.num_teams,
                          cfg.threads_per_team, d)});
  if (prof) {
    float ms = 0;
    if (cudaEventElapsedTime(&ms, before, after) != cudaSuccess) (void)cudaGetLastError();
    const double done_us = profile_now_us();
    profile_kernel(loc, k, d, stream, std::max(launch_us, done_us - static_cast<double>(ms) * 1e3), ms, cfg.num_teams,
                   cfg.threads_per_team);
    (void)cudaEventDestroy(before);
    (void)cudaEventDestroy(after);
  }
  if (state_bytes > 0) {
    err = cudaMemcpy(state, reinterpret_cast<void *>(base + f.state), static_cast<std::size_t>(state_bytes),
                     cudaMemcpyDeviceToHost);
    if (err != cudaSuccess) cuda_fatal(loc, err, "copying the persistent loop's scalars back");
  }
  err = cudaFree(frame);
  if (err != cudaSuccess) cuda_fatal(loc, err, "freeing the persistent loop's frame");
  std::lock_guard<std::mutex> g(rt().mu);
  dev.cache.kernel_finished(ticket);
  return 0;
}
