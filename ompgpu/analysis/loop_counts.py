"""Iteration counts of loop nests that the compiler can count (constant bounds and steps)."""
from __future__ import annotations

from pycparser import c_generator

from ompgpu.parser.bind import OmpConstruct, collapse_depth, loop_nest
from ompgpu.parser.bound import canonical_for
from ompgpu.parser.clause_rules import int_constant


def constant_trip_count(region: OmpConstruct) -> int | None:
    """The iteration count of a `parallel for` whose loop bounds and steps are integer constants
    (after the preprocessor), collapsed loops multiplied; None otherwise."""
    printer = c_generator.CGenerator()
    total = 1
    nest = loop_nest(region.body, collapse_depth(region.directive))
    if not nest:
        return None
    for f in nest:
        parts = canonical_for(f)
        if parts is None:
            return None
        _, lb, ub, step, cmp = parts
        lo, hi, st = (int_constant(printer.visit(e)) for e in (lb, ub, step))
        if lo is None or hi is None or st is None or st == 0:
            return None
        if cmp in ("<", "<="):
            span = hi - lo + (1 if cmp == "<=" else 0)
            n = (span + st - 1) // st if st > 0 else 0
        elif cmp in (">", ">="):
            span = lo - hi + (1 if cmp == ">=" else 0)
            n = (span + (-st) - 1) // (-st) if st < 0 else 0
        else:
            return None
        total *= max(n, 0)
    return total
