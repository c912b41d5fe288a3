// ompgpu host runtime: OMPGPU_PROFILE, where a run's time goes, per target construct.
//
//   OMPGPU_PROFILE=1           at exit, a table on stderr: per construct (file:line), its
//                              kernel, mode, launches, total and mean kernel time, bytes and
//                              time of each transfer direction, allocations; then totals
//                              (what NV_ACC_TIME prints for OpenACC programs)
//   OMPGPU_PROFILE=trace.json  the table, and a Chrome trace-event file (Perfetto,
//                              chrome://tracing): kernels and transfers on a track per device
//                              and stream, the host's waits for them on a track per thread;
//                              a copy staged through the pinned buffers also shows each
//                              chunk's DMA inside it and each chunk's host side on a track
//                              per staging buffer
//
// Kernel times come from CUDA events recorded around each launch on the construct's stream
// (created only when profiling); transfers are timed on the host around the copy, which is
// complete when the copy call returns (transfer.cpp). Nothing is recorded, and no event is
// created, when the variable is unset.
#include "host_internal.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <tuple>

namespace ompgpu_host {
namespace {

struct ConstructStats {
  std::string where;       // "file:line"
  std::string construct;   // "target teams distribute parallel for", "target data", ...
  std::string kernel, mode;
  long long launches = 0;
  double kernel_ms = 0;
  std::size_t bytes_to = 0, bytes_from = 0;
  double ms_to = 0, ms_from = 0;
  long long copies_to = 0, copies_from = 0;
  long long allocs = 0;
  std::size_t alloc_bytes = 0;
  double alloc_ms = 0;     // in cudaMalloc and cudaFree (the device cache's reuse costs none)
  int order = 0;           // first seen
};

struct TraceEvent {
  std::string name, cat, args;   // args: a JSON object's members, without braces
  double ts_us, dur_us;
  int pid;                       // 0 the host, 1 + device
  long long tid;
};

struct Profile {
  std::mutex mu;
  std::map<std::string, ConstructStats> constructs;   // key: where + construct
  std::vector<TraceEvent> trace;
  std::map<std::thread::id, long long> host_threads;  // trace track of each host thread
  std::map<std::pair<int, const void *>, long long> streams;   // (device, stream) -> track
  std::map<std::tuple<int, bool, int>, long long> staging;     // (device, to it, buffer) -> host track
  std::map<int, std::string> device_names;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
};

Profile &profile() {
  static Profile *p = new Profile();   // never destroyed: read by the exit handler
  return *p;
}

std::string json_escape(const std::string &s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\', o += c;
    else if (static_cast<unsigned char>(c) < 0x20) o += strprintf("\\u%04x", c);
    else o += c;
  }
  return o;
}

// "file:line" of a construct; copies of the omp_target_memcpy routines have no place.
std::string where_of(const Loc &loc) { return loc.file ? std::string(loc.file) + ":" + std::to_string(loc.line) : std::string("<runtime call>"); }

ConstructStats &stats_of(Profile &p, const Loc &loc) {
  std::string where = where_of(loc);
  std::string construct = loc.construct ? loc.construct : "target";
  auto it = p.constructs.find(where + "\n" + construct);
  if (it == p.constructs.end()) {
    ConstructStats s;
    s.where = where;
    s.construct = construct;
    s.order = static_cast<int>(p.constructs.size());
    it = p.constructs.emplace(where + "\n" + construct, s).first;
  }
  return it->second;
}

long long host_track(Profile &p) {
  auto id = std::this_thread::get_id();
  auto it = p.host_threads.find(id);
  if (it == p.host_threads.end()) it = p.host_threads.emplace(id, static_cast<long long>(p.host_threads.size())).first;
  return it->second;
}

long long stream_track(Profile &p, int device, const void *stream) {
  auto key = std::make_pair(device, stream);
  auto it = p.streams.find(key);
  if (it == p.streams.end()) {
    long long n = 0;
    for (auto &s : p.streams) n += s.first.first == device;
    it = p.streams.emplace(key, n).first;
  }
  return it->second;
}

// Host tracks of the staging buffers, numbered after any host thread's (tid 1000000 on).
long long staging_track(Profile &p, int device, bool to_device, int buffer) {
  auto key = std::make_tuple(device, to_device, buffer);
  auto it = p.staging.find(key);
  if (it == p.staging.end()) it = p.staging.emplace(key, 1000000 + static_cast<long long>(p.staging.size())).first;
  return it->second;
}

void note_device(Profile &p, int device) {
  if (p.device_names.count(device)) return;
  std::string name = "GPU " + std::to_string(device);
  if (runtime_started() && device < static_cast<int>(rt().devices.size()))
    name += " (" + rt().devices[static_cast<std::size_t>(device)]->name + ")";
  p.device_names[device] = name;
}

std::string mb(std::size_t bytes) { return strprintf("%.3f", static_cast<double>(bytes) / 1e6); }

void print_table(Profile &p) {
  std::vector<const ConstructStats *> rows;
  for (auto &c : p.constructs) rows.push_back(&c.second);
  std::sort(rows.begin(), rows.end(), [](const ConstructStats *a, const ConstructStats *b) { return a->order < b->order; });
  std::string out = "\nompgpu profile (OMPGPU_PROFILE): time and data of each target construct\n";
  out += strprintf("%-28s %-34s %-36s %-7s %8s %11s %10s %11s %10s %11s %10s %7s %11s %9s\n", "location", "construct", "kernel",
                   "mode", "launches", "kernel ms", "mean us", "to dev MB", "to dev ms", "from dev MB", "from ms",
                   "allocs", "alloc MB", "alloc ms");
  ConstructStats total;
  for (const ConstructStats *r : rows) {
    const double mean_us = r->launches ? r->kernel_ms * 1e3 / static_cast<double>(r->launches) : 0;
    out += strprintf("%-28s %-34s %-36s %-7s %8lld %11.3f %10.1f %11s %10.3f %11s %10.3f %7lld %11s %9.3f\n",
                     r->where.c_str(), r->construct.c_str(), r->kernel.empty() ? "-" : r->kernel.c_str(),
                     r->mode.empty() ? "-" : r->mode.c_str(), r->launches, r->kernel_ms, mean_us,
                     mb(r->bytes_to).c_str(), r->ms_to, mb(r->bytes_from).c_str(), r->ms_from, r->allocs,
                     mb(r->alloc_bytes).c_str(), r->alloc_ms);
    total.launches += r->launches;
    total.kernel_ms += r->kernel_ms;
    total.bytes_to += r->bytes_to;
    total.ms_to += r->ms_to;
    total.bytes_from += r->bytes_from;
    total.ms_from += r->ms_from;
    total.allocs += r->allocs;
    total.alloc_bytes += r->alloc_bytes;
    total.alloc_ms += r->alloc_ms;
  }
  const double wall_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - p.start).count();
  out += strprintf("%-28s %-34s %-36s %-7s %8lld %11.3f %10s %11s %10.3f %11s %10.3f %7lld %11s %9.3f\n", "total", "-", "-", "-",
                   total.launches, total.kernel_ms, "-", mb(total.bytes_to).c_str(), total.ms_to,
                   mb(total.bytes_from).c_str(), total.ms_from, total.allocs, mb(total.alloc_bytes).c_str(),
                   total.alloc_ms);
  out += strprintf("transfer rates: to the device %.2f GB/s, from the device %.2f GB/s; run time since the runtime "
                   "loaded %.3f ms\n",
                   total.ms_to > 0 ? static_cast<double>(total.bytes_to) / (total.ms_to * 1e6) : 0.0,
                   total.ms_from > 0 ? static_cast<double>(total.bytes_from) / (total.ms_from * 1e6) : 0.0, wall_ms);
  std::fputs(out.c_str(), stderr);
}

void write_trace(Profile &p, const std::string &path) {
  std::FILE *f = std::fopen(path.c_str(), "w");
  if (!f) {
    warning("OMPGPU_PROFILE: cannot write the trace to '%s'", path.c_str());
    return;
  }
  std::fputs("{\"displayTimeUnit\": \"ms\", \"traceEvents\": [\n", f);
  bool first = true;
  auto sep = [&] {
    if (!first) std::fputs(",\n", f);
    first = false;
  };
  sep();
  std::fputs("{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 0, \"args\": {\"name\": \"host\"}}", f);
  for (auto &d : p.device_names) {
    sep();
    std::fprintf(f, "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": %d, \"args\": {\"name\": \"%s\"}}", 1 + d.first,
                 json_escape(d.second).c_str());
  }
  for (auto &s : p.streams) {
    sep();
    std::fprintf(f, "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": %d, \"tid\": %lld, \"args\": {\"name\": \"stream %lld\"}}",
                 1 + s.first.first, s.second, s.second);
  }
  for (auto &b : p.staging) {
    sep();
    std::fprintf(f, "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 0, \"tid\": %lld, \"args\": {\"name\": "
                    "\"staging buffer %d %s GPU %d\"}}",
                 b.second, std::get<2>(b.first), std::get<1>(b.first) ? "to" : "from", std::get<0>(b.first));
  }
  for (auto &h : p.host_threads) {
    sep();
    std::fprintf(f, "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 0, \"tid\": %lld, \"args\": {\"name\": \"host thread %lld\"}}",
                 h.second, h.second);
  }
  for (const TraceEvent &e : p.trace) {
    sep();
    std::fprintf(f, "{\"name\": \"%s\", \"cat\": \"%s\", \"ph\": \"X\", \"ts\": %.3f, \"dur\": %.3f, \"pid\": %d, \"tid\": %lld, "
                    "\"args\": {%s}}",
                 json_escape(e.name).c_str(), e.cat.c_str(), e.ts_us, e.dur_us, e.pid, e.tid, e.args.c_str());
  }
  std::fputs("\n]}\n", f);
  if (std::fclose(f) != 0) warning("OMPGPU_PROFILE: cannot write the trace to '%s'", path.c_str());
}

void report_at_exit() {
  if (exiting_on_error()) return;
  Profile &p = profile();
  if (!p.mu.try_lock()) return;   // another thread is inside a record: leave it
  print_table(p);
  if (env().profile != "1") write_trace(p, env().profile);
  p.mu.unlock();
}

Profile &recording() {
  static std::once_flag once;
  std::call_once(once, [] { std::atexit(report_at_exit); });
  return profile();
}

std::string loc_args(const Loc &loc) {
  const std::string where = where_of(loc);
  return "\"construct\": \"" + json_escape(loc.construct ? loc.construct : "target") + "\", \"location\": \"" +
         json_escape(where) + "\"";
}

// The trace's clock starts when the runtime loads (before main), not at the first record.
struct ClockAtLoad {
  ClockAtLoad() {
    if (!env().profile.empty()) profile();
  }
} g_clock_at_load;

}  // namespace

bool profiling() { return !env().profile.empty(); }

double profile_now_us() {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - profile().start).count();
}

void profile_kernel(const Loc &loc, const ompgpu_kernel_desc *k, int device, const void *stream, double start_us,
                    double kernel_ms, unsigned teams, unsigned threads) {
  Profile &p = recording();
  std::lock_guard<std::mutex> g(p.mu);
  note_device(p, device);
  ConstructStats &s = stats_of(p, loc);
  if (s.kernel.empty()) s.kernel = k->name ? k->name : "<unnamed kernel>";
  s.mode = k->mode == OMPGPU_MODE_SPMD ? "spmd" : "generic";
  s.launches++;
  s.kernel_ms += kernel_ms;
  if (env().profile == "1") return;
  p.trace.push_back({s.kernel, "kernel",
                     loc_args(loc) + strprintf(", \"teams\": %u, \"threads\": %u, \"mode\": \"%s\"", teams, threads,
                                               s.mode.c_str()),
                     start_us, kernel_ms * 1e3, 1 + device, stream_track(p, device, stream)});
}

void profile_transfer(const Loc &loc, int device, const void *stream, bool to_device, std::size_t bytes,
                      double start_us, double end_us) {
  Profile &p = recording();
  std::lock_guard<std::mutex> g(p.mu);
  note_device(p, device);
  ConstructStats &s = stats_of(p, loc);
  const double ms = (end_us - start_us) / 1e3;
  if (to_device) s.bytes_to += bytes, s.ms_to += ms, s.copies_to++;
  else s.bytes_from += bytes, s.ms_from += ms, s.copies_from++;
  if (env().profile == "1") return;
  p.trace.push_back({to_device ? "copy to device" : "copy from device", "transfer",
                     loc_args(loc) + strprintf(", \"bytes\": %zu", bytes), start_us, end_us - start_us, 1 + device,
                     stream_track(p, device, stream)});
}

void profile_staged_chunks(const Loc &loc, int device, const void *stream, bool to_device,
                           const std::vector<StagedChunk> &chunks) {
  if (env().profile == "1") return;
  Profile &p = recording();
  std::lock_guard<std::mutex> g(p.mu);
  note_device(p, device);
  const long long dma_track = stream_track(p, device, stream);
  for (std::size_t c = 0; c < chunks.size(); ++c) {
    const StagedChunk &k = chunks[c];
    const std::string args = loc_args(loc) + strprintf(", \"chunk\": %zu, \"bytes\": %zu, \"buffer\": %d", c, k.bytes, k.buffer);
    p.trace.push_back({to_device ? "chunk DMA to device" : "chunk DMA from device", "staging", args, k.dma_start_us,
                       k.dma_end_us - k.dma_start_us, 1 + device, dma_track});
    p.trace.push_back({to_device ? "into staging buffer" : "out of staging buffer", "staging", args, k.host_start_us,
                       k.host_end_us - k.host_start_us, 0, staging_track(p, device, to_device, k.buffer)});
  }
}

void profile_alloc(const Loc &loc, int device, std::size_t bytes, double ms) {
  Profile &p = recording();
  std::lock_guard<std::mutex> g(p.mu);
  note_device(p, device);
  ConstructStats &s = stats_of(p, loc);
  s.allocs += bytes > 0;
  s.alloc_bytes += bytes;
  s.alloc_ms += ms;
}

namespace {

// A span on the calling host thread's track of the trace (none when only the table is kept).
void host_span(const Loc &loc, const char *name, const char *category, double start_us, double end_us) {
  if (env().profile == "1") return;
  Profile &p = recording();
  std::lock_guard<std::mutex> g(p.mu);
  p.trace.push_back({name, category, loc_args(loc), start_us, end_us - start_us, 0, host_track(p)});
}

}  // namespace

void profile_construct(const Loc &loc, double start_us, double end_us) {
  host_span(loc, "target construct", "construct", start_us, end_us);
}

void profile_wait(const Loc &loc, const char *what, double start_us, double end_us) {
  host_span(loc, what, "wait", start_us, end_us);
}

}  // namespace ompgpu_host
