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
Str source_of_fault(void *uctx);

inline struct sigaction &old_segv() { static struct sigaction a; return a; }
inline struct sigaction &old_fpe() { static struct sigaction a; return a; }

void fault_handler(int sig, siginfo_t *si, void *uctx);

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
