"""Worksharing: for, distribute (and distribute parallel for over the grid), simd, loop,
sections and scope; canonical loop nests, schedules, lastprivate and linear items, batched
stores."""
from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass
from typing import Callable

from pycparser import c_ast

from ompgpu.analysis.library import PURE_LIBRARY
from ompgpu.analysis.loop_counts import constant_trip_count
from ompgpu.analysis.symbols import Env, Symbol, declare, has_side_effect, is_pointer, resolve_typedef
from ompgpu.codegen.cprint import CPrinter
from ompgpu.analysis.footprint import (TEAM_TILE, WARP, access_key, array_accesses, lane_of, lane_tile,
                                       reads_neighbouring_rows, short_iteration, tile_footprint)
from ompgpu.analysis.operand_tiles import dot_product_nest, transposing_nest
from ompgpu.analysis.skip_guard import skip_guard
from ompgpu.analysis.team_staging import BROADCAST_MAX_BYTES, NotStaged, broadcast_operands, team_segment
from ompgpu.errors import OmpSemanticError, UnsupportedError
from ompgpu.outliner.outline import region_sharing
from ompgpu.parser.bound import canonical_for
from ompgpu.parser.cfront import set_declname, sole_statement, walk_nodes
from ompgpu.parser.clause_rules import int_constant
from ompgpu.parser.bind import OmpConstruct, collapse_depth, loop_binding, loop_header_names, loop_nest, loop_var_names
from ompgpu.parser.bind import loop_var_names as c_loop_variables
from ompgpu.parser.directives import Directive
from ompgpu.codegen.device import data_sharing, parallel, reductions
from ompgpu.codegen.device.cdecl import cxx_name, integer_words, type_string, is_narrow_integer, is_integer_type, strip_quals


@dataclass
class _Loop:
    var: str
    var_type: str
    lb: str
    ub: str  # exclusive when step > 0 (after adjusting <=), for step < 0 the other way
    step: str
    cond_op: str
    narrow: bool = False  # the variable has 32 bits or fewer: its value is computed in 32-bit arithmetic
    signed32: bool = False  # a signed int or short (not char, whose sign the platform picks)

    @property
    def cmp(self) -> str:
        """The runtime's name of the loop's comparison (OMPGPU_CMP_<cmp>)."""
        return {"<": "LT", "<=": "LE", ">": "GT", ">=": "GE", "!=": "NE"}[self.cond_op]

    @property
    def trip_count(self) -> str:
        """C expression of the loop's iteration count."""
        return (f"ompgpu_trip_count((long long)({self.lb}), (long long)({self.ub}), (long long)({self.step}), "
                f"OMPGPU_CMP_{self.cmp})")


# Iterations of a `lhs = rhs` loop body that a thread runs together (loop.j2's batch): their
# reads, then their stores. On an H100 the nested transpose (one store per read, 256 teams of 256
# threads) waited on one load at a time: each thread's next read could not pass its store
# (the two pointers might alias). Batched by 2 or by 4 it ran 0.41-0.46 ms against 0.45-0.49;
# by 4, heartwall's kernel (two such loops) ran 3.55 ms against 3.21, by 2 3.17
# (bench/results/exp-h100-2026-11-25-s7-batched-stores.txt).
BATCH_ITERATIONS = 2
_ARITHMETIC_WORDS = frozenset({"char", "short", "int", "long", "float", "double", "signed", "unsigned", "_Bool"})


def _scalar_element(t: c_ast.Node | None, subscripts: int, env: Env) -> bool:
    """Whether indexing an object of type t `subscripts` times gives an arithmetic or pointer
    object that is not volatile (an element that a pointer can address and a copy can hold)."""
    for _ in range(subscripts):
        t = resolve_typedef(t, env)
        if not isinstance(t, (c_ast.PtrDecl, c_ast.ArrayDecl)) or "volatile" in (getattr(t, "quals", None) or []):
            return False
        t = t.type
    t = resolve_typedef(t, env)
    if isinstance(t, c_ast.PtrDecl):
        return "volatile" not in (t.quals or [])
    return (isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.IdentifierType) and "volatile" not in (t.quals or [])
            and set(t.type.names) <= _ARITHMETIC_WORDS)


def _batchable_store(stmt: c_ast.Node, env: Env) -> c_ast.Assignment | None:
    """The statement `a[i]...[k] = rhs` when a loop body is that alone: a plain assignment to an
    element of an array or through a pointer, of arithmetic or pointer type, whose subscripts
    and right-hand side change nothing (no assignment, ++/--, or call other than a pure library
    function). None for any other body."""
    stmt = sole_statement(stmt)
    if not (isinstance(stmt, c_ast.Assignment) and stmt.op == "="):
        return None
    root, subscripts = stmt.lvalue, 0
    while isinstance(root, c_ast.ArrayRef):
        if has_side_effect(root.subscript, PURE_LIBRARY):
            return None
        root, subscripts = root.name, subscripts + 1
    if subscripts == 0 or not isinstance(root, c_ast.ID) or has_side_effect(stmt.rvalue, PURE_LIBRARY):
        return None
    sym = env.lookup(root.name)
    if sym is None or sym.kind != "var" or not _scalar_element(sym.type, subscripts, env):
        return None
    return stmt


def loop_construct(em, n: OmpConstruct, in_parallel: bool | None = None) -> str:
    """`loop` by the region it binds to: bound to the teams, distribute + parallel for; to a
    parallel region, a worksharing for of its threads (at team level, outside any parallel
    region, the team's one thread runs every iteration); to the thread, a serial loop of each
    thread that meets it. `in_parallel`: the construct is combined under `parallel`."""
    d = n.directive
    in_parallel = em.in_region if in_parallel is None else in_parallel
    binding = loop_binding(d, in_parallel)
    if binding == "thread" or (binding == "parallel" and not in_parallel):
        clauses = tuple(c for c in d.clauses if c.kind not in ("bind", "order"))
        return simd(em, OmpConstruct(dataclasses.replace(d, name="simd", clauses=clauses), n.body, n.coord))
    if binding == "parallel":
        return workshare_for(em, n, dataclasses.replace(d, name="for"))
    if in_parallel:
        raise OmpSemanticError("a 'loop' construct with bind(teams) must be closely nested in a 'teams' region, "
                               "not in a parallel region", d.coord)
    return distribute(em, OmpConstruct(dataclasses.replace(d, name="distribute parallel for"), n.body, n.coord))


def analyze_loops(em, d: Directive, body: c_ast.Node) -> list[_Loop]:
    nest = loop_nest(body, collapse_depth(d))
    loops = [canonical_loop(em, f, d) for f in nest]
    # A collapsed nest is dealt out as one iteration space computed before the loops run:
    # an inner loop's bounds may not depend on an outer loop's variable (OpenMP 5.0's
    # non-rectangular nests are not supported yet).
    outer: set[str] = set()
    for f, loop in zip(nest, loops):
        used = loop_header_names(f) - {loop.var}
        dependent = sorted(used & outer)
        if dependent:
            raise UnsupportedError(f"collapse of a non-rectangular loop nest (the bounds of the loop over "
                                   f"'{loop.var}' depend on '{dependent[0]}') is not supported yet", em.user_coord(f))
        outer.add(loop.var)
    return loops


def canonical_loop(em, f: c_ast.For, d: Directive) -> _Loop:
    err = lambda why: UnsupportedError(f"loop of '#pragma omp {d.name}' is not in canonical form ({why})", em.user_coord(f))  # noqa: E731
    init = f.init
    if isinstance(init, c_ast.DeclList) and len(init.decls) == 1:
        decl = init.decls[0]
        var, vtype, lb = decl.name, type_string(decl.type), decl.init
        narrow = is_narrow_integer(decl.type, em.env)
        signed32 = _signed_int(decl.type, em.env)
    elif isinstance(init, c_ast.Assignment) and init.op == "=" and isinstance(init.lvalue, c_ast.ID):
        var, lb = init.lvalue.name, init.rvalue
        sym = em.env.lookup(var)
        vtype = type_string(sym.type) if sym is not None and sym.type is not None else "long long"
        narrow = sym is not None and is_narrow_integer(sym.type, em.env)
        signed32 = sym is not None and _signed_int(sym.type, em.env)
    else:
        raise err("expected 'var = lb' or a declaration as the loop's init")
    if lb is None:
        raise err("the loop variable has no initial value")
    cond = f.cond
    if not isinstance(cond, c_ast.BinaryOp) or cond.op not in ("<", "<=", ">", ">=", "!="):
        raise err("expected 'var < ub', 'var <= ub', 'var > ub' or 'var >= ub' as the condition")
    if isinstance(cond.left, c_ast.ID) and cond.left.name == var:
        op, ub = cond.op, cond.right
    elif isinstance(cond.right, c_ast.ID) and cond.right.name == var:
        op = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "!=": "!="}[cond.op]
        ub = cond.left
    else:
        raise err(f"the condition does not test '{var}'")
    step_of = _loop_step(f.next, var)
    if step_of is None:
        raise err("expected ++, --, += or -= of the loop variable as the increment")
    step_expr, subtracted = step_of
    step = step_expr if isinstance(step_expr, str) else em.visit(step_expr)
    if subtracted:
        step = f"-(long long)({step})"
    return _Loop(cxx_name(var), vtype, em.visit(lb), em.visit(ub), step, op, narrow, signed32)


def _signed_int(t: c_ast.Node | None, env) -> bool:
    words = integer_words(t, env)
    resolved = resolve_typedef(t, env)
    names = set(resolved.type.names) if words is not None else set()
    return words is not None and "unsigned" not in names and words and words <= {"int", "short"}


def _counts_in_32_bits(loops: list[_Loop]) -> bool:
    """One loop of a signed int (or short) variable from a non-negative constant, increasing by a
    positive constant: it takes at most 2^31 values, so its iterations may be counted in 32 bits
    (loop.j2's counter32), the index arithmetic a GPU does in one instruction where 64-bit
    counters take several (issue 34, item 3). Only searches count so (_first_match): on an H200
    (2026-11-27, bench/results/issue34-h200-2026-11-27-s5-run4-*) particlefilter's resampling
    kernel went from 129 to 102 us, but counting every such loop in 32 bits made kmeans 1.4x and
    lavamd and gaussjordan 1.1x slower."""
    if len(loops) != 1 or not loops[0].signed32 or loops[0].cond_op not in ("<", "<="):
        return False
    lb, step = int_constant(loops[0].lb), int_constant(loops[0].step)
    return lb is not None and lb >= 0 and step is not None and step > 0


def loop_code(em, d: Directive, body: c_ast.Node, schedule_kind: str, chunk: str | None,
               range_from: tuple[str, str] | None, lastprivate: list[str], nowait: bool, barrier: bool,
               linear: tuple[tuple[str, str], ...] = (), barrier_before: bool = False,
               phase: tuple[c_ast.Node, Callable[[str], str]] | None = None, tile_bytes: int | None = None,
               opens_region: bool = False) -> str:
    """A worksharing (or distribute, or serial) loop over d's loop nest. `phase`: print that
    statement and pass its text through the function, instead of the innermost loop's body
    (the two phases of a scan loop). `opens_region`: the loop is its parallel region's whole body
    (a combined `parallel for`), which starts after the team met."""
    loops = analyze_loops(em, d, body)
    loop_var_names = [l.var for l in loops]
    linear = tuple((cxx_name(name), step) for name, step in linear if cxx_name(name) not in loop_var_names)
    nest = loop_nest(body, len(loops))
    inner = nest[-1].stmt if phase is None else phase[0]
    # The loop variables are private: the template declares them, so the body's scope has them.
    conditional = {item.name for c in d.clauses if c.kind == "lastprivate" and c.modifier == "conditional"
                   for item in c.items}
    entries = [data_sharing.lastprivate_item(em, v, v in conditional) for v in lastprivate]
    saved, em.env = em.env, em.env.child()
    for f in nest:
        declare_loop_var(em, f)
    saved_stores = em.conditional_stores
    if conditional:
        em.g.conditional_count += 1
        now = f"__cond_iv{em.g.conditional_count}"
        em.conditional_stores = dict(saved_stores)
        em.conditional_stores.update({e["name"]: (em.env.lookup(name), e["iv"], now)
                                        for name, e in zip(lastprivate, entries) if e["conditional"]})
    else:
        now = None
    first_match = None
    if phase is None and not lastprivate and not linear and (schedule_kind, chunk) == ("static", "1"):
        first_match = _first_match(d, nest, inner)
    if first_match is not None:
        found, var = first_match
        em.g.remarks.append((d.coord, f"the min reduction '{found}' takes the loop variable '{var}' only where '{var}' "
                                        f"is below it: each thread stops after the group of {FIRST_MATCH_GROUP} "
                                        f"iterations where it found its first match (its later iterations could not "
                                        f"change '{found}')"))
    guard = None
    # a lean SPMD kernel's team, all of whose threads run the distribute loop: packed, or the block
    team_tests = em.ids.packed or (em.lean and em.in_region == 0)
    if schedule_kind == "distribute" and chunk is None and team_tests and not em.spread and phase is None \
            and range_from is None and not lastprivate and not linear and not conditional and len(loops) == 1:
        split = skip_guard(inner, set(c_loop_variables(body, 1)), em.env)
        if split is not None:
            guard = {"cond": em.visit(split.skips), "threads": f"{em.ids.lanes}u" if em.ids.packed else em.block}
            inner = split.rest
            known = em.ids.lanes if em.ids.packed else em.plan.exact_threads   # 0: blockDim.x
            threads = f"{known} " if known else ""
            em.g.remarks.append((d.coord, f"the team's {threads}threads test the skip condition "
                                            f"'{CPrinter().visit(split.skips)}' of as many iterations at once, one each, "
                                            f"and run the first that does not skip, instead of testing one "
                                            f"iteration at a time"))
    segment = None
    if schedule_kind == "distribute" and chunk is None and phase is None and guard is None and len(loops) == 1 \
            and em.lean and em.in_region == 0 and not em.ids.packed and not em.spread and not lastprivate:
        segment = _team_segment(em, d, loops[0], inner)
    body_text = segment if segment is not None else em.stmt_text(inner)
    if phase is not None:
        body_text = phase[1](body_text)
    # A team's loop whose iterations the user left to the implementation (no schedule) and
    # whose body is one store of a value read from memory: several iterations' reads go ahead
    # of their stores (loop.j2's batch). Not a loop over the grid: the host launches those
    # with about one iteration per thread where they are short (runtime/host/target.cpp).
    # a nest that can be staged through shared memory (analysis/operand_tiles.py)
    stageable = (schedule_kind == "grid" and tile_bytes is None and phase is None and not lastprivate and not linear
                 and not conditional and range_from is not None and em.team_size and not em.ids.packed
                 and len(loops) == 2 and all(l.step == "1" for l in loops))
    transposing = _transpose_tile(em, d, loops, inner) if stageable else None
    store = None
    if phase is None and not lastprivate and not linear and not conditional and d.clause("schedule") is None \
            and (schedule_kind, chunk) == ("static", "1") and transposing is None:
        store = _batchable_store(inner, em.env)
    batch = {"n": BATCH_ITERATIONS, "lhs": em.visit(store.lvalue), "rhs": em.visit(store.rvalue)} if store else None
    # a collapsed pair of loops that transposes: the warp's iterations as a tile (footprint.lane_tile)
    tile = None
    if store is not None and len(loops) == 2 and range_from is None and all(l.step == "1" for l in loops):
        tile = lane_tile(store, loops[0].var, loops[1].var, em.env)
        if tile is not None:
            em.g.remarks.append((d.coord, f"each warp takes its iterations of the collapsed loops as a tile of "
                                           f"{tile[0]} x {tile[1]} ('{loops[0].var}' by '{loops[1].var}'): the "
                                           f"store runs along '{loops[0].var}', a load along '{loops[1].var}'"))
    dot = _dot_tile(em, d, loops, inner) if stageable and transposing is None and store is None else None
    # a stencil over the grid: each block's iterations as a tile of rows (TEAM_TILE)
    team_tile = None
    if stageable and transposing is None and dot is None and batch is None and _may_appear_more_than_once(inner) \
            and reads_neighbouring_rows(inner, loops[0].var, loops[1].var, em.env):
        team_tile = TEAM_TILE
        em.g.grid_tiled.add(em.owner)
        em.g.remarks.append((d.coord, f"'#pragma omp {d.name}' reads neighbouring rows: each team takes its iterations "
                                        f"as a tile of {TEAM_TILE[0]} x {TEAM_TILE[1]} ('{loops[0].var}' by "
                                        f"'{loops[1].var}'), whose rows share what they read in L1, where the team "
                                        f"has {TEAM_TILE[0] * TEAM_TILE[1]} threads"))
    # A cyclic loop of a known team, with a small body: its one-iteration-per-thread path (loop.j2 one_round)
    one_round = ((schedule_kind, chunk) == ("static", "1") and bool(em.team_size) and not em.spread and batch is None
                 and first_match is None and team_tile is None and phase is None and not conditional
                 and _may_appear_more_than_once(inner) and not _has_loop(inner))
    # operands that every iteration reads whole: staged once for the team (analysis/team_staging.py).
    # Only a loop that is its region's whole body (`parallel for`): there, every name it reads
    # from outside holds one value for the whole team (a local of a `parallel` region around a
    # `for` is each thread's own: a pointer each thread sets apart is no operand of the team).
    broadcast = None
    if opens_region and em.in_region == 1 and schedule_kind in ("static", "dynamic", "guided") and range_from is None and phase is None \
            and em.spmd and em.team_size and not em.ids.packed and not em.spread and not em.grid_loop \
            and not em.plan.combined and batch is None and first_match is None and guard is None \
            and team_tile is None and tile is None and not lastprivate and not linear and not conditional \
            and not any(isinstance(n, OmpConstruct) for n in walk_nodes(inner)):
        broadcast = _broadcast(em, d, body, inner, set(c_loop_variables(body, len(loops))))
    em.conditional_stores = saved_stores
    em.env = saved
    aligned = em.aligned()
    # A linear item is a lastprivate one whose private copy starts each iteration at its
    # original value plus the iteration's number times the step.
    lastprivate = entries + [{"name": name, "array": None, "conditional": False} for name, _ in linear]
    loop_args = dict(loops=loops, schedule=schedule_kind, chunk=chunk, tile_bytes=tile_bytes, batch=batch, aligned=aligned, lane_tile=tile, team_tile=team_tile,
                  first_match={"found": cxx_name(first_match[0]), "group": FIRST_MATCH_GROUP} if first_match else None,
                  counter32=first_match is not None and range_from is None and _counts_in_32_bits(loops),
                  range_from=range_from, lastprivate=lastprivate, iteration_now=now,
                  linear=[{"name": name, "step": step} for name, step in linear], barrier_before=bool(linear) and barrier_before,
                  loop_var_names=loop_var_names, barrier=barrier and not nowait, team_size=em.team_size,
                  whole_block=em.whole_block, spread=em.spread, guard=guard, one_round=one_round)
    text = em.render_with_ids("loop.j2", **loop_args, body=body_text)
    if broadcast is not None:
        # the same loop reading the copies (broadcast applies only where first_match, linear items
        # and their barrier are absent, so nothing else of the loop differs)
        staged = em.render_with_ids("loop.j2", **loop_args, body=broadcast["body"])
        guarded = broadcast["trips"] is None or broadcast["trips"] < 2
        return em.render_with_ids("broadcast_operands.j2", operands=broadcast["operands"], staged=staged, plain=text,
                                  guarded=guarded, trip_count=" * ".join(f"({l.trip_count})" for l in loops),
                                  team_size=em.team_size,
                                  whole_block=em.whole_block, max_bytes=BROADCAST_MAX_BYTES)
    if transposing is None and dot is None:
        return text
    staging = {"nest": transposing} if transposing is not None else {"dot": dot}
    return em.render_with_ids("transpose_tile.j2" if transposing is not None else "dot_tile.j2", loops=loops,
                              tile=DOT_TILE, rows=DOT_TILE * DOT_TILE // DOT_TEAM, team=DOT_TEAM,
                              team_size=em.team_size, range_from=range_from, plain=text, **staging)


def _broadcast(em, d: Directive, body: c_ast.Node, inner: c_ast.Node, loop_vars: set[str]) -> dict | None:
    """The staged operands of a team's worksharing loop whose iterations each read them whole,
    with the body that reads them from shared memory and the loop's constant trip count (None
    where it is not one); None where the loop has none (analysis/team_staging.py)."""
    operands = broadcast_operands(inner, loop_vars, em.env)
    trips = constant_trip_count(OmpConstruct(d, body))
    if not operands or ((trips is None or trips < 2) and not _may_appear_more_than_once(inner)):
        return None
    memo, texts = {}, []
    for op in operands:
        em.g.staged_count += 1
        name = f"__bc{em.g.staged_count}"
        for access in op.accesses:
            memo[id(access)] = c_ast.ID(f"{name}[({em.visit(op.offset)}) - ({op.lo})]")
        texts.append({"name": name, "array": em.visit(op.array), "first": em.visit(op.first), "length": op.length})
        em.g.remarks.append((d.coord, f"every iteration of '#pragma omp {d.name}' reads the {op.length} elements of "
                                        f"'{CPrinter().visit(op.access)}': loaded once into shared memory "
                                        f"for the team, one element per thread, and read from there"
                                        f"{'' if trips is not None and trips >= 2 else ' (where the loop has two iterations or more)'}"))
    return {"operands": texts, "body": em.stmt_text(copy.deepcopy(inner, memo)), "trips": trips}


def _team_segment(em, d: Directive, loop: _Loop, inner: c_ast.Node) -> str | None:
    """The text of a lean SPMD kernel's distribute loop body whose iteration works on a segment
    of an array that no other team touches, with the segment staged through shared memory for
    the iteration (analysis/team_staging.py); None where the body is not one."""
    segment = team_segment(inner, loop.var, em.env)
    if isinstance(segment, NotStaged):
        em.g.remarks.append((d.coord, f"each iteration of '#pragma omp {d.name}' opens with a pointer to its own "
                                        f"segment, '{segment.pointer}': left in global memory, {segment.reason}", "missed"))
        return None
    if segment is None:
        return None
    em.g.staged_count += 1
    name = f"__seg{em.g.staged_count}"
    decl = copy.copy(segment.decl)
    decl.init = c_ast.ID(name)
    element = copy.deepcopy(segment.decl.type.type)
    set_declname(element, None)
    strip_quals(element)
    body = em.stmt_text(c_ast.Compound([decl, *inner.block_items[1:]], inner.coord))
    source = em.visit(segment.source)
    em.g.remarks.append((d.coord, f"each iteration of '#pragma omp {d.name}' works on {segment.elements} elements of "
                                    f"'{CPrinter().visit(segment.source)}' that no other team touches, through "
                                    f"'{segment.decl.name}': staged through shared memory for the iteration "
                                    f"({segment.elements * segment.element_bytes} bytes), loaded at its start"
                                    f"{' and stored back at its end' if segment.written else ''}; the iteration "
                                    f"reaches each element about {segment.reuse:.0f} times"))
    return em.render_with_ids("team_segment.j2", id=em.g.staged_count, source=source, element=type_string(element),
                              elements=segment.elements, thread="threadIdx.x", threads=em.block,
                              barrier=em.ids.block_barrier, body=body, written=segment.written)


# Nests staged through shared memory (analysis/operand_tiles.py): tiles of DOT_TILE x DOT_TILE
# iterations (and of each operand), for teams of DOT_TEAM threads, DOT_TILE^2 / DOT_TEAM iterations each.
DOT_TILE = 32
DOT_TEAM = 256


def _may_appear_more_than_once(body: c_ast.Node) -> bool:
    """Whether a loop body may be emitted more than once in one function, once a path (loop.j2 team_tile):
    it has no label (which would be defined again) and no static local (copies would be distinct
    objects)."""
    return not any(isinstance(n, c_ast.Label) or (isinstance(n, c_ast.Decl) and "static" in (n.storage or []))
                   for n in walk_nodes(body))


def _has_loop(body: c_ast.Node) -> bool:
    """Whether a loop body holds a loop of its own: emitted twice (loop.j2 one_round), such a
    body would double a kernel's largest code for the little that a loop's set-up costs it."""
    return any(isinstance(n, (c_ast.For, c_ast.While, c_ast.DoWhile)) for n in walk_nodes(body))


def _stageable_nest(em, d: Directive, body: c_ast.Node) -> bool:
    """Whether a `distribute parallel for schedule(static, 1)` nest is one that the stagings take
    (a collapsed pair of unit-step loops around a transposing nest or a dot product). Its
    iterations may then be dealt out over the grid as the default schedule's are: the
    distribute schedule (no dist_schedule) is ours, and a team's threads still take its
    iterations round-robin in their order, a tile's as much as a grid-stride loop's."""
    nest = loop_nest(body, collapse_depth(d))
    if len(nest) != 2 or collapse_depth(d) != 2:
        return False
    parts = [canonical_for(f) for f in nest]
    if any(p is None or not (isinstance(p[3], c_ast.Constant) and p[3].value == "1") for p in parts):
        return False
    i, j = parts[0][0], parts[1][0]
    inner = nest[-1].stmt
    return transposing_nest(inner, i, j, em.env) is not None or dot_product_nest(inner, i, j) is not None


def _transpose_tile(em, d: Directive, loops, inner: c_ast.Node) -> dict | None:
    """The texts of a collapsed (i, j) nest that reaches arrays along i, staged through shared
    memory (operand_tiles.transposing_nest), printed where the loop variables are declared; None
    where the nest is not one."""
    nest = transposing_nest(inner, loops[0].var, loops[1].var, em.env)
    if nest is None:
        return None
    keys = {s.key: n for n, s in enumerate(nest.staged)}
    # the body with every staged access read as its tile's element (deepcopy's memo replaces them)
    memo = {id(a): c_ast.ID(f"__tt_s{keys[access_key(a)]}[__tt_a][__tt_b]")
            for a in array_accesses(inner) if access_key(a) in keys}
    body = em.stmt_text(copy.deepcopy(inner, memo))
    staged = [{"index": n, "text": em.visit(s.access), "read": s.read, "written": s.written} for n, s in enumerate(nest.staged)]
    named = ", ".join(f"'{s['text']}'" for s in staged)
    em.g.remarks.append((d.coord, f"the access{'es' if len(staged) > 1 else ''} {named} "
                                    f"run{'' if len(staged) > 1 else 's'} along '{loops[0].var}' in '#pragma omp {d.name}': "
                                    f"staged through shared "
                                    f"memory in tiles of {DOT_TILE} x {DOT_TILE} iterations, loaded and stored with the "
                                    f"lanes along '{loops[0].var}', where the team has {DOT_TEAM} threads"))
    return {"staged": staged, "body": body}


def _dot_tile(em, d: Directive, loops, inner: c_ast.Node) -> dict | None:
    """The texts of a collapsed (i, j) nest's dot product staged through shared memory
    (operand_tiles.dot_product_nest), printed where the loop variables are declared; None
    where the nest is not one."""
    nest = dot_product_nest(inner, loops[0].var, loops[1].var)
    if nest is None:
        return None
    with em.child_scope():
        k_decl = copy.copy(nest.k_decl)
        k_decl.init = c_ast.ID("__dt_k")
        acc_decl = copy.copy(nest.acc)
        acc_decl.init = c_ast.ID("__dt_acc_value")
        acc_type_decl = copy.copy(nest.acc)
        acc_type_decl.init = None
        k_text = em.visit(k_decl)
        acc_type_text = em.visit(acc_type_decl)
        acc_text = em.visit(acc_decl)
        texts = {"k_lb": em.visit(nest.k_lb), "k_ub": em.visit(nest.k_ub), "init": em.visit(nest.acc.init),
                 "row": em.visit(nest.row), "col": em.visit(nest.col), "row_first": nest.row_first,
                 "k_decl": k_text, "acc_decl": acc_text, "acc_type_decl": acc_type_text, "acc": cxx_name(nest.acc.name),
                 "post": "".join(em.stmt_text(s) for s in nest.post)}
    em.g.remarks.append((d.coord, f"the dot product over '{nest.k_decl.name}' of '#pragma omp {d.name}' is staged through "
                                    f"shared memory: tiles of {DOT_TILE} x {DOT_TILE} of '{texts['row']}' and "
                                    f"'{texts['col']}', {DOT_TILE * DOT_TILE // DOT_TEAM} outputs per thread, "
                                    f"where the team has {DOT_TEAM} threads"))
    return texts


# A search's iterations run in groups of this many per thread, their loads issued together, with
# one test for a match after each group: a test after each iteration kept each load waiting for
# the one before (particlefilter's resampling kernel took 155 us under ncu against 137 without
# the test, H200, 2026-11-27, bench/results/issue34-h200-2026-11-27-s5-exp2-README.txt).
FIRST_MATCH_GROUP = 8


def _first_match(d: Directive, nest: list[c_ast.For], body: c_ast.Node) -> tuple[str, str] | None:
    """(v, i) where the loop is a search for the first match: `reduction(min: v)` alone over one
    loop of increasing integer `i`, whose body is `if (... && i < v && ...) v = i;` with a
    condition free of side effects. A thread runs its iterations in increasing order, so that once
    v = i its later iterations find i < v false and change nothing: it may stop (loop.j2's
    first_match). particlefilter's resampling scans a CDF so for the first entry above each
    particle's threshold; OpenMP has no `break` in a worksharing loop, and the min reduction is
    how a search is written."""
    reductions = [c for c in d.clauses if c.kind == "reduction"]
    if len(nest) != 1 or len(reductions) != 1 or reductions[0].op != "min" or len(reductions[0].items) != 1:
        return None
    item = reductions[0].items[0]
    parts = canonical_for(nest[0])
    if item.sections or item.members or parts is None:
        return None
    var, _, _, step, cmp = parts
    step_value = int_constant(CPrinter().visit(step))
    if cmp not in ("<", "<=") or step_value is None or step_value <= 0:
        return None
    body = sole_statement(body)
    if not isinstance(body, c_ast.If) or body.iffalse is not None or has_side_effect(body.cond, PURE_LIBRARY):
        return None
    assign = sole_statement(body.iftrue)
    if not (isinstance(assign, c_ast.Assignment) and assign.op == "=" and _is_name(assign.lvalue, item.name)
            and _is_name(assign.rvalue, var)):
        return None
    if not any(_below(term, var, item.name) for term in _conjuncts(body.cond)):
        return None
    return item.name, var


def _is_name(e: c_ast.Node, name: str) -> bool:
    while isinstance(e, c_ast.Cast):
        e = e.expr
    return isinstance(e, c_ast.ID) and e.name == name


def _conjuncts(e: c_ast.Node) -> list[c_ast.Node]:
    if isinstance(e, c_ast.BinaryOp) and e.op == "&&":
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [e]


def _below(e: c_ast.Node, var: str, bound: str) -> bool:
    """e is `var < bound` or `bound > var`."""
    return isinstance(e, c_ast.BinaryOp) and (e.op == "<" and _is_name(e.left, var) and _is_name(e.right, bound)
                                               or e.op == ">" and _is_name(e.left, bound) and _is_name(e.right, var))


def linear_items(em, d: Directive) -> tuple[tuple[str, str], ...]:
    """(name, step) of each linear item of a worksharing loop."""
    out = []
    for c in d.clauses:
        if c.kind != "linear":
            continue
        if c.modifier not in (None, "val"):
            raise OmpSemanticError(f"the '{c.modifier}' modifier of 'linear' is allowed only on 'declare simd'", c.coord)
        if c.modifier is not None:
            raise UnsupportedError("'linear' with the 'val' modifier on a loop construct is not supported yet", c.coord)
        for item in c.items:
            sym = em.declared_symbol(item.name)
            t = resolve_typedef(sym.type, em.env) if sym is not None else None
            if t is None or not (is_pointer(t) or is_integer_type(t, em.env)):
                raise OmpSemanticError(f"linear item '{item.name}' must be of integer or pointer type", item.coord)
            out.append((item.name, c.step.text if c.step is not None else "1"))
    return tuple(out)


def declare_loop_var(em, f: c_ast.For) -> None:
    if isinstance(f.init, c_ast.DeclList):
        for decl in f.init.decls:
            declare(em.env, decl)
    elif isinstance(f.init, c_ast.Assignment) and isinstance(f.init.lvalue, c_ast.ID):
        outer = em.env.lookup(f.init.lvalue.name)
        if outer is not None and outer.kind == "var":
            # a fresh private copy, distinct from the outer variable it shadows
            em.env.add(Symbol(outer.name, "var", copy.copy(outer.decl), is_global=False))


def schedule(em, d: Directive) -> tuple[str, str | None]:
    c = d.clause("schedule")
    if c is None:
        # The default schedule is implementation-defined; on the GPU it is static with
        # chunk 1, so consecutive threads take consecutive iterations and their memory
        # accesses coalesce (one contiguous block per thread would stride them apart).
        return "static", "1"
    kind = c.schedule_kind if c.schedule_kind not in ("auto", "runtime") else "static"
    return kind, (c.chunk.text if c.chunk is not None else None)


def workshare_for(em, n: OmpConstruct, d: Directive, range_from=None, combined: bool = False) -> str:
    kind, chunk = schedule(em, d)
    if combined and em.grid_loop:
        kind, chunk = "grid", None
    if d.has("ordered"):
        raise UnsupportedError("'ordered' loops on the device are not supported yet", d.coord)
    if any(c.kind == "reduction" and c.modifier == "inscan" for c in d.clauses):
        return data_sharing.privatize(em, d, reductions.scan_loop(em, n, d, kind, chunk, range_from))
    lastp = [item.name for c in d.clauses if c.kind == "lastprivate" for item in c.items]
    # A `for` combined with `parallel` has its reductions done by the region; alone, by itself.
    reds = [] if combined else reductions.reduction_items(em, d)
    # The loop's implicit barrier is implied when the loop ends its parallel region: the
    # region's end joins the team (generic: the join barrier; SPMD: the region's closing
    # barrier, or the kernel's end, or the next chunk of the same distribute loop, whose
    # iterations are independent of this chunk's).
    barrier = not reds
    if barrier and not d.has("nowait") and (combined or id(n) == em.region_tail):
        barrier = False
        em.g.remarks.append((d.coord, f"implicit barrier of '#pragma omp {n.directive.name}' removed: the end of the "
                                        "parallel region synchronizes the team"))
    text = loop_code(em, d, n.body, kind, chunk, range_from, lastp, d.has("nowait"), barrier=barrier,
                           linear=linear_items(em, d), barrier_before=True,
                           tile_bytes=em.grid_tile_bytes if kind == "grid" else None, opens_region=combined)
    if reds:
        text = em.render_with_ids("reduction_scope.j2", reds=reds, on_stack=em.on_master_stack(), body=text, barrier=not d.has("nowait"), team_size=em.team_size,
                              whole_block=em.whole_block)
    # private/firstprivate of a `for` inside a parallel region: each thread's own copy (a
    # `parallel for` has them made by the region already)
    return text if combined else data_sharing.privatize(em, d, text)


def simd(em, n: OmpConstruct) -> str:
    """A simd loop runs as a serial loop of the thread that meets it. Its private and
    firstprivate items are that thread's copies; with linear items, the normalized loop
    sets each iteration's copy (the body need not advance it)."""
    d = n.directive
    linear = linear_items(em, d)
    if not linear:
        return data_sharing.privatize(em, d, em.stmt_text(n.body))
    lastp = [item.name for c in d.clauses if c.kind == "lastprivate" for item in c.items]
    return data_sharing.privatize(em, d, loop_code(em, d, n.body, "serial", None, None, lastp, True, barrier=False, linear=linear))


def distribute(em, n: OmpConstruct) -> str:
    d = n.directive
    rest = d.leaves[1:]
    if em.in_region:
        raise OmpSemanticError("'distribute' must be closely nested in a 'teams' region", d.coord)
    ds = d.clause("dist_schedule")
    dchunk = ds.chunk.text if ds is not None and ds.chunk is not None else None
    if not rest or rest == ("simd",):
        lastp = [item.name for c in d.clauses if c.kind == "lastprivate" for item in c.items]
        return data_sharing.privatize(em, d, loop_code(em, d, n.body, "distribute", dchunk, None, lastp, True, barrier=False))
    if rest[0] != "parallel":
        raise UnsupportedError(f"'#pragma omp {d.name}' is not supported yet", d.coord)
    # distribute parallel for: this team's block of iterations, then a parallel for over it.
    loops = analyze_loops(em, d, n.body)
    # Without a dist_schedule the distribute schedule is ours to choose, and so is the loop
    # schedule without a schedule clause; schedule(static) without a chunk may map
    # iterations to threads in any way that splits them into one chunk per thread. All
    # three get the coalesced mapping: with at least one iteration per thread of the grid,
    # chunks of one team's size dealt round-robin to the teams, each thread one iteration
    # of each chunk (a grid-stride loop: consecutive threads, consecutive iterations); with
    # fewer, a block of n / teams per team, one iteration per thread (every team busy).
    # One call of the region per team. SPMD kernels only.
    grid = (dchunk is None and em.spmd and d.clause("num_threads") is None
            and (d.clause("schedule") is None or schedule(em, d) == ("static", None)
                 or (schedule(em, d) == ("static", "1") and _stageable_nest(em, d, n.body))))
    # Iterations that are tiles (footprint.py) and no schedule clause: fewer threads in
    # flight, each a block of consecutive iterations (schedule(static) keeps one chunk per
    # thread of the grid).
    # A loop nest never runs on fewer threads than the grid mapping gives it unless the model
    # says its iterations share no lines (footprint.TileModel.is_tile).
    tile_bytes = None
    innermost = loop_nest(n.body, collapse_depth(d))[-1]
    iteration = innermost.stmt
    lane = lane_of(innermost)
    model = tile_footprint(iteration, em.env, *lane) if grid and d.clause("schedule") is None and lane else None
    if model is not None:
        em.g.remarks.append((d.coord, f"iterations of '#pragma omp {d.name}' touch about {model.iteration_bytes} bytes "
                                        f"of cache lines each, a warp of {WARP} consecutive ones about "
                                        f"{model.warp_bytes} together", "analysis"))
        if model.is_tile:
            tile_bytes = model.iteration_bytes
            em.g.remarks.append((d.coord, f"iterations of '#pragma omp {d.name}' are tiles of about {tile_bytes} "
                                            "bytes of cache lines that neighbouring iterations do not share: blocks "
                                            "of consecutive iterations on fewer threads, about L2 / that many at once"))
        else:
            em.g.remarks.append((d.coord, f"iterations of '#pragma omp {d.name}' share cache lines with their "
                                            "neighbours: one iteration per thread of the grid"))
    if grid and tile_bytes is None and not short_iteration(iteration, em.g.p.functions):
        em.long_grid_loop = True
    pf = OmpConstruct(dataclasses.replace(d, name=" ".join(rest)), n.body, n.coord)
    loop_vars = loop_var_names(n.body, collapse_depth(d))
    sharing = region_sharing(pf, n.body, em.env, loop_vars=loop_vars)
    fork = parallel.outline(em, pf, sharing, inner=dataclasses.replace(d, name=" ".join(rest[1:])),
                         extra_values=(("long long", "__dist_lo", "__dist_lo"), ("long long", "__dist_hi", "__dist_hi")),
                         range_from=("__dist_lo", "__dist_hi"), grid_loop=grid, grid_tile_bytes=tile_bytes)
    return em.render_with_ids("distribute_fork.j2", loops=loops, chunk=dchunk, fork=fork, whole=grid)


# sections and scope: worksharing of blocks
def sections(em, n: OmpConstruct) -> str:
    d = n.directive
    body = n.body
    items = body.block_items if isinstance(body, c_ast.Compound) else [body]
    secs = []
    for it in items or []:
        if isinstance(it, OmpConstruct) and it.directive.name == "section":
            secs.append(em.stmt_text(it.body))
        else:
            secs.append(em.stmt_text(it))
    return data_sharing.privatize(em, d, em.render_with_ids("stmt.j2", kind="sections", sections=secs, nowait=d.has("nowait")))


def scope(em, n: OmpConstruct) -> str:
    """OpenMP 5.1 `scope`: every thread of the team runs the block, with its private and
    firstprivate copies; reductions combine into the shared variables; a team barrier ends
    it unless nowait (the reduction's own combine ends in that barrier)."""
    d = n.directive
    body = em.stmt_text(n.body)
    reds = reductions.reduction_items(em, d)
    if reds:
        text = em.render_with_ids("reduction_scope.j2", reds=reds, on_stack=em.on_master_stack(), body=body,
                      barrier=not d.has("nowait"), team_size=em.team_size, whole_block=em.whole_block)
    elif d.has("nowait"):
        text = body
    else:
        text = body + em.render_with_ids("stmt.j2", kind="barrier", team_size=em.team_size, aligned=em.aligned(),
                             whole_block=em.whole_block)
    return data_sharing.privatize(em, d, text)


def _loop_step(nxt, var) -> tuple[c_ast.Node | str, bool] | None:
    """The increment of a canonical loop: (the step's expression or text, whether it is
    subtracted), or None. A subtracted step is negated only after its conversion to the
    signed 64-bit step (`u -= 5u` steps by -5, not by the unsigned value of -5u)."""
    if isinstance(nxt, c_ast.UnaryOp) and isinstance(nxt.expr, c_ast.ID) and nxt.expr.name == var:
        return ("1" if "+" in nxt.op else "-1"), False
    if isinstance(nxt, c_ast.Assignment) and isinstance(nxt.lvalue, c_ast.ID) and nxt.lvalue.name == var:
        if nxt.op == "+=":
            return nxt.rvalue, False
        if nxt.op == "-=":
            return nxt.rvalue, True
        if nxt.op == "=" and isinstance(nxt.rvalue, c_ast.BinaryOp) and nxt.rvalue.op in ("+", "-"):
            r = nxt.rvalue
            if isinstance(r.left, c_ast.ID) and r.left.name == var:
                return r.right, r.op == "-"
            if r.op == "+" and isinstance(r.right, c_ast.ID) and r.right.name == var:
                return r.left, False
    return None
