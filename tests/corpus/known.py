"""Programs of the corpus that ompgpu rejects on purpose, with the error they must get.

Valid OpenMP that is not supported yet must fail with a named error, never compile into
code that computes something else; these tests keep it that way until support lands.
"""
KNOWN_UNSUPPORTED: dict[str, str] = {}


# Programs that an older host compiler cannot build or run: ompgpu passes the host fallback's
# OpenMP to the host compiler and lowers the OpenMP 5.x that the compiler lacks
# (ompgpu.codegen.host.compat); what is left is listed here. (family, major version) ->
# {program: (kind, what fails)}. A "host code" gap must fail with the host compiler's own error
# ("compiling the host code of ... failed"), never build; a "runtime" gap (the host OpenMP
# runtime itself fails) is skipped, named. Found by .ci/host_compilers (issue 31).
_LIBOMP_TASK_ASSERTION = ("runtime", "libomp {0} stops at an assertion (kmp_runtime.cpp:{1}) in a host fallback's "
                                     "target construct inside an explicit task (a libomp bug, fixed by libomp 19)")

# A worksharing loop in a scope (OpenMP 5.1): these compilers' host code gets scope lowered to a
# worksharing loop (ompgpu.codegen.host.compat, "scope"), which cannot hold another one; gcc 12
# compiles scope itself.
_FOR_IN_SCOPE = ("host code", "a worksharing loop closely nested in a scope, which the lowering of scope for this "
                              "compiler (a worksharing loop) cannot hold")
HOST_COMPILER_GAPS: dict[tuple[str, int], dict[str, tuple[str, str]]] = {
    ("gcc", 11): {"scope_worksharing": _FOR_IN_SCOPE},
    ("clang", 14): {"if_target": (_LIBOMP_TASK_ASSERTION[0], _LIBOMP_TASK_ASSERTION[1].format(14, 1122)),
                    "scope_worksharing": _FOR_IN_SCOPE},
    ("clang", 16): {"if_target": (_LIBOMP_TASK_ASSERTION[0], _LIBOMP_TASK_ASSERTION[1].format(16, 1128)),
                    "scope_worksharing": _FOR_IN_SCOPE},
    ("clang", 19): {"scope_worksharing": _FOR_IN_SCOPE},
}
