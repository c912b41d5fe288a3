// emu_atomics.h - part of the ompgpu device emulator: include cuda_emu.h, which includes
// the parts in order (each uses what the ones before it define).
// Atomics: address-space predicates and atomic instructions (real ones: blocks may run on several OS threads), with a scheduling hook.
#ifndef OMPGPU_EMU_ATOMICS_H
#define OMPGPU_EMU_ATOMICS_H

// ----- address-space predicates -----------------------------------------------------------
inline unsigned int __isLocal(const void *p) { return ompgpu_emu::is_local_address(p) ? 1u : 0u; }
inline unsigned int __isGlobal(const void *p) { return ompgpu_emu::is_local_address(p) ? 0u : 1u; }

// ----- atomics ------------------------------------------------------------------------------
// Real atomic instructions (blocks may run on several OS threads), plus a scheduling hook.
#define OMPGPU_EMU_ATOMIC_RMW(NAME, T, BUILTIN)                              \
  inline T NAME(T *address, T val) {                                         \
    ompgpu_emu::check_atomic_address(address);                               \
    T old = BUILTIN(address, val, __ATOMIC_SEQ_CST);                         \
    ompgpu_emu::atomic_hook(ompgpu_emu::rmw_changed_##NAME(old, val));       \
    return old;                                                              \
  }
namespace ompgpu_emu {
template <class T> inline bool rmw_changed_atomicAdd(T, T v) { return v != 0; }
template <class T> inline bool rmw_changed_atomicSub(T, T v) { return v != 0; }
template <class T> inline bool rmw_changed_atomicAnd(T o, T v) { return (o & v) != o; }
template <class T> inline bool rmw_changed_atomicOr(T o, T v) { return (o | v) != o; }
template <class T> inline bool rmw_changed_atomicXor(T, T v) { return v != 0; }
template <class T> inline bool rmw_changed_atomicExch(T o, T v) { return o != v; }
}  // namespace ompgpu_emu
OMPGPU_EMU_ATOMIC_RMW(atomicAdd, int, __atomic_fetch_add)
OMPGPU_EMU_ATOMIC_RMW(atomicAdd, unsigned int, __atomic_fetch_add)
OMPGPU_EMU_ATOMIC_RMW(atomicAdd, unsigned long long int, __atomic_fetch_add)
OMPGPU_EMU_ATOMIC_RMW(atomicSub, int, __atomic_fetch_sub)
OMPGPU_EMU_ATOMIC_RMW(atomicSub, unsigned int, __atomic_fetch_sub)
OMPGPU_EMU_ATOMIC_RMW(atomicExch, int, __atomic_exchange_n)
OMPGPU_EMU_ATOMIC_RMW(atomicExch, unsigned int, __atomic_exchange_n)
OMPGPU_EMU_ATOMIC_RMW(atomicExch, unsigned long long int, __atomic_exchange_n)
OMPGPU_EMU_ATOMIC_RMW(atomicAnd, int, __atomic_fetch_and)
OMPGPU_EMU_ATOMIC_RMW(atomicAnd, unsigned int, __atomic_fetch_and)
OMPGPU_EMU_ATOMIC_RMW(atomicAnd, long long, __atomic_fetch_and)
OMPGPU_EMU_ATOMIC_RMW(atomicAnd, unsigned long long, __atomic_fetch_and)
OMPGPU_EMU_ATOMIC_RMW(atomicOr, int, __atomic_fetch_or)
OMPGPU_EMU_ATOMIC_RMW(atomicOr, unsigned int, __atomic_fetch_or)
OMPGPU_EMU_ATOMIC_RMW(atomicOr, long long, __atomic_fetch_or)
OMPGPU_EMU_ATOMIC_RMW(atomicOr, unsigned long long, __atomic_fetch_or)
OMPGPU_EMU_ATOMIC_RMW(atomicXor, int, __atomic_fetch_xor)
OMPGPU_EMU_ATOMIC_RMW(atomicXor, unsigned int, __atomic_fetch_xor)
OMPGPU_EMU_ATOMIC_RMW(atomicXor, long long, __atomic_fetch_xor)
OMPGPU_EMU_ATOMIC_RMW(atomicXor, unsigned long long, __atomic_fetch_xor)
#undef OMPGPU_EMU_ATOMIC_RMW

namespace ompgpu_emu {
// Read-modify-write through compare-and-swap: new = f(old).
template <class T, class F>
inline T cas_loop(T *address, F f) {
  check_atomic_address(address);
  T old;
  __atomic_load(address, &old, __ATOMIC_RELAXED);
  T nw;
  do {
    nw = f(old);
  } while (!__atomic_compare_exchange(address, &old, &nw, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
  atomic_hook(memcmp(&old, &nw, sizeof(T)) != 0);
  return old;
}
}  // namespace ompgpu_emu

#define OMPGPU_EMU_ATOMIC_MINMAX(T)                                                                  \
  inline T atomicMin(T *address, T val) {                                                            \
    return ompgpu_emu::cas_loop(address, [val](T o) { return val < o ? val : o; });                  \
  }                                                                                                  \
  inline T atomicMax(T *address, T val) {                                                            \
    return ompgpu_emu::cas_loop(address, [val](T o) { return val > o ? val : o; });                  \
  }
OMPGPU_EMU_ATOMIC_MINMAX(int)
OMPGPU_EMU_ATOMIC_MINMAX(unsigned int)
OMPGPU_EMU_ATOMIC_MINMAX(long long)
OMPGPU_EMU_ATOMIC_MINMAX(unsigned long long)
#undef OMPGPU_EMU_ATOMIC_MINMAX

inline float atomicAdd(float *address, float val) {
  return ompgpu_emu::cas_loop(address, [val](float o) { return o + val; });
}
inline double atomicAdd(double *address, double val) {
  return ompgpu_emu::cas_loop(address, [val](double o) { return o + val; });
}
inline float atomicExch(float *address, float val) {
  float old;
  __atomic_exchange(address, &val, &old, __ATOMIC_SEQ_CST);
  ompgpu_emu::atomic_hook(memcmp(&old, &val, sizeof old) != 0);
  return old;
}
inline unsigned int atomicInc(unsigned int *address, unsigned int val) {
  return ompgpu_emu::cas_loop(address, [val](unsigned o) { return o >= val ? 0u : o + 1; });
}
inline unsigned int atomicDec(unsigned int *address, unsigned int val) {
  return ompgpu_emu::cas_loop(address, [val](unsigned o) { return (o == 0 || o > val) ? val : o - 1; });
}
#define OMPGPU_EMU_ATOMIC_CAS(T)                                                                         \
  inline T atomicCAS(T *address, T compare, T val) {                                                     \
    ompgpu_emu::check_atomic_address(address);                                                           \
    T old = compare;                                                                                     \
    __atomic_compare_exchange_n(address, &old, val, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);          \
    ompgpu_emu::atomic_hook(old == compare && compare != val);                                           \
    return old;                                                                                          \
  }
OMPGPU_EMU_ATOMIC_CAS(int)
OMPGPU_EMU_ATOMIC_CAS(unsigned int)
OMPGPU_EMU_ATOMIC_CAS(unsigned long long int)
OMPGPU_EMU_ATOMIC_CAS(unsigned short int)
#undef OMPGPU_EMU_ATOMIC_CAS

// _block and _system scopes behave like the device-scope ones here.
#define OMPGPU_EMU_ATOMIC_SCOPES(NAME)                                                     \
  template <class... A>                                                                    \
  inline auto NAME##_block(A... a) -> decltype(NAME(a...)) { return NAME(a...); }          \
  template <class... A>                                                                    \
  inline auto NAME##_system(A... a) -> decltype(NAME(a...)) { return NAME(a...); }
OMPGPU_EMU_ATOMIC_SCOPES(atomicAdd)
OMPGPU_EMU_ATOMIC_SCOPES(atomicSub)
OMPGPU_EMU_ATOMIC_SCOPES(atomicExch)
OMPGPU_EMU_ATOMIC_SCOPES(atomicMin)
OMPGPU_EMU_ATOMIC_SCOPES(atomicMax)
OMPGPU_EMU_ATOMIC_SCOPES(atomicAnd)
OMPGPU_EMU_ATOMIC_SCOPES(atomicOr)
OMPGPU_EMU_ATOMIC_SCOPES(atomicXor)
OMPGPU_EMU_ATOMIC_SCOPES(atomicCAS)
OMPGPU_EMU_ATOMIC_SCOPES(atomicInc)
OMPGPU_EMU_ATOMIC_SCOPES(atomicDec)
#undef OMPGPU_EMU_ATOMIC_SCOPES


#endif  // OMPGPU_EMU_ATOMICS_H
