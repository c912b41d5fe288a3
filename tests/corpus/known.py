"""Programs of the corpus that ompgpu rejects on purpose, with the error they must get.

Valid OpenMP that is not supported yet must fail with a named error, never compile into
code that computes something else; these tests keep it that way until support lands.
"""
KNOWN_UNSUPPORTED: dict[str, str] = {}


# Programs that an older host compiler cannot build or run: ompgpu passes the host fallback's
# OpenMP to the host compiler, and these use OpenMP 5.0/5.1 that it does not implement (or
# crash on). (family, major version) -> {program: (kind, what it lacks)}. A "host code" gap
# must fail with the host compiler's own error ("compiling the host code of ... failed"),
# never build; a "runtime" gap (the host OpenMP runtime itself fails) is skipped, named.
# Found by .ci/host_compilers on 2026-11-26 (issue 31); lowering these for old compilers is open.
_THREAD_LIMIT_ON_TARGET = {name: ("host code", "thread_limit on target (5.1)")
                           for name in ("num_threads_exact", "region_values", "shared_scalar_loops")}
_ATOMIC_COMPARE = {"atomic_compare": ("host code", "atomic compare (5.1)")}
_BRACKET_DEPTH = {"long_expressions": ("host code", "expressions nested deeper than 256 brackets (clang's "
                                                    "-fbracket-depth; clang rejects the file itself)")}
_OLD_CLANG = {**_ATOMIC_COMPARE, **_THREAD_LIMIT_ON_TARGET, **_BRACKET_DEPTH,
              "scope_construct": ("host code", "the scope construct (5.1)")}

HOST_COMPILER_GAPS: dict[tuple[str, int], dict[str, tuple[str, str]]] = {
    ("gcc", 11): {
        **_ATOMIC_COMPARE, **_THREAD_LIMIT_ON_TARGET,
        "linear_clause": ("host code", "linear on a loop (gcc 11 crashes in gimplify_adjust_omp_clauses)"),
        "scan_reduction": ("host code", "a scan loop whose phases are statement sequences (5.0)"),
    },
    ("clang", 14): {
        **_OLD_CLANG,
        "if_target": ("runtime", "libomp 14 stops at an assertion (kmp_runtime.cpp:1122) in the host fallback's tasks"),
    },
    ("clang", 16): {
        **_OLD_CLANG,
        "if_target": ("runtime", "libomp 16 stops at an assertion (kmp_runtime.cpp:1128) in the host fallback's tasks"),
    },
    ("clang", 19): {
        **_BRACKET_DEPTH,
        "scope_construct": ("host code", "this scope construct (clang 19: 'cannot compile this scope with FE outlining yet')"),
    },
}
