"""Reductions whose result every thread of an SPMD team gets (KernelPlan.allreduced).

In an SPMD kernel every thread runs the serial code and keeps its own copy of its locals. A
local that a parallel region reduces into (`int c = 0; #pragma omp parallel for reduction(+: c)
...; node = ptr[c];`, btree's descent, streamcluster's distance) was one copy for the team in
shared memory: thread 0 set it between two barriers, the team combined into it with atomics,
and a barrier published it. Where the region's own reduction clause names the local, the body
only ever touches the private copies, so the combine can instead hand the team's total to every
thread, which combines it into its own copy (runtime/device/reduction.cuh, allreduce_block and
allreduce_packed): each copy takes the same value, as the serial code needs, and the shared
copy, its barriers and the atomics go. plan/mode.py applies this where the local is a serial
local no region shares otherwise and the region's team is the whole block or a packed team.
"""
from __future__ import annotations

from pycparser import c_ast

from ompgpu.analysis.symbols import Env, resolve_typedef
from ompgpu.parser.directives import Directive

# reduction operators the device runtime's all-reduce combines (user-defined ones are not)
BUILTIN_REDUCTIONS = frozenset({"+", "-", "*", "min", "max", "&", "|", "^", "&&", "||"})
_ARITHMETIC = frozenset({"char", "short", "int", "long", "signed", "unsigned", "float", "double", "_Bool"})


def allreducible_items(d: Directive, env: Env) -> set[str]:
    """Names a region's directive only reduces into, which an all-reduce can hand to every
    thread's copy: the scalar items of its own reduction clauses (the whole body then names the
    private copies), with a built-in operator and no modifier, on a team that is the whole block
    (no num_threads). A region with `if` is not SPMD at all."""
    if d.clause("num_threads") is not None:
        return set()
    out = set()
    for c in d.clauses_of("reduction"):
        if c.modifier is not None or c.op not in BUILTIN_REDUCTIONS:
            continue
        for item in c.items:
            sym = env.lookup(item.name)
            t = resolve_typedef(sym.type, env) if sym is not None else None
            if not item.sections and not item.members and _arithmetic_scalar(t):
                out.add(item.name)
    return out


def _arithmetic_scalar(t: c_ast.Node | None) -> bool:
    """A non-volatile arithmetic type of at most 8 bytes (not long double, a pointer or an aggregate)."""
    if not isinstance(t, c_ast.TypeDecl) or not isinstance(t.type, c_ast.IdentifierType):
        return False
    names = t.type.names
    return set(names) <= _ARITHMETIC and not ("long" in names and "double" in names) and "volatile" not in (t.quals or [])
