// ompgpu stand-in for <math.h> under NVRTC: the functions are built in; the macros are not.
#pragma once
#ifndef INFINITY
#define INFINITY (1.0f / 0.0f)
#endif
#ifndef NAN
#define NAN __int_as_float(0x7fc00000)
#endif
#ifndef HUGE_VAL
#define HUGE_VAL (1.0 / 0.0)
#endif
#ifndef HUGE_VALF
#define HUGE_VALF (1.0f / 0.0f)
#endif
