// ompgpu stand-in for <stdlib.h> under NVRTC: what device code uses from it is built into NVRTC.
#pragma once
