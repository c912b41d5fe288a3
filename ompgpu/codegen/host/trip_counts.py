"""Host C text of a loop nest's iteration count (runtime/host ompgpu_host_trip_count), for the
launches that size their grid from it: a grid loop's kernel, a persistent loop's."""
from __future__ import annotations

from pycparser import c_ast

from ompgpu.analysis.library import PURE_LIBRARY
from ompgpu.analysis.symbols import has_side_effect
from ompgpu.codegen.cprint import CPrinter
from ompgpu.parser.bind import canonical_for
from ompgpu.parser.cfront import walk_nodes

# ompgpu_host_trip_count's code of each comparison
_LOOP_COMPARISONS = {"<": 0, "<=": 1, ">": 2, ">=": 3, "!=": 4}


def nest_trip_count(nest, names_kept_out: frozenset[str] = frozenset(), tile: tuple[int, ...] | None = None) -> str | None:
    """Host C text of the iteration count of a loop nest (collapsed loops multiplied), None where
    a loop is not canonical, a bound has a side effect or names one of `names_kept_out`. `tile`:
    each loop's count rounded up to a multiple of its entry (a nest taken in whole tiles)."""
    if tile is not None and len(tile) != len(nest):
        return None
    counts = []
    printer = CPrinter()
    for f in nest:
        parts = canonical_for(f)
        if parts is None:
            return None
        _, lb, ub, step, cmp = parts
        op = _LOOP_COMPARISONS[cmp]
        if any(has_side_effect(e, PURE_LIBRARY) for e in (lb, ub, step)):
            return None
        if any(isinstance(n, c_ast.ID) and n.name in names_kept_out for e in (lb, ub, step) for n in walk_nodes(e)):
            return None
        text = [f"(long long)({printer.visit(e)})" for e in (lb, ub, step)]
        count = f"ompgpu_host_trip_count({text[0]}, {text[1]}, {text[2]}, {op})"
        if tile is not None and tile[len(counts)] > 1:
            count = f"(({count} + {tile[len(counts)] - 1}) / {tile[len(counts)]} * {tile[len(counts)]})"
        counts.append(count)
    return " * ".join(counts)
