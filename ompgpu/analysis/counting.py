"""Loops that count: a body that adds one to a counter where a test holds, and nothing else.

`counted_test(stmt, counter)` is the test of such a body, or None. The forms:
    counter += T;            counter = counter + T;       (T a comparison, && / || or !: 0 or 1)
    counter += C ? 1 : 0;    if (C) counter++;            (also ++counter, counter += 1, counter = counter + 1)
The test must not read the counter. Each iteration then adds exactly (C != 0), so a team whose
threads run one iteration each can count with one barrier (bar.red.popc) instead of a sum.
"""
from __future__ import annotations

from pycparser import c_ast

from ompgpu.analysis.team_staging import integer_constant
from ompgpu.parser.cfront import sole_statement, walk_nodes

_ZERO_OR_ONE_OPS = frozenset({"<", ">", "<=", ">=", "==", "!=", "&&", "||"})


def counted_test(stmt: c_ast.Node, counter: str) -> c_ast.Node | None:
    """The test C of a loop body that adds (C != 0) to `counter` and does nothing else."""
    stmt = sole_statement(stmt)
    test = None
    if isinstance(stmt, c_ast.If) and stmt.iffalse is None and _adds_one(sole_statement(stmt.iftrue), counter):
        test = stmt.cond
    elif isinstance(stmt, c_ast.Assignment) and _is_name(stmt.lvalue, counter):
        added = stmt.rvalue if stmt.op == "+=" else _other_addend(stmt.rvalue, counter) if stmt.op == "=" else None
        if added is not None:
            test = _zero_or_one(added)
    if test is None or any(isinstance(n, c_ast.ID) and n.name == counter for n in walk_nodes(test)):
        return None
    return test


def _adds_one(stmt: c_ast.Node | None, counter: str) -> bool:
    if isinstance(stmt, c_ast.UnaryOp) and stmt.op in ("++", "p++"):
        return _is_name(stmt.expr, counter)
    if isinstance(stmt, c_ast.Assignment) and _is_name(stmt.lvalue, counter):
        if stmt.op == "+=":
            return _is_one(stmt.rvalue)
        added = _other_addend(stmt.rvalue, counter) if stmt.op == "=" else None
        return added is not None and _is_one(added)
    return False


def _other_addend(e: c_ast.Node, counter: str) -> c_ast.Node | None:
    """B of `counter + B` or `B + counter`."""
    if isinstance(e, c_ast.BinaryOp) and e.op == "+":
        if _is_name(e.left, counter):
            return e.right
        if _is_name(e.right, counter):
            return e.left
    return None


def _zero_or_one(e: c_ast.Node) -> c_ast.Node | None:
    """The test of an expression whose value is its test's truth: a comparison, && / ||, !, or
    `C ? 1 : 0`."""
    if isinstance(e, c_ast.BinaryOp) and e.op in _ZERO_OR_ONE_OPS:
        return e
    if isinstance(e, c_ast.UnaryOp) and e.op == "!":
        return e
    if isinstance(e, c_ast.TernaryOp) and _is_one(e.iftrue) and _is_zero(e.iffalse):
        return e.cond
    return None


def _is_name(e: c_ast.Node, name: str) -> bool:
    return isinstance(e, c_ast.ID) and e.name == name


def _is_one(e: c_ast.Node) -> bool:
    return integer_constant(e) == 1


def _is_zero(e: c_ast.Node) -> bool:
    return integer_constant(e) == 0
