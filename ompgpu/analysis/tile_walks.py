"""Tile walks: a collapsed pair of loops over tiles whose body walks its tile with two serial
loops (the Parallel Research Kernels' transpose, loops blocked by hand for a CPU's cache):

    #pragma omp target teams distribute parallel for collapse(2)
    for (int it = 0; it < n; it += T)
      for (int jt = 0; jt < n; jt += T)
        for (int i = it; i < MIN(n, it + T); i++)
          for (int j = jt; j < MIN(n, jt + T); j++)
            b[j * n + i] += a[i * n + j];

On a GPU each tile is then one thread's: a thread walks T x T elements alone and neighbouring
lanes touch lines T elements apart. Where the elements of a tile are independent, the device
code runs the flat nest over the elements instead, `collapse(2)` over i and j: one element per
iteration, the GPU's lanes along j, and the shared-memory stagings of operand_tiles apply. The
host code keeps the loops as written.

One entry point, `flatten_tile_walks(bound)`, after binding, for the loop constructs of device
code (in or combined with a target construct). The nest qualifies when:
- the construct is a worksharing loop with collapse(2) over the two tile loops, without
  ordered, linear, lastprivate or reduction, with no schedule but static; the four loops are
  perfectly nested, declare their variables, count up by `<`; each tile loop steps by T (an
  expression of names the nest does not write), and each element loop runs from its tile
  loop's variable, by one, to `it + T` or to the smaller of that and the tile loop's own bound;
- the body is straight-line code (expression statements and declarations of scalars, no call
  and no other control flow) that names neither tile variable and stores only to its own
  scalars and to arrays, each stored array reached through one subscript only, which tells
  the elements of a tile apart: a dimension of its own for i and one for j, or one subscript
  `j * M + i` (`i * M + j`), which does where a tile's extent along the unit term is at most M.
  That last condition, unless constant, is tested at run time: a launch where it fails runs on
  the host, where the walk runs as written (the construct gets it as an `if` condition).

As OpenMP's assertion that the tiles are independent already does, the nest's named arrays and
pointers are taken not to overlap where it stores.
"""
from __future__ import annotations

import copy
import dataclasses

from pycparser import c_ast, c_generator

from ompgpu.errors import SourceCoord
from ompgpu.parser.bind import BoundUnit, OmpConstruct
from ompgpu.parser.bound import canonical_for, collapse_depth, loop_nest
from ompgpu.parser.cfront import walk_nodes
from ompgpu.parser.directives import CExpr, ExprClause
from ompgpu.analysis.footprint import array_accesses, polynomial as poly
from ompgpu.analysis.operand_tiles import written_names

__all__ = ["flatten_tile_walks"]

Remark = tuple[SourceCoord, str]
_CLAUSES_THAT_ORDER = ("ordered", "linear", "lastprivate", "reduction")


def flatten_tile_walks(bound: BoundUnit) -> tuple[BoundUnit, list[Remark]]:
    """The unit with each qualifying tile walk of device code flattened, and the remarks that
    name them (-Rpass=ompgpu)."""
    remarks: list[Remark] = []
    if "collapse" not in bound.pre.text:
        return bound, remarks
    ext = []
    for node in bound.ast.ext:
        if isinstance(node, c_ast.FuncDef) and any(_candidate(c) for c in _device_loops(node.body)):
            node = copy.deepcopy(node)
            for c in list(_device_loops(node.body)):
                if _candidate(c):
                    flat = _flattened(c)
                    if flat is not None:
                        c.body, c.directive, message = flat
                        remarks.append((c.directive.coord, message))
        ext.append(node)
    if not remarks:
        return bound, remarks
    ast = copy.copy(bound.ast)
    ast.ext = ext
    return dataclasses.replace(bound, ast=ast), remarks


def _device_loops(body: c_ast.Node):
    """The loop constructs with collapse under `body` that run on the device."""
    todo = [(body, False)]
    while todo:
        n, on_device = todo.pop()
        if isinstance(n, OmpConstruct):
            on_device = on_device or "target" in n.directive.leaves
            if on_device and "for" in n.directive.leaves and n.directive.has("collapse"):
                yield n
        todo.extend((child, on_device) for _, child in n.children())


def _candidate(c: OmpConstruct) -> bool:
    return collapse_depth(c.directive) == 2 and len(loop_nest(c.body, 4)) == 4


_GEN = c_generator.CGenerator()


def _text(e: c_ast.Node) -> str:
    return _GEN.visit(e)


def _flattened(c: OmpConstruct):
    """(the flat nest, the directive, the remark) for a qualifying tile walk, else None."""
    d = c.directive
    if any(d.has(k) for k in _CLAUSES_THAT_ORDER):
        return None
    schedule = d.clause("schedule")
    if schedule is not None and getattr(schedule, "schedule_kind", None) != "static":
        return None
    nest = loop_nest(c.body, 4)
    tile_loops, element_loops = nest[:2], nest[2:]
    tiles = [_counting_loop(f) for f in tile_loops]
    elements = [_counting_loop(f) for f in element_loops]
    if any(p is None for p in tiles + elements):
        return None
    tile_vars = [t[0] for t in tiles]
    loop_vars = set(tile_vars) | {e[0] for e in elements}
    body = element_loops[1].stmt
    written = written_names(body)
    ranges = {}   # element variable -> (lower bound, flat end, T)
    for var, lb, ub, step, decl in elements:
        if not (isinstance(lb, c_ast.ID) and lb.name in tile_vars) or poly(step) != {(): 1}:
            return None
        tile = tiles[tile_vars.index(lb.name)]
        _, t_lb, t_ub, t_step, _ = tile
        if any(_names(e) & (written | loop_vars) for e in (t_step, t_lb, t_ub)):
            return None
        end = _flat_end(ub, lb.name, tile)
        if end is None:
            return None
        ranges[var] = (t_lb, end, t_step)
    if len(ranges) != 2 or {elements[0][1].name, elements[1][1].name} != set(tile_vars):
        return None
    if _names(body) & set(tile_vars) or loop_vars & written:
        return None
    i, j = elements[0][0], elements[1][0]
    guard = _independent(body, i, j, ranges)
    if guard is None:
        return None
    nest = _flat_nest(element_loops, ranges, tile_loops[0])
    directive = d if guard is True else _with_condition(d, guard)
    note = "" if guard is True else f", where {guard} (a launch where not runs on the host)"
    message = (f"the tile walk of '#pragma omp {d.name}' runs as the flat nest over '{i}' and '{j}': one element "
               f"per iteration, its tiles' elements being independent{note}")
    return nest, directive, message


def _counting_loop(f: c_ast.For):
    """(variable, lower bound, bound, step, declaration) of a loop that declares its variable and
    counts up by `<`, else None."""
    parts = canonical_for(f)
    if parts is None or parts[4] != "<" or not isinstance(f.init, c_ast.DeclList):
        return None
    var, lb, ub, step, _ = parts
    return var, lb, ub, step, f.init.decls[0]


def _flat_end(ub: c_ast.Node, tile_var: str, tile) -> c_ast.Node | None:
    """The end of an element loop's flat range: its tile loop's bound N where the element loop
    stops at min(N, it + T) (MIN(N, it + T) as a conditional expression), the end of the last
    whole tile, lb + ((N - lb + T - 1) / T) * T, where it stops at it + T; None for any other bound."""
    _, t_lb, t_ub, t_step, _ = tile
    tile_end = poly(c_ast.BinaryOp("+", c_ast.ID(tile_var), t_step))
    if tile_end is None:
        return None
    if poly(ub) == tile_end:
        lb, n, t = (copy.deepcopy(e) for e in (t_lb, t_ub, t_step))
        tiles = c_ast.BinaryOp("/", c_ast.BinaryOp("-", c_ast.BinaryOp("+", c_ast.BinaryOp("-", n, lb), t),
                                                   c_ast.Constant("int", "1")), copy.deepcopy(t))
        return c_ast.BinaryOp("+", copy.deepcopy(lb), c_ast.BinaryOp("*", tiles, copy.deepcopy(t)))
    if isinstance(ub, c_ast.TernaryOp) and isinstance(ub.cond, c_ast.BinaryOp) and ub.cond.op in ("<", "<=", ">", ">="):
        small, large = (ub.cond.left, ub.cond.right) if ub.cond.op in ("<", "<=") else (ub.cond.right, ub.cond.left)
        if _text(ub.iftrue) != _text(small) or _text(ub.iffalse) != _text(large):
            return None
        for a, b in ((small, large), (large, small)):
            if poly(a) == tile_end and _text(b) == _text(t_ub):
                return copy.deepcopy(t_ub)
    return None


def _names(e: c_ast.Node | None) -> set[str]:
    return set() if e is None else {n.name for n in walk_nodes(e) if isinstance(n, c_ast.ID)}


def _independent(body: c_ast.Node, i: str, j: str, ranges) -> str | bool | None:
    """True where the body's iterations over a tile are independent (see the module's text), a
    condition (C text) under which they are, or None."""
    statements = (body.block_items or []) if isinstance(body, c_ast.Compound) else [body]
    locals_: set[str] = set()
    stores: list[c_ast.Node] = []
    for s in statements:
        if isinstance(s, c_ast.Decl):
            if not isinstance(s.type, c_ast.TypeDecl) or s.init is None:
                return None
            locals_.add(s.name)
        elif isinstance(s, c_ast.Assignment):
            stores.append(s.lvalue)
        elif isinstance(s, c_ast.UnaryOp) and s.op in ("++", "--", "p++", "p--"):
            stores.append(s.expr)
        elif not isinstance(s, c_ast.EmptyStatement):
            return None
        for n in walk_nodes(s):
            if isinstance(n, (c_ast.FuncCall, c_ast.StructRef, c_ast.TernaryOp, c_ast.Compound)) or (
                    isinstance(n, c_ast.Assignment) and n is not s) or (
                    isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--", "*", "&") and n is not s):
                return None
    accesses: dict[str, set[str]] = {}
    for a in array_accesses(body):
        base = _base(a)
        if base is None:
            return None
        accesses.setdefault(base, set()).add(_text(a))
    conditions: list[str] = []
    for target in stores:
        if isinstance(target, c_ast.ID):
            if target.name not in locals_:
                return None
            continue
        base = _base(target) if isinstance(target, c_ast.ArrayRef) else None
        if base is None or len(accesses.get(base, ())) != 1:
            return None
        condition = _tells_apart(target, i, j, ranges)
        if condition is None:
            return None
        if condition is not True and condition not in conditions:
            conditions.append(condition)
    return " && ".join(conditions) if conditions else True


def _base(a: c_ast.Node) -> str | None:
    while isinstance(a, c_ast.ArrayRef):
        if _names(a.subscript) and any(isinstance(n, c_ast.ArrayRef) for n in walk_nodes(a.subscript)):
            return None   # a subscript that loads (an indirection) tells nothing apart
        a = a.name
    return a.name if isinstance(a, c_ast.ID) else None


def _tells_apart(access: c_ast.ArrayRef, i: str, j: str, ranges) -> str | bool | None:
    """Whether distinct (i, j) of a tile reach distinct elements: True, a run-time condition, or None."""
    subscripts = []
    node: c_ast.Node = access
    while isinstance(node, c_ast.ArrayRef):
        subscripts.append(poly(node.subscript))
        node = node.name
    if any(p is None for p in subscripts):
        return None

    def part(p, v):   # the monomials of p that hold v
        return {m: k for m, k in p.items() if v in m and k != 0}

    def alone(p, v):  # p moves by +-1 per step of v, nothing else with v
        return part(p, v) in ({(v,): 1}, {(v,): -1})

    if len(subscripts) >= 2:   # a dimension of its own for each
        by_i = [n for n, p in enumerate(subscripts) if alone(p, i) and not part(p, j)]
        by_j = [n for n, p in enumerate(subscripts) if alone(p, j) and not part(p, i)]
        return True if by_i and by_j else None
    p = subscripts[0]   # one subscript: unit + S * row, S a name or a constant
    for unit, row in ((i, j), (j, i)):
        rows = part(p, row)
        if not alone(p, unit) or len(rows) != 1:
            continue
        (monomial, k), = rows.items()
        stride = [name for name in monomial if name != row]
        extent = _text(ranges[unit][2])
        if monomial.count(row) != 1 or (stride and abs(k) != 1):
            continue
        if len(stride) == 1 and stride[0] not in (i, j):
            return f"({extent}) <= ({stride[0]})"
        if not stride and abs(k) > 1:
            t = poly(ranges[unit][2])
            if t is not None and list(t) == [()]:
                return True if t[()] <= abs(k) else None
            return f"({extent}) <= {abs(k)}"
    return None


def _flat_nest(element_loops: list[c_ast.For], ranges, coord_loop: c_ast.For) -> c_ast.For:
    """for (i = lb_i; i < end_i; i++) for (j = lb_j; j < end_j; j++) body, the element loops'
    declarations and body, at the tile loop's coordinate (the host code finds the statement by it)."""
    loops = []
    for f in element_loops:
        var = f.init.decls[0].name
        lb, end, _ = ranges[var]
        decl = copy.copy(f.init.decls[0])
        decl.init = copy.deepcopy(lb)
        for n in walk_nodes(end):
            n.coord = f.coord
        cond = c_ast.BinaryOp("<", c_ast.ID(var, f.coord), end, f.coord)
        loops.append(c_ast.For(c_ast.DeclList([decl], f.coord), cond, c_ast.UnaryOp("p++", c_ast.ID(var, f.coord), f.coord),
                               None, f.coord))
    loops[0].stmt = loops[1]
    loops[1].stmt = element_loops[1].stmt
    loops[0].coord = coord_loop.coord
    return loops[0]


def _with_condition(d, condition: str):
    """The directive with `condition` joined to its if clause for the target construct (a
    launch where it is false runs on the host)."""
    clauses = []
    joined = False
    for c in d.clauses:
        if c.kind == "if" and not joined and c.modifier in (None, "target"):
            c = dataclasses.replace(c, expr=CExpr(f"({c.expr.text}) && ({condition})", c.expr.coord))
            joined = True
        clauses.append(c)
    if not joined:
        clauses.append(ExprClause("if", CExpr(condition, d.coord), "target", d.coord))
    return dataclasses.replace(d, clauses=tuple(clauses))
