// emu_intrinsics.h - part of the ompgpu device emulator: include cuda_emu.h, which includes
// the parts in order (each uses what the ones before it define).
// Fences, clocks, bit manipulation and conversions, math intrinsics.
#ifndef OMPGPU_EMU_INTRINSICS_H
#define OMPGPU_EMU_INTRINSICS_H

// ----- fences, time -------------------------------------------------------------------------
inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); ompgpu_emu::poll_hook(); }
inline void __threadfence_block() { __atomic_thread_fence(__ATOMIC_SEQ_CST); ompgpu_emu::poll_hook(); }
inline void __threadfence_system() { __atomic_thread_fence(__ATOMIC_SEQ_CST); ompgpu_emu::poll_hook(); }
// Cycles of an emulated 1 GHz clock (cudaDevAttrClockRate says 1000000 kHz).
inline long long int clock64() { ompgpu_emu::poll_hook(); return (long long)ompgpu_emu::now_ns(); }
inline unsigned long long __globaltimer() { return ompgpu_emu::now_ns(); }
inline void __nanosleep(unsigned int ns) {
  (void)ns;
  ompgpu_emu::Exec *e = ompgpu_emu::t_exec;
  if (e && e->cur) ompgpu_emu::yield_current(*e, true);
}
// clock() is the C library's (processor time), it does not yield.

// ----- bits and conversions ---------------------------------------------------------------------
inline int __popc(unsigned int x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned)x); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((unsigned long long)x); }
inline unsigned int __brev(unsigned int x) {
  unsigned r = 0;
  for (int i = 0; i < 32; i++) r |= ((x >> i) & 1u) << (31 - i);
  return r;
}
inline unsigned long long __brevll(unsigned long long x) {
  return ((unsigned long long)__brev((unsigned)x) << 32) | __brev((unsigned)(x >> 32));
}
inline int __mul24(int x, int y) { return (int)(((long long)(x << 8 >> 8)) * (y << 8 >> 8)); }
inline unsigned __umul24(unsigned x, unsigned y) { return (x & 0xffffffu) * (y & 0xffffffu); }
inline int __mulhi(int x, int y) { return (int)(((long long)x * y) >> 32); }
inline unsigned __umulhi(unsigned x, unsigned y) { return (unsigned)(((unsigned long long)x * y) >> 32); }
inline long long __mul64hi(long long x, long long y) { return (long long)(((__int128)x * y) >> 64); }
inline unsigned long long __umul64hi(unsigned long long x, unsigned long long y) {
  return (unsigned long long)(((unsigned __int128)x * y) >> 64);
}
inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s) {
  unsigned long long v = ((unsigned long long)y << 32) | x;
  unsigned r = 0;
  for (int i = 0; i < 4; i++) r |= (unsigned)((v >> (8 * ((s >> (4 * i)) & 7))) & 0xff) << (8 * i);
  return r;
}
inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned sh) {
  sh &= 31;
  return sh ? (hi << sh) | (lo >> (32 - sh)) : hi;
}
inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned sh) {
  sh &= 31;
  return sh ? (lo >> sh) | (hi << (32 - sh)) : lo;
}
inline long long __double_as_longlong(double x) { return ompgpu_emu::from_bits<long long>(ompgpu_emu::to_bits(x)); }
inline double __longlong_as_double(long long x) { return ompgpu_emu::from_bits<double>(ompgpu_emu::to_bits(x)); }
inline int __float_as_int(float x) { return ompgpu_emu::from_bits<int>(ompgpu_emu::to_bits(x)); }
inline float __int_as_float(int x) { return ompgpu_emu::from_bits<float>(ompgpu_emu::to_bits(x)); }
inline unsigned __float_as_uint(float x) { return ompgpu_emu::from_bits<unsigned>(ompgpu_emu::to_bits(x)); }
inline float __uint_as_float(unsigned x) { return ompgpu_emu::from_bits<float>(ompgpu_emu::to_bits(x)); }
inline int __double2hiint(double x) { return (int)(__double_as_longlong(x) >> 32); }
inline int __double2loint(double x) { return (int)__double_as_longlong(x); }
inline double __hiloint2double(int hi, int lo) {
  return __longlong_as_double((long long)(((unsigned long long)(unsigned)hi << 32) | (unsigned)lo));
}
inline int __float2int_rn(float x) { return (int)nearbyintf(x); }
inline int __float2int_rz(float x) { return (int)x; }
inline int __double2int_rn(double x) { return (int)nearbyint(x); }
inline int __double2int_rz(double x) { return (int)x; }
inline float __int2float_rn(int x) { return (float)x; }
inline double __int2double_rn(int x) { return (double)x; }
inline float __double2float_rn(double x) { return (float)x; }
inline long long __double2ll_rz(double x) { return (long long)x; }
inline double __ll2double_rn(long long x) { return (double)x; }
template <class T>
inline T __ldg(const T *p) { return *p; }
template <class T>
inline T __ldcg(const T *p) { return *p; }
template <class T>
inline T __ldca(const T *p) { return *p; }

// ----- math ---------------------------------------------------------------------------------------
inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
inline double rsqrt(double x) { return 1.0 / sqrt(x); }
inline float __saturatef(float x) { return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x; }
inline float __fdividef(float x, float y) { return x / y; }
inline float fdividef(float x, float y) { return x / y; }
inline float __expf(float x) { return expf(x); }
inline float __exp10f(float x) { return powf(10.0f, x); }
inline float __logf(float x) { return logf(x); }
inline float __log2f(float x) { return log2f(x); }
inline float __log10f(float x) { return log10f(x); }
inline float __sinf(float x) { return sinf(x); }
inline float __cosf(float x) { return cosf(x); }
inline float __tanf(float x) { return tanf(x); }
inline float __powf(float x, float y) { return powf(x, y); }
inline float __fmaf_rn(float x, float y, float z) { return fmaf(x, y, z); }
inline double __fma_rn(double x, double y, double z) { return fma(x, y, z); }
inline float __fadd_rn(float x, float y) { return x + y; }
inline float __fmul_rn(float x, float y) { return x * y; }
inline float __fdiv_rn(float x, float y) { return x / y; }
inline double __dadd_rn(double x, double y) { return x + y; }
inline double __dmul_rn(double x, double y) { return x * y; }
inline double __ddiv_rn(double x, double y) { return x / y; }
inline float __fsqrt_rn(float x) { return sqrtf(x); }
inline double __dsqrt_rn(double x) { return sqrt(x); }
inline float __frcp_rn(float x) { return 1.0f / x; }
inline double __drcp_rn(double x) { return 1.0 / x; }

// CUDA's global min/max overloads.
#define OMPGPU_EMU_MINMAX(R, A, B) \
  inline R min(A a, B b) { return (R)a < (R)b ? (R)a : (R)b; } \
  inline R max(A a, B b) { return (R)a > (R)b ? (R)a : (R)b; }
OMPGPU_EMU_MINMAX(int, int, int)
OMPGPU_EMU_MINMAX(unsigned int, unsigned int, unsigned int)
OMPGPU_EMU_MINMAX(unsigned int, int, unsigned int)
OMPGPU_EMU_MINMAX(unsigned int, unsigned int, int)
OMPGPU_EMU_MINMAX(long, long, long)
OMPGPU_EMU_MINMAX(unsigned long, unsigned long, unsigned long)
OMPGPU_EMU_MINMAX(long long, long long, long long)
OMPGPU_EMU_MINMAX(unsigned long long, unsigned long long, unsigned long long)
OMPGPU_EMU_MINMAX(unsigned long long, long long, unsigned long long)
OMPGPU_EMU_MINMAX(unsigned long long, unsigned long long, long long)
OMPGPU_EMU_MINMAX(float, float, float)
OMPGPU_EMU_MINMAX(double, double, double)
OMPGPU_EMU_MINMAX(double, float, double)
OMPGPU_EMU_MINMAX(double, double, float)
#undef OMPGPU_EMU_MINMAX
inline unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }
inline unsigned umax(unsigned a, unsigned b) { return a > b ? a : b; }
inline long long llmin(long long a, long long b) { return a < b ? a : b; }
inline long long llmax(long long a, long long b) { return a > b ? a : b; }
inline unsigned long long ullmin(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
inline unsigned long long ullmax(unsigned long long a, unsigned long long b) { return a > b ? a : b; }


#endif  // OMPGPU_EMU_INTRINSICS_H
