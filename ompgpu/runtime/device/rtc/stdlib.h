/* ompgpu: <stdlib.h> for NVRTC (README.md): NVRTC declares what device code may call of it. */
#include <stddef.h>
