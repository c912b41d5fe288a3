// emu_faults.h - part of the ompgpu device emulator: include cuda_emu.h, which includes
// the parts in order (each uses what the ones before it define).
// Memory and faults: the fault handler (fiber stack overflow, bad accesses inside kernels, named by the user's source line).
#ifndef OMPGPU_EMU_FAULTS_H
#define OMPGPU_EMU_FAULTS_H

namespace ompgpu_emu {

// ----- fault handler: fiber stack overflow, bad accesses inside kernels --------------------
// The user's source line of the faulting instruction, as compute-sanitizer names it: the
// generated device code carries `#line` markers for the user's statements and the emulator
// compiles it with line tables (-g1), so addr2line maps the program counter back. Frames of
// the runtime's own headers (inlined into the kernel) are skipped: the user's statement is
// the nearest enclosing one. Empty when addr2line or the line tables are missing.
inline Str source_of_fault(void *uctx) {
#if defined(__x86_64__)
  const uintptr_t pc = (uintptr_t)((ucontext_t *)uctx)->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
  const uintptr_t pc = (uintptr_t)((ucontext_t *)uctx)->uc_mcontext.pc;
#else
  const uintptr_t pc = 0;
#endif
  Dl_info info;
  if (pc == 0 || dladdr((void *)pc, &info) == 0 || info.dli_fname == nullptr) return strf("%s", "");
  char cmd[1200];
  snprintf(cmd, sizeof cmd, "addr2line -i -e '%s' 0x%lx 2>/dev/null", info.dli_fname,
           (unsigned long)(pc - (uintptr_t)info.dli_fbase));
  FILE *p = popen(cmd, "r");
  if (!p) return strf("%s", "");
  char line[600], best[600] = "";
  while (fgets(line, sizeof line, p)) {
    line[strcspn(line, "\n")] = 0;
    if (line[0] == '?' || strstr(line, ".cuh:") || strstr(line, "cuda_emu.h:") || strstr(line, "/include/")) continue;
    snprintf(best, sizeof best, "%s", line);
    break;
  }
  pclose(p);
  if (!best[0]) return strf("%s", "");
  char *disc = strstr(best, " (discriminator");
  if (disc) *disc = 0;
  return strf("\n  at %s (the statement running when the fault happened)", best);
}

inline struct sigaction &old_segv() { static struct sigaction a; return a; }
inline struct sigaction &old_fpe() { static struct sigaction a; return a; }

inline void fault_handler(int sig, siginfo_t *si, void *uctx) {
  Exec *e = t_exec;
  if (e && e->cur) {
    char *a = (char *)si->si_addr;
    char buf[600];
    int n;
    if (sig == SIGSEGV && e->region && a >= e->region && a < e->region + e->region_size &&
        (size_t)(a - e->region) % e->slot < e->guard) {
      size_t idx = (size_t)(a - e->region) / e->slot;
      n = snprintf(buf, sizeof buf,
                   "ompgpu-emu: stack overflow in block %s thread %zu of kernel %s (fiber stacks are %zu "
                   "bytes; set OMPGPU_EMU_STACK to more)\n",
                   fmt_block(e->block).c_str(), idx, e->L ? e->L->name : "?", e->stack);
    } else if (sig == SIGSEGV) {
      n = snprintf(buf, sizeof buf, "ompgpu-emu: illegal memory access at address %p%s%s\n", (void *)a,
                   where().c_str(), source_of_fault(uctx).c_str());
    } else {
      n = snprintf(buf, sizeof buf, "ompgpu-emu: arithmetic exception (%s)%s%s\n",
                   si->si_code == FPE_INTDIV ? "integer division by zero" : "SIGFPE", where().c_str(),
                   source_of_fault(uctx).c_str());
    }
    if (!claim_report()) {
      for (;;) pause();
    }
    fflush(stdout);
    if (n > 0 && write(2, buf, (size_t)std::min(n, (int)sizeof buf - 1)) < 0) {
    }
    _exit(3);
  }
  // Not ours: hand over to whoever was there before.
  struct sigaction &old = sig == SIGSEGV ? old_segv() : old_fpe();
  if ((old.sa_flags & SA_SIGINFO) && old.sa_sigaction) {
    old.sa_sigaction(sig, si, uctx);
  } else if (old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN) {
    old.sa_handler(sig);
  } else {
    sigaction(sig, &old, nullptr);  // re-executing the faulting instruction ends the process
  }
}

inline void install_fault_handler() {
  static bool once = [] {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = fault_handler;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &old_segv());
    sigaction(SIGFPE, &sa, &old_fpe());
    return true;
  }();
  (void)once;
}

}  // namespace ompgpu_emu

#endif  // OMPGPU_EMU_FAULTS_H
