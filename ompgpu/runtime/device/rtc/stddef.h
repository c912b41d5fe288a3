/* ompgpu: <stddef.h> for NVRTC (README.md). */
#ifndef OMPGPU_RTC_STDDEF_H
#define OMPGPU_RTC_STDDEF_H
typedef decltype(sizeof(0)) size_t;
typedef decltype((char *)0 - (char *)0) ptrdiff_t;
/* glibc's and GCC's layout on x86-64 (32 bytes, 16-aligned): sizeof(max_align_t) in device code
   must be the host's */
typedef struct {
  long long ompgpu_max_align_ll __attribute__((__aligned__(__alignof__(long long))));
  long double ompgpu_max_align_ld __attribute__((__aligned__(__alignof__(long double))));
} max_align_t;
static_assert(sizeof(max_align_t) == 32 && alignof(max_align_t) == 16, "max_align_t as the host's");
/* the C types whose layout NVRTC must share with the host compiler (x86-64 Linux, LP64) */
static_assert(sizeof(long) == 8 && sizeof(wchar_t) == 4 && sizeof(long double) == 16 && alignof(long double) == 16 &&
              (char)-1 < 0, "x86-64 Linux as the host (these headers say so): elsewhere nvcc compiles");
#ifndef NULL
#define NULL 0
#endif
/* NVRTC 13.5 has GCC's __builtin_offsetof (a constant expression); 13.0 has not: there the
   classic member-address form, which device code evaluates at run time */
#if defined(__has_builtin)
#if __has_builtin(__builtin_offsetof)
#define offsetof(type, member) __builtin_offsetof(type, member)
#endif
#endif
#ifndef offsetof
#define offsetof(type, member) ((size_t)&(((type *)0)->member))
#endif
#endif
