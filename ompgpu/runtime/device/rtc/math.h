/* ompgpu: <math.h> for NVRTC (README.md). NVRTC declares the math functions itself; its front
   end has none of GCC's floating-point builtins, which glibc's INFINITY, NAN and HUGE_VAL
   expand to (in the user's preprocessed code too): here they are the bit patterns. */
#ifndef OMPGPU_RTC_MATH_H
#define OMPGPU_RTC_MATH_H
#define __builtin_inff() __int_as_float(0x7f800000)
#define __builtin_inf() __longlong_as_double(0x7ff0000000000000LL)
#define __builtin_infl() __builtin_inf()
#define __builtin_huge_valf() __builtin_inff()
#define __builtin_huge_val() __builtin_inf()
#define __builtin_huge_vall() __builtin_inf()
#define __builtin_nanf(tag) __int_as_float(0x7fc00000)
#define __builtin_nan(tag) __longlong_as_double(0x7ff8000000000000LL)
#define __builtin_nanl(tag) __builtin_nan(tag)
#define INFINITY __builtin_inff()
#define NAN __builtin_nanf("")
#define HUGE_VAL __builtin_huge_val()
#define HUGE_VALF __builtin_huge_valf()
#endif
