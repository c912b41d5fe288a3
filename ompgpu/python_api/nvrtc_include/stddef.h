// ompgpu stand-in for <stddef.h> under NVRTC (size_t and ptrdiff_t are built in).
#pragma once
#ifndef NULL
#define NULL 0
#endif
#ifndef offsetof
#define offsetof(type, member) __builtin_offsetof(type, member)
#endif
