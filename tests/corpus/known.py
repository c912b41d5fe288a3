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

HOST_COMPILER_GAPS: dict[tuple[str, int], dict[str, tuple[str, str]]] = {
    ("clang", 14): {"if_target": (_LIBOMP_TASK_ASSERTION[0], _LIBOMP_TASK_ASSERTION[1].format(14, 1122))},
    ("clang", 16): {"if_target": (_LIBOMP_TASK_ASSERTION[0], _LIBOMP_TASK_ASSERTION[1].format(16, 1128))},
}
