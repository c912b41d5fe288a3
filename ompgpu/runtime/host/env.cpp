// ompgpu host runtime: environment variables and host-side ICVs.
#include "host_internal.hpp"

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <string>
#include <strings.h>

namespace ompgpu_host {

namespace {

// Parses a whole decimal integer (surrounding blanks allowed). false if malformed.
bool parse_ll(const char *s, long long *out) {
  while (*s == ' ' || *s == '\t') ++s;
  if (!*s) return false;
  errno = 0;
  char *end = nullptr;
  long long v = std::strtoll(s, &end, 10);
  if (errno || end == s) return false;
  while (*end == ' ' || *end == '\t') ++end;
  if (*end) return false;
  *out = v;
  return true;
}

// Positive integer variable (OMP_NUM_TEAMS, OMP_TEAMS_THREAD_LIMIT); 0 when unset/invalid.
// A number of bytes >= 0 from the environment variable `name` into *out, if it is set; a
// warning where it is not such a number.
void read_bytes(const char *name, std::size_t *out) {
  const char *s = std::getenv(name);
  if (!s) return;
  long long v;
  if (parse_ll(s, &v) && v >= 0) *out = static_cast<std::size_t>(v);
  else warning("ignoring %s='%s' (not a number of bytes >= 0)", name, s);
}

long long positive_var(const char *name) {
  const char *s = std::getenv(name);
  if (!s) return 0;
  long long v;
  if (!parse_ll(s, &v) || v <= 0) {
    warning("ignoring %s='%s' (not a positive integer)", name, s);
    return 0;
  }
  return v;
}

// The default of OMPGPU_DEVICE_CACHE_BYTES (see Env): under the emulator the cache is off,
// so that a use of unmapped memory stays an error there.
#ifdef OMPGPU_EMU
constexpr std::size_t kDefaultDeviceCacheBytes = 0;
#else
constexpr std::size_t kDefaultDeviceCacheBytes = std::size_t(256) << 20;
#endif

Env *parse_env() {
  Env *e = new Env();   // never destroyed: usable from atexit handlers and late threads
  if (const char *s = std::getenv("OMP_TARGET_OFFLOAD")) {
    std::string v(s);
    while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.pop_back();
    std::size_t i = v.find_first_not_of(" \t");
    v = i == std::string::npos ? std::string() : v.substr(i);
    if (strcasecmp(v.c_str(), "MANDATORY") == 0) e->offload = Offload::Mandatory;
    else if (strcasecmp(v.c_str(), "DISABLED") == 0) e->offload = Offload::Disabled;
    else if (strcasecmp(v.c_str(), "DEFAULT") == 0) e->offload = Offload::Default;
    else warning("ignoring OMP_TARGET_OFFLOAD='%s' (expected MANDATORY, DISABLED or DEFAULT)", s);
  }
  if (const char *s = std::getenv("OMP_DEFAULT_DEVICE")) {
    long long v;
    if (parse_ll(s, &v) && v >= -1) e->default_device = v, e->default_device_set = true;
    else if (strcasecmp(s, "initial") == 0) e->default_device = -1, e->default_device_set = true;
    else warning("ignoring OMP_DEFAULT_DEVICE='%s' (not a device number)", s);
  }
  // Launchers name the node-local rank differently: Open MPI, MPICH/Hydra (and Intel MPI), Slurm.
  for (const char *name : {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"}) {
    long long v;
    const char *s = std::getenv(name);
    if (s && parse_ll(s, &v) && v >= 0) {
      e->local_rank = v;
      e->local_rank_var = name;
      break;
    }
  }
  for (const char *name : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID"}) {
    long long v;
    const char *s = std::getenv(name);
    if (s && parse_ll(s, &v) && v >= 0) {
      e->world_rank = v;
      break;
    }
  }
  e->num_teams = positive_var("OMP_NUM_TEAMS");
  e->teams_thread_limit = positive_var("OMP_TEAMS_THREAD_LIMIT");
  e->device_cache_bytes = kDefaultDeviceCacheBytes;
  read_bytes("OMPGPU_DEVICE_CACHE_BYTES", &e->device_cache_bytes);
  if (const char *s = std::getenv("OMPGPU_STARTUP")) {
    if (strcasecmp(s, "lazy") == 0) e->lazy_startup = true;
    else if (strcasecmp(s, "background") == 0) e->background_startup = true;
    else if (strcasecmp(s, "eager") != 0)
      warning("ignoring OMPGPU_STARTUP='%s' (expected eager, background or lazy)", s);
  }
  read_bytes("OMPGPU_STAGING_MIN_BYTES", &e->staging_min_bytes);
  read_bytes("OMPGPU_DEVICE_HEAP_BYTES", &e->device_heap_bytes);
  read_bytes("OMPGPU_STAGING_CHUNK_BYTES", &e->staging_chunk_bytes);
  if (const char *s = std::getenv("OMPGPU_STAGING_BUFFERS")) {
    long long v;
    if (parse_ll(s, &v) && v >= 2 && v <= 16) e->staging_buffers = static_cast<int>(v);
    else warning("ignoring OMPGPU_STAGING_BUFFERS='%s' (expected 2 to 16)", s);
  }
  if (const char *s = std::getenv("OMPGPU_FRESH_PAGES")) {
    static const char *const kModes[] = {"none", "huge", "populate", "both"};
    int mode = -1;
    for (int i = 0; i < 4; ++i)
      if (strcasecmp(s, kModes[i]) == 0) mode = i;
    if (mode >= 0) e->fresh_pages = mode;
    else warning("ignoring OMPGPU_FRESH_PAGES='%s' (expected none, huge, populate or both)", s);
  }
  if (const char *s = std::getenv("OMPGPU_GRID_WAVES")) {
    long long v;
    if (parse_ll(s, &v) && v >= 0) e->grid_waves = v;
    else warning("ignoring OMPGPU_GRID_WAVES='%s' (expected a number of waves, 0 for none)", s);
  }
  if (const char *s = std::getenv("OMPGPU_LOOP_TEAMS")) {
    long long v;
    if (parse_ll(s, &v) && v >= 0) e->loop_teams = v;
    else warning("ignoring OMPGPU_LOOP_TEAMS='%s' (expected a number of teams, 0 for all the GPU holds)", s);
  }
  if (const char *s = std::getenv("OMPGPU_PERSISTENT_LOOPS")) e->persistent_loops = std::strcmp(s, "0") != 0;
  if (const char *s = std::getenv("OMPGPU_DEFERRED_COPIES")) e->deferred_copies = std::strcmp(s, "0") != 0;
  if (const char *s = std::getenv("OMPGPU_COPY_THREADS")) {
    long long v;
    if (parse_ll(s, &v) && v >= 0 && v <= 64) e->copy_threads = static_cast<int>(v);
    else warning("ignoring OMPGPU_COPY_THREADS='%s' (expected 0 to 64)", s);
  }
  if (const char *s = std::getenv("OMPGPU_PROFILE")) {
    long long v;
    if (parse_ll(s, &v)) e->profile = v != 0 ? "1" : "";
    else if (strcasecmp(s, "true") == 0 || strcasecmp(s, "on") == 0 || strcasecmp(s, "yes") == 0) e->profile = "1";
    else if (*s && strcasecmp(s, "false") != 0 && strcasecmp(s, "off") != 0 && strcasecmp(s, "no") != 0) e->profile = s;
  }
  if (const char *s = std::getenv("OMPGPU_INFO")) {
    long long v;
    e->info = parse_ll(s, &v) ? v != 0 : (*s && strcasecmp(s, "false") != 0 && strcasecmp(s, "off") != 0);
  }
  return e;
}

std::atomic<long long> g_default_device{0};
std::once_flag g_env_once;
std::once_flag g_rank_device_once;
Env *g_env = nullptr;

// The initial default device of an MPI rank: OMP_DEFAULT_DEVICE as the user set it, else the
// node-local rank modulo the device count, so that the ranks of a node spread over its GPUs.
// Needs the device count, hence the runtime: resolved on the first use of the ICV.
void resolve_rank_device() {
  const Env &e = *g_env;
  if (e.local_rank < 0 && e.world_rank < 0) return;   // not an MPI rank: CUDA stays untouched
  int n = usable_devices();
  if (!e.default_device_set && e.local_rank >= 0 && n > 0) g_default_device.store(e.local_rank % n);
  if (e.info && (e.local_rank >= 0 || e.world_rank >= 0)) {
    long long d = g_default_device.load();
    std::string how = e.default_device_set ? std::string("OMP_DEFAULT_DEVICE")
                                           : e.local_rank >= 0 && n > 0
                                                 ? std::string(e.local_rank_var) + "=" + std::to_string(e.local_rank) +
                                                       " modulo " + std::to_string(n) + " device" + (n == 1 ? "" : "s")
                                                 : std::string("the default");
    std::string line = "ompgpu: rank " + std::to_string(e.world_rank) + " (local rank " + std::to_string(e.local_rank) +
                       "): default device " + std::to_string(d) + " of " + std::to_string(n) + ", from " + how + "\n";
    std::fputs(line.c_str(), stderr);
  }
}

}  // namespace

const Env &env() {
  std::call_once(g_env_once, [] {
    g_env = parse_env();
    g_default_device.store(g_env->default_device);
  });
  return *g_env;
}

long long default_device_icv() {
  env();
  std::call_once(g_rank_device_once, resolve_rank_device);
  return g_default_device.load();
}

extern "C" void ompgpu_device_teams_icvs(int icvs[2]) {
  icvs[0] = static_cast<int>(env().num_teams);
  icvs[1] = static_cast<int>(env().teams_thread_limit);
}

void reread_launch_environment() {
  env();
  // Parsed again only when one of the three changed (a Python API call does this every time).
  static const char *const kNames[] = {"OMP_NUM_TEAMS", "OMP_TEAMS_THREAD_LIMIT", "OMPGPU_INFO"};
  thread_local std::string last[3];
  thread_local bool read_once = false;
  bool changed = !read_once;
  for (int i = 0; i < 3; ++i) {
    const char *v = std::getenv(kNames[i]);
    const std::string now = v ? std::string("=") + v : std::string();   // "" unset, "=..." set
    if (now != last[i]) {
      last[i] = now;
      changed = true;
    }
  }
  read_once = true;
  if (!changed) return;
  Env *fresh = parse_env();
  g_env->num_teams = fresh->num_teams;
  g_env->teams_thread_limit = fresh->teams_thread_limit;
  g_env->info = fresh->info;
  delete fresh;
}

void set_default_device_icv(long long d) {
  env();
  std::call_once(g_rank_device_once, resolve_rank_device);   // before, so that it cannot undo d later
  g_default_device.store(d);
}

}  // namespace ompgpu_host
