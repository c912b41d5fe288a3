"""Macros in OpenMP directives that the host's preprocessor leaves alone.

`cc -E -fopenmp` expands macros in the `#pragma omp` lines of the directives that compiler
knows, and only those: gcc 12 leaves `tile sizes(T)`, `unroll partial(U)`, `interop ...
depend(inout: a[0:N])`, `metadirective`, `dispatch`, `assume`, `begin declare variant` as
written (gcc 11 also `masked`, `scope`, `error`). After preprocessing no macro is defined any
more, so such a name would reach the compiler as an undeclared identifier. clang expands
them all, which is what a user expects.

Where the preprocessed text has such a directive with a parenthesised argument,
`expand_pragma_macros` runs the preprocessor once more with `-dD` (which keeps each #define
and #undef where it stands), replays the definitions in force at each such directive, and
has the preprocessor expand the directive's text under them. Each directive stays on its
line. Files without such directives pay nothing.
"""
from __future__ import annotations

import os
import re
import tempfile

from ompgpu.toolchain import execute

# Directives some supported host preprocessor (gcc 11, gcc 12) does not expand macros in.
_MAYBE_UNEXPANDED = re.compile(
    r"^\s*#\s*pragma\s+omp\s+(?:interop|dispatch|assumes?|begin|metadirective|tile|unroll|masked|scope|error|"
    r"parallel\s+masked|masked\s+taskloop)\b.*\(")
_PRAGMA = re.compile(r"^\s*#\s*pragma\s+omp\b")
_DEFINITION = re.compile(r"^\s*#\s*(?:define|undef)\b")


def expand_pragma_macros(text: str, cc: str, cpp_command: list[str], verbose: bool = False) -> str:
    """`text` (cpp's output of `cpp_command`, a `cc -E -fopenmp ...` command line) with the macros
    in its possibly unexpanded directives expanded; `text` itself where it has none, or where
    the expansion fails (the directive then stays as cpp left it)."""
    lines = text.split("\n")
    pragma_lines = [i for i, line in enumerate(lines) if _PRAGMA.match(line)]
    wanted = [k for k, i in enumerate(pragma_lines) if _MAYBE_UNEXPANDED.match(lines[i])]
    if not wanted:
        return text
    proc = execute([*cpp_command[:2], "-dD", *cpp_command[2:]], verbose, "the C preprocessor (directives' macros)")
    if proc.returncode != 0:
        return text
    # The definitions in force at each wanted directive (the k-th `#pragma omp` of both outputs).
    script, definitions, k, wanted_set = [], [], 0, set(wanted)
    for line in proc.stdout.split("\n"):
        if _DEFINITION.match(line):
            definitions.append(line)
        elif _PRAGMA.match(line):
            if k in wanted_set:
                script.extend(definitions)
                definitions = []
                script.append(f"__ompgpu_directive_{k}__ {line.split('omp', 1)[1].strip()}")
            k += 1
    if k != len(pragma_lines):
        return text   # the two outputs disagree: leave the directives as they are
    expanded = _run_script(cc, script, verbose)
    for k, directive in expanded.items():
        i = pragma_lines[k]
        indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
        lines[i] = f"{indent}#pragma omp {directive}"
    return "\n".join(lines)


def _run_script(cc: str, script: list[str], verbose: bool) -> dict[int, str]:
    fd, path = tempfile.mkstemp(suffix=".c", prefix="ompgpu-directives-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write("\n".join(script) + "\n")
        proc = execute([cc, "-E", "-P", "-w", "-x", "c", path], verbose, "the C preprocessor (directives' macros)")
    finally:
        os.unlink(path)
    if proc.returncode != 0:
        return {}
    out = {}
    for line in proc.stdout.split("\n"):
        m = re.match(r"\s*__ompgpu_directive_(\d+)__\s?(.*)$", line)
        if m:
            out[int(m.group(1))] = m.group(2).rstrip()
    return out
