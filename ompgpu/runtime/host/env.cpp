// ompgpu host runtime: environment variables and host-side ICVs.
#include "host_internal.hpp"

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
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
    if (parse_ll(s, &v) && v >= -1) e->default_device = v;
    else if (strcasecmp(s, "initial") == 0) e->default_device = -1;
    else warning("ignoring OMP_DEFAULT_DEVICE='%s' (not a device number)", s);
  }
  e->num_teams = positive_var("OMP_NUM_TEAMS");
  e->teams_thread_limit = positive_var("OMP_TEAMS_THREAD_LIMIT");
  e->device_cache_bytes = kDefaultDeviceCacheBytes;
  if (const char *s = std::getenv("OMPGPU_DEVICE_CACHE_BYTES")) {
    long long v;
    if (parse_ll(s, &v) && v >= 0) e->device_cache_bytes = static_cast<std::size_t>(v);
    else warning("ignoring OMPGPU_DEVICE_CACHE_BYTES='%s' (not a number of bytes >= 0)", s);
  }
  if (const char *s = std::getenv("OMPGPU_INFO")) {
    long long v;
    e->info = parse_ll(s, &v) ? v != 0 : (*s && strcasecmp(s, "false") != 0 && strcasecmp(s, "off") != 0);
  }
  return e;
}

std::atomic<long long> g_default_device{0};
std::once_flag g_env_once;
Env *g_env = nullptr;

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
  return g_default_device.load();
}

void set_default_device_icv(long long d) {
  env();
  g_default_device.store(d);
}

}  // namespace ompgpu_host
