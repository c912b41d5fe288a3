"""What device code may call without a definition in the user's file."""
from __future__ import annotations

import re
from pathlib import Path

from pycparser import c_ast

from ompgpu.parser.cfront import walk_nodes

# Functions a kernel may call without a definition in the file: CUDA provides them on the device.
DEVICE_LIBRARY = frozenset("""
offsetof printf malloc free memcpy memset memcmp abs labs llabs
sqrt sqrtf cbrt cbrtf exp expf exp2 exp2f expm1 expm1f log logf log2 log2f log10 log10f log1p log1pf
pow powf sin sinf cos cosf tan tanf asin asinf acos acosf atan atanf atan2 atan2f sinh sinhf cosh coshf
tanh tanhf asinh acosh atanh fabs fabsf floor floorf ceil ceilf round roundf trunc truncf fmod fmodf
fmin fminf fmax fmaxf hypot hypotf erf erff erfc erfcf lround lroundf llround rint rintf nearbyint
copysign copysignf fma fmaf ldexp ldexpf frexp frexpf modf modff rsqrt rsqrtf isnan isinf isfinite signbit
tgamma lgamma remainder remainderf fdim fdimf nan nanf __assert_fail
ompgpu_vla_alloc
""".split())  # ompgpu_vla_alloc: a variable-length array's storage (parser/declarators.py)

def _device_api() -> dict[str, str]:
    """Every omp_* routine the device runtime defines, with its kind (uniform, varying, state,
    memory: see the head of api.cuh). The runtime header is the one list."""
    header = Path(__file__).resolve().parents[1] / "runtime" / "device" / "api.cuh"
    found = re.findall(r"^OMPGPU_API\((\w+)\)[\w\s*]*?\b(omp_\w+)\s*\(", header.read_text(), re.M)
    kinds = {"uniform", "varying", "state", "memory"}
    bad = [f"{name} ({kind})" for kind, name in found if kind not in kinds]
    if bad or not found:  # a broken header is a bug in ompgpu: fail at import, loudly
        raise RuntimeError(f"api.cuh: routines of unknown kind or none found: {bad}")
    return {name: kind for kind, name in found}


DEVICE_API: dict[str, str] = _device_api()
OMP_DEVICE_API = frozenset(DEVICE_API)
# Side-effect-free routines without team state: SPMD serial code may call them (value: whether
# the result differs between the threads of a team).
SERIAL_API = {name: kind == "varying" for name, kind in DEVICE_API.items() if kind in ("uniform", "varying")}
# Routines that read or write the runtime's team/thread state.
STATE_API = frozenset(name for name, kind in DEVICE_API.items() if kind == "state")

# OpenMP routines that device code may not call, and why (an error names the routine).
_HOST_ROUTINE = "it is a host routine (OpenMP defines it for the host, not in a target region)"
_NOT_YET = "it is not supported in device code yet"
HOST_ONLY_API = {
    **{name: _HOST_ROUTINE for name in """omp_target_alloc omp_target_free omp_target_is_present omp_target_memcpy
       omp_target_memcpy_rect omp_target_associate_ptr omp_target_disassociate_ptr omp_target_memcpy_async
       omp_target_memcpy_rect_async omp_target_is_accessible omp_get_mapped_ptr omp_set_default_device
       omp_pause_resource omp_pause_resource_all omp_control_tool omp_set_num_teams omp_set_teams_thread_limit
       omp_display_affinity omp_capture_affinity omp_set_affinity_format omp_get_affinity_format
       omp_display_env""".split()},
    **{name: _NOT_YET for name in """omp_set_default_allocator omp_get_default_allocator
       omp_fulfill_event""".split()},
}

# Library functions without side effects: calling them in a kernel's serial code keeps the
# kernel SPMD-eligible (every thread computes the same value).
PURE_LIBRARY = DEVICE_LIBRARY - frozenset("printf malloc free memcpy memset frexp frexpf modf modff __assert_fail "
                                          "ompgpu_vla_alloc".split())


def first_omp_call(code) -> str | None:
    """The name of the first omp_* routine that `code` (a pycparser node) calls, None where it
    calls none (a kernel that calls none cannot tell its team's size or number)."""
    for node in walk_nodes(code):
        if isinstance(node, c_ast.FuncCall) and isinstance(node.name, c_ast.ID) and node.name.name.startswith("omp_"):
            return node.name.name
    return None
