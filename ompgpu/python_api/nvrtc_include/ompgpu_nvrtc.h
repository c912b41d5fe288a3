// Included first in every NVRTC compilation of ompgpu-generated code (ompgpu.compile).
//
// The user's code reaches the generator preprocessed with the host's headers, so glibc's
// macros have already become GCC built-ins (INFINITY -> __builtin_inff(), isinf ->
// __builtin_isinf_sign, ...). nvcc knows them; NVRTC knows only some. The missing ones are
// spelled here with what NVRTC has. The constants stay constant expressions (a division
// by zero folds to infinity), so they still work in initialisers.
#pragma once
#define OMPGPU_NVRTC 1

#define __builtin_inff() (1.0f / 0.0f)
#define __builtin_inf() (1.0 / 0.0)
#define __builtin_infl() (1.0 / 0.0)
#define __builtin_huge_valf() (1.0f / 0.0f)
#define __builtin_huge_val() (1.0 / 0.0)
#define __builtin_huge_vall() (1.0 / 0.0)
#define __builtin_nanf(tag) __int_as_float(0x7fc00000)
#define __builtin_nan(tag) __longlong_as_double(0x7ff8000000000000LL)
#define __builtin_nanl(tag) __longlong_as_double(0x7ff8000000000000LL)
#define __builtin_signbit(x) signbit(x)
#define __builtin_signbitf(x) signbit(x)
#define __builtin_isinf_sign(x) (isinf(x) ? (signbit(x) ? -1 : 1) : 0)
#define __builtin_fabs(x) fabs(x)
#define __builtin_fabsf(x) fabsf(x)
#define __builtin_sqrt(x) sqrt(x)
#define __builtin_sqrtf(x) sqrtf(x)
