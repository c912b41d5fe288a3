// ompgpu host runtime: diagnostics (errors with the user's source location, the
// OMPGPU_INFO log).
#include "host_internal.hpp"

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace ompgpu_host {

namespace {

std::string vformat(const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  char buf[512];
  int n = std::vsnprintf(buf, sizeof buf, fmt, ap);
  std::string s;
  if (n < 0) {
    s = fmt;
  } else if (static_cast<std::size_t>(n) < sizeof buf) {
    s.assign(buf, static_cast<std::size_t>(n));
  } else {
    s.resize(static_cast<std::size_t>(n) + 1);
    std::vsnprintf(&s[0], s.size(), fmt, ap2);
    s.resize(static_cast<std::size_t>(n));
  }
  va_end(ap2);
  return s;
}

// "file:line:col: " (pieces that are unknown are left out; "" when nothing is known)
std::string prefix(const Loc &loc, bool with_col) {
  if (!loc.file || !*loc.file) return std::string();
  std::string s = loc.file;
  if (loc.line > 0) {
    s += ":" + std::to_string(loc.line);
    if (with_col && loc.col > 0) s += ":" + std::to_string(loc.col);
  }
  return s + ": ";
}

// Serialises the fatal path: the first thread to fail reports and exits; others wait.
std::mutex &fatal_mutex() {
  static std::mutex *m = new std::mutex();
  return *m;
}

}  // namespace

Loc make_loc(const ompgpu_srcloc *l, const char *default_construct) {
  Loc loc;
  if (l) {
    loc.file = l->file;
    loc.line = l->line;
    loc.col = l->col;
    loc.construct = l->construct;
  }
  if (!loc.construct) loc.construct = default_construct;
  return loc;
}

Loc make_loc(const ompgpu_kernel_desc *k) {
  Loc loc;
  loc.file = k->file;
  loc.line = k->line;
  loc.col = k->col;
  loc.construct = k->construct ? k->construct : "target";
  return loc;
}

std::string strprintf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  std::string s = vformat(fmt, ap);
  va_end(ap);
  return s;
}

namespace {
std::atomic<bool> g_exiting_on_error{false};
}  // namespace

bool exiting_on_error() { return g_exiting_on_error.load(); }

void fatal_text(const std::string &text) {
  // Embedded (ompgpu_py_call): the error goes back to the caller; locks held are
  // lock_guards, released as it unwinds.
  if (errors_are_thrown()) throw RuntimeError(text);
  fatal_mutex().lock();   // never unlocked: the process ends here
  g_exiting_on_error.store(true);
  std::fflush(stdout);
  std::fputs(text.c_str(), stderr);
  std::fflush(stderr);
  std::exit(1);
}

void fatal_with_notes(const Loc &loc, const std::string &msg, const std::vector<std::string> &notes) {
  std::string p = prefix(loc, true);
  std::string out = "ompgpu: " + p + "error: " + msg + "\n";
  for (const std::string &n : notes)
    if (!n.empty()) out += "ompgpu: " + p + "note: " + n + "\n";
  fatal_text(out);
}

std::string loc_prefix(const Loc &loc, bool with_col) { return prefix(loc, with_col); }

void fatal(const Loc &loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  std::string msg = vformat(fmt, ap);
  va_end(ap);
  fatal_with_notes(loc, msg, {});
}

std::string cuda_error_text(cudaError_t err) {
  const char *name = cudaGetErrorName(err);
  const char *str = cudaGetErrorString(err);
  return std::string(name ? name : "cudaError") + ": " + (str ? str : "unknown error");
}

bool is_kernel_fault(cudaError_t err) {
  if (err == cudaErrorLaunchFailure) return true;
#ifndef OMPGPU_EMU
  if (err == cudaErrorIllegalAddress || err == cudaErrorMisalignedAddress ||
      err == cudaErrorInvalidAddressSpace || err == cudaErrorInvalidPc)
    return true;
#endif
  return false;
}

void cuda_fatal(const Loc &loc, cudaError_t err, const std::string &what, std::vector<std::string> notes) {
  if (err == cudaErrorMemoryAllocation &&
      (notes.empty() || notes[0].rfind("out of device memory", 0) != 0))
    notes.insert(notes.begin(), "out of device memory");
  fatal_with_notes(loc, what + " failed: " + cuda_error_text(err), notes);
}

void warning(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  std::string msg = vformat(fmt, ap);
  va_end(ap);
  std::fprintf(stderr, "ompgpu: warning: %s\n", msg.c_str());
}

void info(const Loc &loc, const char *fmt, ...) {
  if (!info_on()) return;
  va_list ap;
  va_start(ap, fmt);
  std::string msg = vformat(fmt, ap);
  va_end(ap);
  std::string line = "ompgpu: " + prefix(loc, false) + msg + "\n";
  std::fputs(line.c_str(), stderr);   // one write per line, so lines of threads do not mix
}

}  // namespace ompgpu_host
