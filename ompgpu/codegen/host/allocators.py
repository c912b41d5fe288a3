"""uses_allocators(a(traits)) (OpenMP 5.0) where a target region runs on the host.

The clause makes `a`, inside the region, an allocator built from the traits array. On a GPU
the host runtime builds it in device memory for the launch (OMPGPU_MAP_ALLOCATOR,
runtime/host/target.cpp). Where the region runs on the host instead (its host fallback, or
everything with --offload=none), the host code builds it with the host's omp_init_allocator
before the construct and destroys it after: the construct's `a` is then firstprivate (a scalar
that no clause maps), a copy of that allocator. The host compiler never sees the clause (gcc 12
does not know it; the predefined allocators need nothing on the host).
"""
from __future__ import annotations

from pycparser import c_ast

from ompgpu.parser.bind import OmpConstruct
from ompgpu.parser.cfront import walk_nodes
from ompgpu.codegen.host.pragmas import pragma_operator
from ompgpu.codegen.host.source_text import apply_edits, line_offsets, statement_end

__all__ = ["allocator_setup", "lower_trait_allocators"]


def allocator_setup(d) -> tuple[str, str]:
    """(statements before, statements after) a construct that run it with its trait allocators
    made on the host; ("", "") where it has none."""
    made = [(allocator, traits) for c in d.clauses if c.kind == "uses_allocators"
            for allocator, traits in c.allocators if traits is not None]
    before = " ".join(f"{a} = omp_init_allocator(omp_default_mem_space, (int)(sizeof({t}) / sizeof(({t})[0])), {t});"
                      for a, t in made)
    after = " ".join(f"omp_destroy_allocator({a});" for a, _ in reversed(made))
    return before, after


def lower_trait_allocators(text: str, ast: c_ast.FileAST) -> str:
    """The host code of a build without offload: each target construct with trait allocators in
    a block that makes them first (on the pragma's line, the construct as a _Pragma operator)
    and destroys them after its statement. Lines stay where they were."""
    if "uses_allocators" not in text:
        return text
    lines = text.split("\n")
    line_starts = line_offsets(text)
    edits = []
    for c in walk_nodes(ast):
        if not (isinstance(c, OmpConstruct) and "target" in c.directive.leaves and c.body is not None):
            continue
        before, after = allocator_setup(c.directive)
        if not before:
            continue
        i = c.coord.line - 1
        directive = lines[i].strip()[1:].strip()[len("pragma"):].strip()
        edits.append((line_starts[i], line_starts[i] + len(lines[i]), "{ " + before + " " + pragma_operator(directive)))
        end = statement_end(text, line_starts[i + 1], c)
        edits.append((end, end, " " + after + " }"))
    return apply_edits(text, edits)
