"""Loop nests that a team can stage through shared memory: the dot-product nest of a matrix
product, whose iterations reuse each other's operands, and transposing nests, whose accesses run
along different loops (below).

A collapsed pair of loops over (i, j) whose iteration is

    T acc = init;
    for (K k = lo; k < hi; k++) acc += X * Y;     (or acc = acc + X * Y)
    ...statements that use acc, i and j...

where X reads an array at (i, k) and Y at (k, j), reads every X of its row and every Y of its
column: 2 (hi - lo) loads per iteration. The 32 x 32 iterations of a tile read only 32 rows of X
and 32 columns of Y between them, so staged through shared memory (each element loaded once per
tile, by one thread) a load serves 32 iterations instead of one. That is the textbook tiled
matrix product that CUDA programmers write; `dot_product_nest` finds the nests it fits, and
codegen (templates/dot_tile.j2) renders it.

The staged nest computes what the loop computes, bit for bit: each acc still takes X * Y for k
from lo up, in order; only the loads move ahead of the stores, which the iterations of a
worksharing loop without a schedule may do (they are independent). It applies where X and Y
are pure reads (subscripts of the loop variables and names the nest does not write), the
bounds of k do not depend on i or j, and the statements after the loop write neither array.
"""
from __future__ import annotations

from dataclasses import dataclass

from pycparser import c_ast

from ompgpu.analysis.footprint import access_key, array_accesses, contiguous_along
from ompgpu.analysis.symbols import Env, walk_nodes
from ompgpu.parser.bind import OmpConstruct, canonical_for

# Pure expressions: names, constants and arithmetic (no call, no store, no increment).
_PURE = (c_ast.ID, c_ast.Constant, c_ast.BinaryOp, c_ast.Cast, c_ast.ArrayRef, c_ast.TernaryOp, c_ast.Typename,
         c_ast.TypeDecl, c_ast.IdentifierType, c_ast.PtrDecl)
_ARITHMETIC = {"char", "short", "int", "long", "float", "double", "signed", "unsigned", "_Bool", "bool"}


@dataclass(frozen=True)
class DotProductNest:
    acc: c_ast.Decl                  # the accumulator, with its initial value
    k_decl: c_ast.Decl               # the reduction loop's variable (declared by the loop)
    k_lb: c_ast.Node                 # k runs from k_lb up to k_ub - 1
    k_ub: c_ast.Node
    row: c_ast.ArrayRef              # X: reads (i, k)
    col: c_ast.ArrayRef              # Y: reads (k, j)
    row_first: bool                  # the product as written: X * Y (else Y * X)
    post: tuple[c_ast.Node, ...]     # the statements after the loop


def dot_product_nest(body: c_ast.Node, i: str, j: str) -> DotProductNest | None:
    """The dot-product nest of a collapsed (i, j) loop with this body (see the head), or None."""
    items = body.block_items if isinstance(body, c_ast.Compound) else None
    if not items or len(items) < 2:
        return None
    acc, kloop, post = items[0], items[1], tuple(items[2:])
    if not (isinstance(acc, c_ast.Decl) and acc.init is not None and not acc.storage and _arithmetic(acc.type)
            and _pure(acc.init)):
        return None
    if not isinstance(kloop, c_ast.For) or not isinstance(kloop.init, c_ast.DeclList) or len(kloop.init.decls) != 1:
        return None
    parts = canonical_for(kloop)
    if parts is None:
        return None
    k, lb, ub, step, cmp = parts
    if cmp != "<" or not (isinstance(step, c_ast.Constant) and step.value == "1") or not _arithmetic(kloop.init.decls[0].type):
        return None
    fixed = {i, j, k, acc.name}
    if not (_pure(lb) and _pure(ub)) or _names(lb) & fixed or _names(ub) & fixed:
        return None
    product = _accumulated_product(kloop.stmt, acc.name)
    if product is None:
        return None
    left, right = product
    roles = {}
    for operand in (left, right):
        base = _base_name(operand)
        if base is None or not _pure(operand):
            return None
        used = _names(operand) - {base}
        if base in fixed or acc.name in used:
            return None
        if {i, k} <= used and j not in used:
            roles.setdefault("row", operand)
        elif {k, j} <= used and i not in used:
            roles.setdefault("col", operand)
    if set(roles) != {"row", "col"}:
        return None
    written = written_names(body)
    if "*" in written:
        return None   # a store whose target has no name: it could be an operand's
    operand_names = (_names(roles["row"]) | _names(roles["col"])) - {i, j, k}
    if operand_names & written or (_names(lb) | _names(ub)) & written:
        return None   # an operand's array or subscript, or k's bounds, change in the nest
    if any(isinstance(n, (OmpConstruct, c_ast.Return, c_ast.Break, c_ast.Continue, c_ast.Goto, c_ast.Label))
           for s in post for n in walk_nodes(s)):
        return None
    return DotProductNest(acc, kloop.init.decls[0], lb, ub, roles["row"], roles["col"], left is roles["row"], post)


def _accumulated_product(stmt: c_ast.Node, acc: str) -> tuple[c_ast.Node, c_ast.Node] | None:
    """(X, Y) of `acc += X * Y;` or `acc = acc + X * Y;` (alone, or alone in braces)."""
    while isinstance(stmt, c_ast.Compound) and stmt.block_items and len(stmt.block_items) == 1:
        stmt = stmt.block_items[0]
    if not isinstance(stmt, c_ast.Assignment) or not (isinstance(stmt.lvalue, c_ast.ID) and stmt.lvalue.name == acc):
        return None
    value = stmt.rvalue
    if stmt.op == "=":
        if not (isinstance(value, c_ast.BinaryOp) and value.op == "+" and isinstance(value.left, c_ast.ID)
                and value.left.name == acc):
            return None
        value = value.right
    elif stmt.op != "+=":
        return None
    if not (isinstance(value, c_ast.BinaryOp) and value.op == "*"):
        return None
    if not (isinstance(value.left, c_ast.ArrayRef) and isinstance(value.right, c_ast.ArrayRef)):
        return None
    return value.left, value.right


def _base_name(access: c_ast.Node) -> str | None:
    while isinstance(access, c_ast.ArrayRef):
        access = access.name
    return access.name if isinstance(access, c_ast.ID) else None


def _names(e: c_ast.Node) -> set[str]:
    return {n.name for n in walk_nodes(e) if isinstance(n, c_ast.ID)}


def _pure(e: c_ast.Node) -> bool:
    return all(isinstance(n, _PURE) or (isinstance(n, c_ast.UnaryOp) and n.op in ("-", "+", "~", "!"))
               for n in walk_nodes(e))


def _arithmetic(t: c_ast.Node) -> bool:
    """A plain arithmetic scalar type (no pointer, array, struct or volatile)."""
    return (isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.IdentifierType) and "volatile" not in t.quals
            and set(t.type.names) <= _ARITHMETIC)


def written_names(body: c_ast.Node) -> set[str]:
    """The base names of everything the body stores to or increments."""
    out = set()
    for n in walk_nodes(body):
        target = None
        if isinstance(n, c_ast.Assignment):
            target = n.lvalue
        elif isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--"):
            target = n.expr
        elif isinstance(n, c_ast.FuncCall):
            # a call may store through any pointer it is given: count every name of its arguments
            out |= _names(n.args) if n.args is not None else set()
            continue
        if target is not None:
            while isinstance(target, (c_ast.ArrayRef, c_ast.StructRef, c_ast.UnaryOp, c_ast.Cast)):
                target = target.name if isinstance(target, (c_ast.ArrayRef, c_ast.StructRef)) else target.expr
            if isinstance(target, c_ast.ID):
                out.add(target.name)
            else:
                out.add("*")
    return out


# -- transposing nests -------------------------------------------------------------------------
#
# A collapsed (i, j) nest whose body is straight-line stores: under the default mapping
# (consecutive lanes on consecutive j) an access that runs along i instead (b[j][i] of a
# transpose: its address moves by an element per step of i and by a row per step of j) touches
# a line per lane. Staged through a shared-memory tile of 32 x 32 iterations, such an access is
# read into the tile with the lanes along i (coalesced), the body runs with the lanes along j
# reading and writing the tile instead, and what the body wrote goes back with the lanes along i:
# every global access coalesces, as in CUDA's tiled transpose.


@dataclass(frozen=True)
class StagedAccess:
    access: c_ast.ArrayRef   # the access as written (every access to its array in the body is this one)
    key: str                 # its text (footprint.access_key): the same access wherever the body writes it
    read: bool               # the body reads it (a load, `+=`, `++`): the tile is loaded first
    written: bool            # the body stores to it: the tile is stored back after


@dataclass(frozen=True)
class TransposingNest:
    staged: tuple[StagedAccess, ...]


def transposing_nest(body: c_ast.Node, i: str, j: str, env: Env) -> TransposingNest | None:
    """The accesses of a collapsed (i, j) nest's body to stage through shared memory (see above),
    or None: the body is expression statements only (no call, no control flow), every access's subscripts are pure, and each array that runs along i is
    accessed through that one subscript only (its tile then holds exactly what the iteration
    touches, so moving its loads ahead and its stores behind changes nothing)."""
    statements = body.block_items if isinstance(body, c_ast.Compound) else [body]
    if not statements or not all(isinstance(s, (c_ast.Assignment, c_ast.UnaryOp)) for s in statements):
        return None
    if any(isinstance(n, (c_ast.FuncCall, c_ast.StructRef, c_ast.TernaryOp)) or
           (isinstance(n, c_ast.BinaryOp) and n.op in ("&&", "||")) for s in statements for n in walk_nodes(s)):
        return None
    accesses = [a for s in statements for a in array_accesses(s)]
    by_array: dict[str, set[str]] = {}
    for a in accesses:
        base = _base_name(a)
        if base is None or not _pure(a):
            return None
        by_array.setdefault(base, set()).add(access_key(a))
    reads, writes = _reads_and_writes(statements)
    staged: dict[str, StagedAccess] = {}
    for a in accesses:
        key = access_key(a)
        runs = contiguous_along(a, (i, j), env)
        if key in staged or runs is None or runs[0] != i or j not in _names(a):
            continue
        if len(by_array[_base_name(a)]) != 1:
            return None   # the array is also reached through another subscript
        staged[key] = StagedAccess(a, key, key in reads, key in writes)
    if not staged:
        return None
    # scalars the body stores to would be written by the tile's lanes in another order
    written = written_names(body)
    if "*" in written or any(name not in by_array for name in written):
        return None
    return TransposingNest(tuple(staged.values()))


def _reads_and_writes(statements) -> tuple[set[str], set[str]]:
    """Keys of the array accesses that the statements read and that they store to."""
    reads, writes = set(), set()
    for s in statements:
        if isinstance(s, c_ast.Assignment):
            target, value = s.lvalue, s.rvalue
            if isinstance(target, c_ast.ArrayRef):
                writes.add(access_key(target))
                if s.op != "=":
                    reads.add(access_key(target))
                reads |= {access_key(a) for a in array_accesses(target) if a is not target}
            reads |= {access_key(a) for a in array_accesses(value)}
        else:  # ++ / --
            if isinstance(s.expr, c_ast.ArrayRef):
                reads.add(access_key(s.expr))
                writes.add(access_key(s.expr))
            reads |= {access_key(a) for a in array_accesses(s.expr) if a is not s.expr}
    return reads, writes
