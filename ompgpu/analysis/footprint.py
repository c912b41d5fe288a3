"""What one iteration of a loop dealt out over the grid costs: short, or a tile, and how much
cache a tile touches.

A short iteration (no loop, no call of a user function: STREAM, stencils) is launched with one
thread per iteration (the host counts them). A long one runs on the default grid; its kernel
also gets an instance compiled for more resident teams (the runtime picks one). A tile:

A combined `distribute parallel for` without a schedule clause is dealt out over the whole
grid, consecutive threads on consecutive iterations, so that their accesses coalesce. An
iteration that is itself a nest of loops with constant trip counts over strided data (a tile
of a cache-blocked transpose: 32 x 32 elements, rows n apart) coalesces with nothing: each of
its accesses touches a line of its own, and tens of thousands of tiles in flight touch more
lines than the L2 cache holds, so that every line comes from memory again and again. Such a
loop runs faster with fewer iterations in flight, each thread walking a block of consecutive
ones (8192^2 tiled transpose on an H100: 24.7 ms dealt over the grid, 16.4 ms with about 4,000
threads of 16 consecutive tiles each; bench/results/exp-h100-2026-11-25-s6-*.txt).

`tile_footprint` estimates the bytes of distinct cache lines one iteration touches, from the
subscripts of its array accesses: a variable of the inner nest that moves an access by more
than a line per step (a row index) adds a line per value, one that moves it by an element
spreads it over consecutive lines. The device code then keeps about (L2 bytes / footprint)
threads busy (ompgpu::tile_loop_bounds).

That pays only where neighbouring iterations share nothing. The iterations of a matrix
product's (i, j) nest each read a row of A and a column of B (a large footprint), but the 32
iterations of a warp read the same row and neighbouring columns, whose lines they share: a warp
touches barely more than one iteration. Walking blocks of such iterations on fewer threads
starved the GPU (1536^2 doubles, H100: 334 ms against clang 19's 2.7 ms). So the model also
counts the lines a warp of consecutive iterations touches (the distributed loop's variable
moves by its step from lane to lane; inner loops that start at it move with it), and the
iterations are tiles only where the warp touches at least half of what its lanes would apart.
"""
from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

from pycparser import c_ast

from ompgpu.analysis.symbols import SCALAR_BYTES, Env, resolve_typedef, walk_nodes
from ompgpu.codegen.cprint import CPrinter
from ompgpu.parser.bind import OmpConstruct, canonical_for

LINE_BYTES = 128
# A warp's accesses coalesce in 32-byte sectors.
SECTOR_BYTES = 32
WARP = 32
# An iteration smaller than this many inner iterations is not a tile: the grid mapping stays.
MIN_TILE_ITERATIONS = 256


# A polynomial over the loop's names: {monomial (sorted names, () for the constant): coefficient}
Poly = dict[tuple[str, ...], int]


def short_iteration(body: c_ast.Node, functions: dict[str, c_ast.FuncDef]) -> bool:
    """No loop, goto or OpenMP construct in the loop body, and no call but to library functions
    (not to the file's own, nor through a pointer)."""
    for node in walk_nodes(body):
        if isinstance(node, (c_ast.For, c_ast.While, c_ast.DoWhile, c_ast.Goto, OmpConstruct)):
            return False
        if isinstance(node, c_ast.FuncCall):
            name = node.name.name if isinstance(node.name, c_ast.ID) else None
            if name is None or name in functions:
                return False
    return True


@dataclass(frozen=True)
class TileModel:
    """The cache lines that iterations of a loop touch (the model's inputs, which
    -Rpass-analysis=ompgpu prints)."""
    iteration_bytes: int   # one iteration
    warp_bytes: int        # WARP consecutive iterations together

    @property
    def is_tile(self) -> bool:
        """Neighbouring iterations share less than half their lines: fewer of them in flight
        keep their lines in L2."""
        return 2 * self.warp_bytes >= WARP * self.iteration_bytes


def tile_footprint(body: c_ast.Node, env: Env, lane_var: str, lane_step: int) -> TileModel | None:
    """The lines that iterations of a loop with this body touch, where the body is a nest of
    loops with constant trip counts (together at least MIN_TILE_ITERATIONS) around array
    accesses with subscripts that are polynomials of names; None otherwise. `lane_var` is the
    variable of the distributed loop that consecutive threads step through, by `lane_step`."""
    trips = _constant_trip_loops(body)
    if trips is None or math.prod(trips.values()) < MIN_TILE_ITERATIONS or lane_var in trips:
        return None
    anchored = _anchored_loops(body, lane_var)
    one, warp = {}, {}
    for access in array_accesses(body):
        parts = _subscripts(access)
        if parts is None:
            return None
        name, subscripts = parts
        polys = [polynomial(sub) for sub in subscripts]
        if any(p is None for p in polys):
            return None
        n = _lines(name, polys, trips, env)
        moved = [_moved_with_lane(p, anchored, lane_var, lane_step) for p in polys]
        w = None if None in moved else _lines(name, moved, {**trips, lane_var: WARP}, env)
        if n is None:
            return None
        key = access_key(access)
        one[key], warp[key] = n, (WARP * n if w is None else min(w, WARP * n))
    if not one:
        return None
    return TileModel(sum(one.values()) * LINE_BYTES, sum(warp.values()) * LINE_BYTES)


def lane_of(loop: c_ast.For) -> tuple[str, int] | None:
    """(variable, step) of the distributed loop that consecutive threads step through; a step
    that is not a constant counts as a far one (lanes share only what does not depend on it)."""
    parts = canonical_for(loop)
    if parts is None:
        return None
    step = polynomial(parts[3])
    return parts[0], step[()] if step is not None and set(step) == {()} and step[()] > 0 else 1 << 20


def _anchored_loops(body: c_ast.Node, lane_var: str) -> set[str]:
    """Variables of the inner loops that start at the lane variable plus a constant
    (`for (j = jt; j < jt + 32; j++)`): they move with it from lane to lane."""
    out = set()
    for x in walk_nodes(body):
        if isinstance(x, c_ast.For):
            parts = canonical_for(x)
            lo = polynomial(parts[1]) if parts is not None else None
            if lo is not None and lo.get((lane_var,)) == 1 and all(m in ((), (lane_var,)) for m in lo):
                out.add(parts[0])
    return out


def _moved_with_lane(p: Poly, anchored: set[str], lane_var: str, lane_step: int) -> Poly | None:
    """The subscript `p` with each anchored variable v read as v + lane_var, and lane_var
    scaled by its step (one lane to the next moves it by lane_step); None where an anchored
    variable appears squared (not modelled)."""
    out: Poly = {}
    for m, c in p.items():
        terms = [(m, c)]
        for v in anchored:
            if m.count(v) > 1:
                return None
            if v in m:
                shifted = tuple(sorted([x for x in m if x != v] + [lane_var]))
                terms.append((shifted, c))
        for mono, coef in terms:
            coef *= lane_step ** mono.count(lane_var)
            out[mono] = out.get(mono, 0) + coef
    return out


def _constant_trip_loops(body: c_ast.Node) -> dict[str, int] | None:
    """Variable -> trip count of every `for` loop in body; None if a loop (any while/do, or a
    for whose trip count is not a constant) has none."""
    trips: dict[str, int] = {}
    for x in walk_nodes(body):
        if isinstance(x, (c_ast.While, c_ast.DoWhile)):
            return None
        if isinstance(x, c_ast.For):
            found = _for_trip(x)
            if found is None:
                return None
            trips[found[0]] = found[1]
    return trips


def _for_trip(f: c_ast.For) -> tuple[str, int] | None:
    """`for (v = a; v < a + c; v += k)` (or <=, a declaration): v and its constant trip count."""
    parts = canonical_for(f)
    if parts is None or parts[4] not in ("<", "<="):
        return None
    var, lb, ub, step_expr, cmp = parts
    lo, hi, step = polynomial(lb), polynomial(ub), polynomial(step_expr)
    if lo is None or hi is None or step is None or set(step) != {()} or step[()] <= 0:
        return None
    diff = _sub(hi, lo)
    if any(m != () for m, c in diff.items() if c != 0):
        return None  # the extent is not a constant
    extent = diff.get((), 0) + (1 if cmp == "<=" else 0)
    return var, max(0, -(-extent // step[()]))


def polynomial(e: c_ast.Node) -> Poly | None:
    """e as a polynomial over names with integer coefficients, or None (calls, loads, division...)."""
    if isinstance(e, c_ast.Constant):
        try:
            return {(): int(e.value.rstrip("uUlL"), 0)}
        except ValueError:
            return None
    if isinstance(e, c_ast.ID):
        return {(e.name,): 1}
    if isinstance(e, c_ast.Cast):
        return polynomial(e.expr)
    if isinstance(e, c_ast.UnaryOp) and e.op in ("-", "+"):
        p = polynomial(e.expr)
        return None if p is None else ({m: -c for m, c in p.items()} if e.op == "-" else p)
    if isinstance(e, c_ast.BinaryOp) and e.op in ("+", "-", "*"):
        a, b = polynomial(e.left), polynomial(e.right)
        if a is None or b is None:
            return None
        if e.op == "+":
            return _add(a, b)
        if e.op == "-":
            return _sub(a, b)
        out: Poly = {}
        for ma, ca in a.items():
            for mb, cb in b.items():
                m = tuple(sorted(ma + mb))
                out[m] = out.get(m, 0) + ca * cb
        return out
    return None


def _add(a: Poly, b: Poly) -> Poly:
    out = dict(a)
    for m, c in b.items():
        out[m] = out.get(m, 0) + c
    return out


def _sub(a: Poly, b: Poly) -> Poly:
    return _add(a, {m: -c for m, c in b.items()})


def array_accesses(body: c_ast.Node) -> Iterator[c_ast.ArrayRef]:
    """The outermost ArrayRef of every array access (a[i][j] once, not a[i] again)."""
    inner = set()
    for x in walk_nodes(body):
        if isinstance(x, c_ast.ArrayRef) and isinstance(x.name, c_ast.ArrayRef):
            inner.add(id(x.name))
    for x in walk_nodes(body):
        if isinstance(x, c_ast.ArrayRef) and id(x) not in inner:
            yield x


def access_key(access: c_ast.ArrayRef) -> str:
    return CPrinter().visit(access)


def _lines(name: str, polys: list[Poly], trips: dict[str, int], env: Env) -> int | None:
    """Distinct lines that the executions of an access to `name` with these subscripts
    (innermost first) touch while the variables of `trips` take their values (see the head)."""
    elem = _element_size(name, len(polys), env)
    if elem is None:
        return None
    lines = 1
    spread = elem  # bytes that the element-stride variables spread the access over
    for depth, p in enumerate(polys):  # innermost (last written) subscript first
        for var, trip in trips.items():
            monos = [(m, c) for m, c in p.items() if var in m and c != 0]
            if not monos:
                continue
            unit = depth == 0 and len(monos) == 1 and monos[0][0] == (var,) and abs(monos[0][1]) * elem < LINE_BYTES
            if unit:
                spread *= trip * abs(monos[0][1])
            else:
                lines *= trip
    return lines * -(-spread // LINE_BYTES)


def lane_tile(store: c_ast.Assignment, outer: str, inner: str, env: Env) -> tuple[int, int] | None:
    """(rows, columns): the lanes of a warp as a tile of `rows` values of the outer loop's
    variable by `columns` of the inner one, for a collapsed pair of unit-step loops whose body is
    `store` (`lhs = rhs`) where the store runs along the outer variable and a load along the inner
    one (a transpose: b[k][i] = a[i][k]); None for any other body.

    Consecutive lanes on consecutive iterations (the default schedule) read a row of the load and
    write a warp of elements each in a line of its own; a tile of a sector of the store's elements
    by the rest of the warp gives both accesses whole or half sectors. 256^3 floats, a team of 256
    per plane, H200 (2026-11-27, bench/results/issue34-h200-2026-11-27-s5-shapes.txt): 0.313 ms
    row by row, 0.174 with tiles of 8 x 4 (store's by load's), 0.185 with 4 x 8."""
    store_runs = contiguous_along(store.lvalue, (outer, inner), env)
    if store_runs is None or store_runs[0] != outer or inner not in _subscript_names(store.lvalue):
        return None
    loads = [contiguous_along(a, (outer, inner), env) for a in array_accesses(store.rvalue)]
    if not any(load is not None and load[0] == inner for load in loads):
        return None
    rows = max(1, min(WARP, SECTOR_BYTES // store_runs[1]))
    return rows, WARP // rows


# The tile of (outer x inner) iterations that a team of 256 threads takes of a nest that reads
# neighbouring rows, as CUDA's stencils take blocks of 32 x 8 points.
TEAM_TILE = (8, 32)


def reads_neighbouring_rows(body: c_ast.Node, outer: str, inner: str, env: Env) -> bool:
    """Whether the body of a collapsed (outer, inner) pair of loops reads an array along the inner
    variable in several rows at once (a stencil: in[i - 1][j], in[i][j], in[(i + 1) * n + j]): two
    accesses of one array, each moving by an element per step of `inner`, that differ by an offset
    free of the loop variables which moves a row (a constant in a subscript before the last, or a
    multiple of a name in a single subscript).

    On the default mapping a block's 256 consecutive iterations lie in one row, and each row it
    reads comes from L2 on its own; CUDA's stencils run blocks of 32 x 8 points whose rows share
    what they read in L1 (bench/stencil at radius 4 read about 9 values per point from L2 where
    CUDA's blocks read 2.5)."""
    by_array: dict[str, list[list[Poly]]] = {}
    for a in array_accesses(body):
        parts, runs = _subscripts(a), contiguous_along(a, (outer, inner), env)
        if parts is None or runs is None or runs[0] != inner:
            continue
        polys = [polynomial(sub) for sub in parts[1]]
        if any(p is None for p in polys):
            continue
        by_array.setdefault(parts[0], []).append(polys)
    for accesses in by_array.values():
        for k, first in enumerate(accesses):
            for second in accesses[k + 1:]:
                if len(first) != len(second):
                    continue
                diffs = [_sub(x, y) for x, y in zip(first, second)]
                if any(c != 0 and (outer in m or inner in m) for d in diffs for m, c in d.items()):
                    continue
                if len(diffs) > 1 and any(c != 0 for d in diffs[1:] for c in d.values()):
                    return True
                if len(diffs) == 1 and any(c != 0 and m != () for m, c in diffs[0].items()):
                    return True
    return False


def _subscripts(access: c_ast.Node) -> tuple[str, list[c_ast.Node]] | None:
    """(array name, subscripts innermost first) of an access to a named array or pointer."""
    subscripts = []
    node: c_ast.Node = access
    while isinstance(node, c_ast.ArrayRef):
        subscripts.append(node.subscript)
        node = node.name
    return (node.name, subscripts) if isinstance(node, c_ast.ID) and subscripts else None


def _subscript_names(access: c_ast.Node) -> set[str]:
    parts = _subscripts(access)
    return {n.name for sub in parts[1] for n in walk_nodes(sub) if isinstance(n, c_ast.ID)} if parts else set()


def contiguous_along(access: c_ast.Node, variables: tuple[str, ...], env: Env) -> tuple[str, int] | None:
    """(variable, element bytes) where the access's address moves by one element per step of that
    one of `variables` (its last subscript holds it as a term of its own, coefficient 1, and
    nothing else holds it), the only such one; None otherwise."""
    parts = _subscripts(access)
    if parts is None:
        return None
    elem = _element_size(parts[0], len(parts[1]), env)
    polys = [polynomial(sub) for sub in parts[1]]
    if elem is None or any(p is None for p in polys):
        return None
    unit = [n for n in variables if polys[0].get((n,), 0) == 1
            and sum(1 for p in polys for m, c in p.items() if n in m and c != 0) == 1]
    return (unit[0], elem) if len(unit) == 1 else None


def _element_size(name: str, rank: int, env: Env) -> int | None:
    sym = env.lookup(name)
    if sym is None:
        return None
    t = resolve_typedef(sym.type, env)
    for _ in range(rank):
        if isinstance(t, (c_ast.PtrDecl, c_ast.ArrayDecl)):
            t = resolve_typedef(t.type, env)
        else:
            return None
    if not isinstance(t, c_ast.TypeDecl):
        return None
    names = [n for n in getattr(t.type, "names", []) if n not in ("signed", "unsigned", "const")]
    if not names:
        return None
    if names.count("long") == 2 or names == ["long", "double"]:
        return 16 if names == ["long", "double"] else 8
    for n in ("double", "float", "long", "int", "short", "char"):
        if n in names:
            return SCALAR_BYTES[n]
    return None
