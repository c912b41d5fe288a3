// ompgpu stand-in for <stdbool.h> under NVRTC: what device code uses from it is built into NVRTC.
#pragma once
