"""Loops of a parallel region that keep a team-shared scalar in a register.

A variable that a target region declares in its serial code and a parallel region shares
(`int count = 0; ... parallel { for (...) { master { ...; count++; } } }`) lives in shared
memory or on the soft stack. A loop of the region that updates it pays a load of it in every
iteration, and with a conditional update (under `master`, `masked`, an `if`) nvcc keeps that
load in the loop: each iteration then waits for it before the increment (EPCC's `master`
test: 0.037 us per construct against clang 19's 0.030, whose optimizer loads the variable once
before the loop; the same kernel with the load hoisted by hand: 0.021 us, H100,
bench/results/exp-h100-2026-11-25-s6-variants.txt).

The device code then reads such a variable once before the loop into a register of the
thread, reads the register in the loop and writes through: every store goes to the register
and to the variable, so memory holds what the original program stored, when it stored it.
That is what OpenMP's memory model allows where no other thread may write the variable
without synchronizing with this one, which this pass proves for a loop:
  - the variable is a scalar of arithmetic type, not volatile, declared in the region's
    enclosing code (a local of the target region: nothing outside it can name it), and the
    target region never takes its address (no pointer can reach it);
  - the loop writes it (a loop that only reads it gains little, and a spin-wait on a flag
    that another thread sets is left alone, racy as it is);
  - the loop holds no synchronization: no OpenMP construct but master/masked, no call but
    to functions of this file that hold none either (transitively), the math library, and
    OpenMP queries without side effects.
"""
from __future__ import annotations

from pycparser import c_ast

from ompgpu.analysis.library import DEVICE_LIBRARY, OMP_DEVICE_API, SERIAL_API
from ompgpu.analysis.symbols import Env, resolve_typedef, walk_nodes
from ompgpu.parser.bind import OmpConstruct

_ARITHMETIC = frozenset("char short int long float double signed unsigned _Bool".split())
# OpenMP constructs that do not synchronize the team (a branch on the thread number)
_NON_SYNCHRONIZING = frozenset({"master", "masked"})
_LOOPS = (c_ast.For, c_ast.While, c_ast.DoWhile)
# OpenMP routines that only read the thread's or team's state (locks, which synchronize, are not)
_QUERIES = ("omp_get_", "omp_in_", "omp_is_")


def candidate_locals(body: c_ast.Node, env: Env) -> frozenset[int]:
    """id() of the declarations in `body` (a target region's code) of arithmetic scalars that
    are not volatile and whose address the region never takes (checked by name: a `&x` of any
    variable named x rules out every x)."""
    addressed = {x.expr.name for x in walk_nodes(body)
                 if isinstance(x, c_ast.UnaryOp) and x.op == "&" and isinstance(x.expr, c_ast.ID)}
    out = set()
    for x in walk_nodes(body):
        if isinstance(x, c_ast.Decl) and x.name and x.name not in addressed and _arithmetic_scalar(x, env):
            out.add(id(x))
    return frozenset(out)


def _arithmetic_scalar(decl: c_ast.Decl, env: Env) -> bool:
    if "volatile" in (decl.quals or []):
        return False
    t = resolve_typedef(decl.type, env)
    if not isinstance(t, c_ast.TypeDecl) or "volatile" in (t.quals or []):
        return False
    names = getattr(t.type, "names", None)
    return bool(names) and all(n in _ARITHMETIC for n in names)


def written_names(loop: c_ast.Node) -> set[str]:
    """Names that the loop assigns to or increments as plain identifiers."""
    out = set()
    for x in walk_nodes(loop):
        if isinstance(x, c_ast.Assignment) and isinstance(x.lvalue, c_ast.ID):
            out.add(x.lvalue.name)
        elif isinstance(x, c_ast.UnaryOp) and x.op in ("++", "--", "p++", "p--") and isinstance(x.expr, c_ast.ID):
            out.add(x.expr.name)
    return out


class SyncFree:
    """Whether code holds no synchronization of the team (see the module's head). Functions
    are looked up in `functions` (the file's definitions) and judged once each."""

    def __init__(self, functions: dict[str, c_ast.FuncDef]):
        self.functions = functions
        self.verdicts: dict[str, bool] = {}

    def code(self, node: c_ast.Node) -> bool:
        for x in walk_nodes(node):
            if isinstance(x, OmpConstruct) and x.directive.name not in _NON_SYNCHRONIZING:
                return False
            if isinstance(x, c_ast.Pragma):
                return False
            if isinstance(x, c_ast.FuncCall) and not self.call(x):
                return False
        return True

    def call(self, call: c_ast.FuncCall) -> bool:
        if not isinstance(call.name, c_ast.ID):
            return False  # through a pointer: unknown code
        name = call.name.name
        if name in SERIAL_API or name in DEVICE_LIBRARY or (name in OMP_DEVICE_API and name.startswith(_QUERIES)):
            return True
        fn = self.functions.get(name)
        if fn is None:
            return False
        if name not in self.verdicts:
            self.verdicts[name] = False  # a recursive call is not judged sync-free
            self.verdicts[name] = self.code(fn.body)
        return self.verdicts[name]


def is_loop(node: c_ast.Node) -> bool:
    return isinstance(node, _LOOPS)
