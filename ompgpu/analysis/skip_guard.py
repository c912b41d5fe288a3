"""A loop body that opens by skipping its iteration: `if (C) continue;` (or that is one
`if (!C) { ... }`), C a test that may be evaluated ahead of its turn.

A team whose threads all run its distribute loop's serial code tests C for one iteration at a
time: most iterations of a frontier scan (`if (level[u] != depth) continue;`) cost the team one
load's latency and nothing else. Its threads may instead test the next iterations at once, one
each, and run the first that does not skip (codegen/templates/loop.j2, `guard`). Every test of
that batch reads the memory the earlier iterations left, as the team's one thread would have
found it for the iterations up to the first that runs; the tests past it are thrown away and
made again after it. So C may be evaluated more often and earlier than written, never in a
state the iterations before it had not yet left for the ones it keeps, provided that:

- C stores nothing and calls only pure library functions (no assignment, ++/--, other call);
- C reads no volatile object, and divides only by what it forms without reading memory (an
  integer divisor read early could be a zero that its turn would not see);
- every address C reads is the same whenever it is evaluated: it is formed from the loop's
  variables, constants, arrays and names the body never assigns (a subscript or pointer never
  comes from memory), so evaluating it early reads nothing the iteration itself would not read.
  A plain value (`depth` in `level[u] != depth`) may be any variable: reading it early is
  harmless, and the test that decides is made after the earlier iterations.
"""
from __future__ import annotations

from dataclasses import dataclass

from pycparser import c_ast

from ompgpu.analysis.library import PURE_LIBRARY
from ompgpu.analysis.symbols import Env, stored_lvalues, walk_nodes


@dataclass(frozen=True)
class SkipGuard:
    """A body split at its skip test: the iteration is skipped where `skips` holds, else `rest` runs."""
    skips: c_ast.Node
    rest: c_ast.Compound


def skip_guard(body: c_ast.Node, loop_vars: set[str], env: Env) -> SkipGuard | None:
    """The skip test of a body `{ if (C) continue; ... }`, or of a body that is one `if (C) { ... }`
    (skipped where !C), that may be tested ahead (see the module); else None."""
    if isinstance(body, c_ast.Compound) and len(body.block_items or []) == 1:
        body = body.block_items[0]
    if isinstance(body, c_ast.If) and body.iffalse is None and not _is_continue(body.iftrue):
        rest = body.iftrue if isinstance(body.iftrue, c_ast.Compound) else \
            c_ast.Compound(block_items=[body.iftrue], coord=body.iftrue.coord)
        guard = SkipGuard(c_ast.UnaryOp("!", body.cond, body.cond.coord), rest)
        test = body.cond
    elif isinstance(body, c_ast.Compound) and len(body.block_items or []) >= 2:
        first = body.block_items[0]
        if not isinstance(first, c_ast.If) or first.iffalse is not None or not _is_continue(first.iftrue):
            return None
        guard = SkipGuard(first.cond, c_ast.Compound(block_items=list(body.block_items[1:]), coord=body.coord))
        test = first.cond
    else:
        return None
    # names whose value the body may change: assigned, or their address taken
    assigned = {lv.name for lv in stored_lvalues(body) if isinstance(lv, c_ast.ID)}
    assigned |= {n.expr.name for n in walk_nodes(body)
                 if isinstance(n, c_ast.UnaryOp) and n.op == "&" and isinstance(n.expr, c_ast.ID)}
    return guard if _invariant_address_test(test, loop_vars, assigned, env) else None


def _is_continue(stmt: c_ast.Node) -> bool:
    if isinstance(stmt, c_ast.Compound):
        return len(stmt.block_items or []) == 1 and isinstance(stmt.block_items[0], c_ast.Continue)
    return isinstance(stmt, c_ast.Continue)


def _volatile(t: c_ast.Node | None) -> bool:
    while t is not None:
        if "volatile" in (getattr(t, "quals", None) or []):
            return True
        t = getattr(t, "type", None)
        if isinstance(t, (c_ast.IdentifierType, c_ast.Struct, c_ast.Union, c_ast.Enum)):
            return False
    return False


def _invariant_address_test(cond: c_ast.Node, loop_vars: set[str], assigned: set[str | None], env: Env) -> bool:
    def readable(name: str) -> bool:
        """A name whose value the test may read at any time: a loop variable, an enumerator, a
        variable that is not volatile."""
        if name in loop_vars:
            return True
        sym = env.lookup(name)
        return sym is not None and (sym.kind == "enumerator" or sym.kind == "var" and not _volatile(sym.type))

    def plain_name(name: str) -> bool:
        """A name that forms the same address whenever it is read: a loop variable, an enumerator,
        an array, a const global, or a local or parameter of the kernel that the body neither
        assigns nor takes the address of (a store through a pointer could change a global)."""
        if name in loop_vars:
            return True
        if not readable(name) or name in assigned:
            return False
        sym = env.lookup(name)
        if sym.kind == "enumerator" or isinstance(sym.type, c_ast.ArrayDecl):
            return True
        return not sym.is_global or "const" in (getattr(sym.type, "quals", None) or [])

    def address(n: c_ast.Node) -> bool:
        """An address expression: a name, or a subscript / member of one, whose subscripts are
        value() expressions that read no memory."""
        if isinstance(n, c_ast.ID):
            return plain_name(n.name)
        if isinstance(n, c_ast.ArrayRef):
            return address(n.name) and no_memory(n.subscript)
        if isinstance(n, c_ast.StructRef):
            return address(n.name)
        if isinstance(n, c_ast.UnaryOp) and n.op == "*":
            return address(n.expr)
        return False

    def no_memory(n: c_ast.Node) -> bool:
        """Arithmetic of the loop's variables, constants and unassigned scalars."""
        if isinstance(n, c_ast.Constant):
            return True
        if isinstance(n, c_ast.ID):
            return plain_name(n.name)
        if isinstance(n, c_ast.BinaryOp):
            return no_memory(n.left) and no_memory(n.right)
        if isinstance(n, c_ast.UnaryOp):
            return n.op in ("-", "+", "~", "!") and no_memory(n.expr)
        if isinstance(n, c_ast.Cast):
            return no_memory(n.expr)
        if isinstance(n, c_ast.TernaryOp):
            return no_memory(n.cond) and no_memory(n.iftrue) and no_memory(n.iffalse)
        return False

    def value(n: c_ast.Node) -> bool:
        if isinstance(n, c_ast.Constant):
            return True
        if isinstance(n, c_ast.ID):
            return readable(n.name)
        if isinstance(n, (c_ast.ArrayRef, c_ast.StructRef)):
            return address(n)
        if isinstance(n, c_ast.BinaryOp):
            # a divisor read from memory could be zero early and not in its turn (a trap, in C)
            divisor_ok = n.op not in ("/", "%") or no_memory(n.right)
            return value(n.left) and value(n.right) and divisor_ok
        if isinstance(n, c_ast.UnaryOp):
            if n.op == "*":
                return address(n.expr)
            if n.op == "sizeof":
                return True
            return n.op in ("-", "+", "~", "!") and value(n.expr)
        if isinstance(n, c_ast.Cast):
            return value(n.expr)
        if isinstance(n, c_ast.TernaryOp):
            return value(n.cond) and value(n.iftrue) and value(n.iffalse)
        if isinstance(n, c_ast.FuncCall):
            callee = n.name.name if isinstance(n.name, c_ast.ID) else None
            args = n.args.exprs if n.args is not None else []
            return _library_call(env, callee) and all(value(a) for a in args)
        return False

    return value(cond)   # assignments, ++ and --, comma lists and other calls are none of value()'s forms


def _library_call(env: Env, callee: str | None) -> bool:
    """A call of a pure library function that the program does not define itself."""
    if callee not in PURE_LIBRARY:
        return False
    sym = env.lookup(callee)
    return sym is None or not isinstance(sym.decl, c_ast.FuncDef)
