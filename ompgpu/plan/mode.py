"""Execution mode of each kernel: SPMD where no team master is needed, generic otherwise.

A generic (warp-specialized) kernel runs its serial code on a master warp and wakes the
worker warps at each parallel region. A kernel can skip all of that (SPMD: every thread runs
the kernel body, the parallel regions are direct calls) when its code outside parallel
regions is *harmless*: every thread may run it redundantly and compute the same thing.
This pass proves that, conservatively, and records the first statement that defeats it:

- serial code may declare locals and assign them (each thread gets its own, equal, copy),
  branch and loop on them, call side-effect-free math functions and run `distribute` loops;
- a statement that writes memory or calls the C library (a *guarded* statement: an
  expression statement that assigns no local and calls no user function) runs on thread 0
  alone, followed by a team barrier, as a master would run it;
- side-effect-free omp_* queries without team state (the `uniform` and `varying` routines
  of runtime/device/api.cuh: omp_get_team_num, omp_get_num_teams, omp_get_device_num,
  omp_get_wtime, ...) may be called; a local that depends on omp_get_wtime differs
  between threads and may only be used in guarded statements;
- it may not call user functions or the rest of the omp_* API, take the address of a
  local, or use any other OpenMP construct;
- a parallel region may not share a serial local by address (it would need the master's
  single copy), nor carry `if` or `num_threads` (the team is the whole block); a local it
  writes or reduces into becomes one copy for the team in shared memory, except a local that
  only its own reduction clause names: then every thread's copy gets the total (plan/allreduce.py);
- no reduction or lastprivate at team level.

An SPMD kernel is *lean* (no runtime state at all: ids from threadIdx/blockDim, static
loops in registers) unless its regions need the runtime's per-thread state: a call to a
user function or the omp_* API, a dynamic/guided/runtime/auto schedule, a barrier, single,
master, masked, sections, ordered or a nested parallel region.
"""
from __future__ import annotations

import copy

import dataclasses
import re
from dataclasses import dataclass

from pycparser import c_ast, c_generator

from ompgpu.analysis.library import DEVICE_LIBRARY, OMP_DEVICE_API, PURE_LIBRARY, SERIAL_API
from ompgpu.analysis.symbols import (SCALAR_BYTES, ScopedVisitor, Symbol, declare, has_side_effect, is_array, is_pointer, region_uses,
                                     resolve_typedef, walk_nodes)
from ompgpu.errors import SourceCoord, UnsupportedError
from ompgpu.outliner.outline import Kernel, Program, kernel_scope, region_sharing
from ompgpu.parser.bind import OmpConstruct, collapse_depth, default_mem_order, loop_binding, loop_nest, loop_var_names
from ompgpu.parser.clause_rules import int_constant
from ompgpu.plan.allreduce import allreducible_items
from ompgpu.plan.call_effects import pure_function, region_stores_nothing, stateless_call
from ompgpu.plan.combine import combined_atomics
from ompgpu.plan.spread import spread_blocker, spread_candidate
from ompgpu.plan.team_size import irregular_team_size, loop_team_size

MODES = ("auto", "generic", "spmd")

# Runtime pieces an SPMD kernel leaves out (for the remarks).
ELIDED_SPMD = ("master warp", "fork/join barriers", "work-function dispatch", "soft stack")
ELIDED_LEAN = ELIDED_SPMD + ("team state", "per-thread state")

# Constructs inside a parallel region that read the runtime's per-thread state.
_STATEFUL_CONSTRUCTS = frozenset({"barrier", "single", "master", "masked", "sections", "section", "scope", "ordered",
                                  "parallel", "taskwait", "taskyield"})
# Calls that change nothing: what SPMD serial code may evaluate in a condition
_PURE_SERIAL_CALLS = PURE_LIBRARY | frozenset(SERIAL_API)
# Directly in a team-level region of an SPMD kernel the team is known (threads 0..T-1 of the
# block): these read threadIdx and meet on a named barrier, no runtime state
_KNOWN_TEAM_CONSTRUCTS = frozenset({"barrier", "single", "master", "masked"})


@dataclass(frozen=True)
class Reason:
    """A statement of the user's source and why it matters to the mode."""

    coord: SourceCoord
    why: str


@dataclass(frozen=True)
class KernelPlan:
    mode: str                      # "spmd" or "generic"
    lean: bool                     # spmd with no runtime state at all
    combined: bool                 # the kernel body is one parallel region (no serial code)
    not_spmd: Reason | None        # first statement that rules SPMD out (None: SPMD is legal)
    needs_state: Reason | None     # spmd: first construct that needs the runtime's state
    max_threads: int = 1024        # launch bound (__launch_bounds__ and the host's clamp)
    # the block size every launch of the kernel has (constant thread_limit clauses), 0 when it
    # depends on run-time values: the device code then uses the constant, not blockDim.x
    exact_threads: int = 0
    # SPMD: the text of the thread_limit expression when the device can evaluate it to the same
    # value as the host did at the launch (only by-value captures that the kernel never writes):
    # a parallel region whose num_threads is that expression then has the whole block as its team
    block_expr: str | None = None
    # names of the captures the kernel receives by value and neither assigns nor takes the
    # address of: their value anywhere in the kernel is the one the host passed
    unchanged_captures: frozenset[str] = frozenset()
    guarded: frozenset[int] = frozenset()  # id() of serial statements that thread 0 runs alone
    # SPMD serial code reads memory outside guarded statements: each region starts with a team
    # barrier, so that no thread writes in the region what a slower one has still to read.
    entry_barrier: bool = False
    # id(decl) of serial locals that parallel regions share (write, reduce into): in an SPMD
    # kernel one copy for the team in shared memory, written by thread 0 alone
    team_shared: frozenset[int] = frozenset()
    team_shared_names: tuple[str, ...] = ()      # their names, in the order the regions met them (remarks)
    # id(decl) of serial locals that regions only reduce into (their own reduction clause, whole
    # team): each thread keeps its own copy and every thread gets the team's total (an all-reduce,
    # runtime/device/reduction.cuh), so no shared copy, no barriers around its initialization
    allreduced: frozenset[int] = frozenset()
    allreduced_names: tuple[str, ...] = ()
    # id() of the bodies of team-level regions that store nothing another thread reads
    # (call_effects.region_stores_nothing): no entry barrier however the serial code reads memory
    storeless_regions: frozenset[int] = frozenset()
    # Teams per CUDA block (packed teams): a lean SPMD kernel whose teams are one warp each
    # runs PACKED_TEAMS of them in a block, each on its own warp, where its device code names
    # no block-wide id or barrier (codegen checks the code and else keeps a team per block).
    packed_teams: int = 1
    # Inner loops spread across the grid (plan/spread.py): a distribute iteration may run on
    # several blocks; else, for a kernel of that shape, why not (the remark says it).
    spread: bool = False
    # The team sized to its parallel loops' trip counts (plan/team_size.py): why, for the remark
    team_shape: str | None = None
    # Captured arrays and pointers whose atomic updates the blocks sum before they reach memory
    # (plan/combine.py), in capture order: bit k of the launch's mask enables the k-th.
    combine_atomics: tuple[str, ...] = ()
    spread_blocker: str | None = None

    @property
    def elided(self) -> tuple[str, ...]:
        if self.mode != "spmd":
            return ()
        return ELIDED_LEAN if self.lean else ELIDED_SPMD


def plan_kernels(program: Program, forced: str = "auto") -> dict[int, KernelPlan]:
    """KernelPlan of every kernel, by id(kernel). `forced` is the --mode flag."""
    if forced not in MODES:
        raise ValueError(forced)
    plans = {}
    for k in program.kernels:
        p = _plan_kernel(program, k)
        if forced == "generic" or (forced == "auto" and p.not_spmd is not None):
            p = KernelPlan("generic", False, p.combined, p.not_spmd, None)
        elif forced == "spmd" and p.not_spmd is not None:
            raise UnsupportedError(f"--mode=spmd: this target region cannot run in SPMD mode: {p.not_spmd.why} "
                                   f"(at {p.not_spmd.coord})", k.coord)
        bound = _launch_bound(k, p.mode)
        unchanged = _unchanged_captures(k)
        p = dataclasses.replace(p, max_threads=bound, exact_threads=_exact_block(k, p.mode, bound),
                                block_expr=_block_expr(k, unchanged) if p.mode == "spmd" else None,
                                unchanged_captures=unchanged)
        unshaped = p
        shape = loop_team_size(k, p, program.functions)
        irregular = shape is None and (shape := irregular_team_size(k, p, program.functions)) is not None
        if shape is not None:   # the team sized to its loops (plan/team_size.py)
            p = dataclasses.replace(p, max_threads=shape[0], exact_threads=shape[0], team_shape=shape[1])
        p = _spread(k, dataclasses.replace(p, packed_teams=_packed_teams(p)))
        if irregular and not p.spread:   # warp teams only with the long iterations shared out
            p = _spread(k, dataclasses.replace(unshaped, packed_teams=_packed_teams(unshaped)))
        if p.spread and p.allreduced:
            # the blocks of a spread iteration combine their partials in the team's shared copy
            # (runtime/device/spread.cuh): no all-reduce there
            q = _plan_kernel(program, k, allreduce=False)
            p = dataclasses.replace(p, guarded=q.guarded, entry_barrier=q.entry_barrier, team_shared=q.team_shared,
                                    team_shared_names=q.team_shared_names, allreduced=frozenset(), allreduced_names=(),
                                    storeless_regions=q.storeless_regions)
        p = dataclasses.replace(p, combine_atomics=combined_atomics(k, p, default_mem_order(program.bound)))
        plans[id(k)] = p
    return plans


def _spread(k: Kernel, p: KernelPlan) -> KernelPlan:
    """p with its inner loops spread across the grid where plan/spread.py allows it."""
    candidate = spread_candidate(k)
    if candidate is None:
        return p
    why = spread_blocker(k, p, candidate)
    return dataclasses.replace(p, spread=why is None, spread_blocker=why)


# One-warp teams per block of a packed kernel. On an H100, bfs's one-warp teams ran 0.94 ms
# packed four to a block against 1.02 unpacked (two: 0.96, eight: 0.94;
# bench/results/exp-h100-2026-11-25-barrier-packing.txt): a block of one warp leaves half of an
# SM's warp slots empty (at most 32 resident blocks). runtime/device/spread.cuh keeps state for
# this many warp teams per block (SPREAD_MAX_TEAMS).
PACKED_TEAMS = 4


def _packed_teams(p: KernelPlan) -> int:
    """Teams per block: PACKED_TEAMS warps' worth for a lean SPMD kernel whose every launch has
    teams of exactly one warp (a constant thread_limit(32)) or of 8 or 16 lanes (teams sized to
    their loops, plan/team_size.py) and that is not one combined region (whose loop the whole
    grid shares); 1 otherwise."""
    if p.mode == "spmd" and p.lean and p.exact_threads in (8, 16, 32) and not p.combined:
        return PACKED_TEAMS * 32 // p.exact_threads
    return 1


# Threads per team that the host runtime launches when nothing asks for a number (no
# thread_limit clause, no OMP_TEAMS_THREAD_LIMIT): runtime/host/target.cpp's threads_for uses
# the same numbers (tests/plan checks it).
DEFAULT_TEAM_THREADS = {"spmd": 256, "generic": 128 + 32}


def _positive_constant(c) -> int | None:
    """The clause's argument when it is a positive integer constant, else None."""
    v = int_constant(c.expr.text) if c is not None and c.expr is not None else None
    return v if v is not None and v > 0 else None


def _size_clauses(k: Kernel, mode: str) -> tuple[list, object]:
    """The clauses that size a kernel's block: its thread_limit clauses (teams, target) and, in
    SPMD mode, the combined region's num_threads (None when absent)."""
    d = k.construct.directive
    limits = [c for c in (k.teams.clause("thread_limit") if k.teams is not None else None, d.clause("thread_limit"))
              if c is not None]
    return limits, d.clause("num_threads") if mode == "spmd" else None


def constant_thread_limit(k: Kernel) -> int:
    """The team's thread limit when its thread_limit clauses are all constants (the smallest), else
    0: what a generic region that a persistent loop runs tells its team (the loop launches no
    kernel of its own for it, so no launch passes the limit)."""
    thread_limits, _ = _size_clauses(k, "generic")
    values = [_positive_constant(c) for c in thread_limits]
    return min(values) if values and None not in values else 0


def _launch_bound(k: Kernel, mode: str) -> int:
    """Threads per team the kernel is compiled for (__launch_bounds__, and the host's clamp).

    A constant thread_limit (plus the master warp in generic mode; or the combined region's
    constant num_threads in SPMD mode) is the bound. Without any thread_limit clause the bound
    is the team size the runtime launches by default, so OMP_TEAMS_THREAD_LIMIT cannot raise a
    team above it: a bound of 1024 makes ptxas fit every thread in 32 registers (two blocks of
    1024 per SM), which spilled 1.6 KB per thread in kmeans' assignment kernel while it ran
    256-thread teams. A thread_limit whose value is known only at run time keeps 1024."""
    thread_limits, num_threads = _size_clauses(k, mode)
    limits = [v + (32 if mode == "generic" else 0) for v in map(_positive_constant, thread_limits) if v is not None]
    team = _positive_constant(num_threads)
    if team is not None:
        limits.append(team)
    if not thread_limits and num_threads is None:
        limits.append(DEFAULT_TEAM_THREADS[mode])
    bound = min(limits, default=1024)
    if mode == "generic":
        bound = max(64, (bound + 31) // 32 * 32)  # W*32 + 32, at least one worker warp
    return max(1, min(bound, 1024))


def _exact_block(k: Kernel, mode: str, bound: int) -> int:
    """The block size of every launch, when clauses fix it: each thread_limit clause a constant
    (the host runtime launches the clause's count, clamped to the launch bound, which is the
    smallest of them: runtime/host/target.cpp threads_for), and in SPMD mode no num_threads on
    the combined region other than a constant (it sizes the block too). 0 otherwise."""
    thread_limits, num_threads = _size_clauses(k, mode)
    if not thread_limits or any(_positive_constant(c) is None for c in thread_limits):
        return 0
    if num_threads is not None and _positive_constant(num_threads) is None:
        return 0
    return bound


_IDENTIFIER = re.compile(r"\b[A-Za-z_]\w*")  # not the letters of a number (0x40, 64u)
# assignments, increments and calls (or casts): not evaluated a second time on the device
_SIDE_EFFECT_OR_CALL = re.compile(r"\+\+|--|(?<![=!<>])=(?!=)|\(")


def same_expression(a: str, b: str) -> bool:
    """Two clause arguments written alike (blanks aside)."""
    return "".join(a.split()) == "".join(b.split())


def _unchanged_captures(k: Kernel) -> frozenset[str]:
    """The kernel's by-value captures that it neither assigns nor takes the address of (a store
    through a pointer could change them)."""
    changed: set[str] = set()
    if k.body is not None:
        uses = region_uses(k.body, k.env)
        changed = {sym.name for sym in uses.written | uses.address_taken}
    return frozenset(c.name for c in k.captures if c.how == "literal" and c.name not in changed)


def _block_expr(k: Kernel, unchanged: frozenset[str]) -> str | None:
    """The thread_limit argument of an SPMD kernel when the device computes the same value from
    it as the host did for the launch: every thread_limit clause of the kernel written alike,
    without side effects, and made of constants and variables the kernel receives by value and
    neither assigns nor takes the address of (SPMD planning rejects the latter today; checked
    here as well, since a store through a pointer would break this). The host launches
    min(value, bound) threads (the value itself when it is not positive: the default block);
    num_threads of that value then takes min(value, blockDim.x), also blockDim.x when it is
    not positive: the whole block either way."""
    limits, _ = _size_clauses(k, "spmd")
    if not limits or any(c.expr is None for c in limits):
        return None
    text = limits[0].expr.text
    if any(not same_expression(c.expr.text, text) for c in limits[1:]) or _SIDE_EFFECT_OR_CALL.search(text):
        return None
    if any(name not in unchanged for name in _IDENTIFIER.findall(text)):
        return None
    return text


def is_combined(k: Kernel) -> bool:
    """The kernel body is a single construct that starts a parallel region at team level."""
    body = k.body
    if not isinstance(body, OmpConstruct):
        return False
    leaves = list(body.directive.leaves)
    if leaves and leaves[0] == "teams":
        leaves = leaves[1:]
    if not leaves:
        return False
    return (leaves[0] == "parallel" or (leaves[0] == "loop" and loop_binding(body.directive, in_parallel=False) == "teams")
            or leaves[:2] == ["distribute", "parallel"])


# Clauses whose list items get a thread's own copy in the construct.
_PRIVATIZING = ("private", "firstprivate", "lastprivate", "linear", "reduction")


def _plan_kernel(program: Program, k: Kernel, allreduce: bool = True) -> KernelPlan:
    # A serial local that a region shares is found only at the region, after the statements
    # that declare and write it were walked as per-thread code: walk again knowing it, until
    # no new one turns up.
    team_shared: frozenset[int] = frozenset()
    names: dict[int, str] = {}
    for _ in range(8):
        walker = _SerialWalker(program, k, team_shared, allreduce)
        teams_red = k.teams is not None and any(c.kind == "reduction" for c in k.teams.clauses) and "parallel" not in k.teams.leaves
        if teams_red:
            walker.block(k.teams.coord, "a reduction on 'teams' outside a parallel region")
        walker.visit(k.body)
        names.update(walker.team_shared_names)
        if walker.not_spmd is not None or walker.team_shared <= team_shared:
            break
        team_shared = frozenset(walker.team_shared)
    combined = is_combined(k)
    if walker.not_spmd is not None:
        return KernelPlan("generic", False, combined, walker.not_spmd, None)
    return KernelPlan("spmd", walker.needs_state is None, combined, None, walker.needs_state,
                      guarded=frozenset(walker.guarded), entry_barrier=walker.serial_reads, team_shared=team_shared,
                      team_shared_names=tuple(names[i] for i in names if i in team_shared),
                      storeless_regions=frozenset(walker.storeless_regions),
                      allreduced=frozenset(walker.allreduced) - team_shared,
                      allreduced_names=tuple(n for i, n in walker.allreduced.items() if i not in team_shared))


class _SerialWalker(ScopedVisitor):
    """Walks a kernel's serial (team-level) code; parallel regions are checked, not entered."""

    def __init__(self, program: Program, k: Kernel, team_shared: frozenset[int] = frozenset(),
                 allreduce: bool = True):
        super().__init__(kernel_scope(k))
        self.program = program
        self.kernel = k
        # serial locals that regions share, one copy for the team (grows as regions are met)
        self.team_shared: set[int] = set(team_shared)
        self.team_shared_names: dict[int, str] = {}
        # serial locals that regions only reduce into, each thread keeping its copy (KernelPlan.allreduced)
        self.allow_allreduce = allreduce
        self.allreduced: dict[int, str] = {}
        self.storeless_regions: set[int] = set()
        self.not_spmd: Reason | None = None
        self.needs_state: Reason | None = None
        self.serial_locals: set[int] = set()  # id(decl) of locals declared in serial code
        # Captured variables that become per-thread values in an SPMD kernel (by-value
        # parameters, target-private variables); mapped ones are the same memory for all.
        self.per_thread_captures = {c.name for c in k.captures
                                    if c.how == "literal" or (c.how in ("pointer", "attach") and not is_array(resolve_typedef(c.sym.type, k.env)))}
        self.per_thread_captures |= {s.name for s in k.privates}
        self.serial_reads = False  # memory read by every thread in serial code
        self.varying: set[int] = set()  # id(decl) of locals whose value differs between threads
        self.guarded: set[int] = set()  # id() of guarded statements
        self.in_guard = False

    # -- results -------------------------------------------------------------------------
    def coord(self, n) -> SourceCoord:
        c = getattr(n, "coord", None)
        if isinstance(c, SourceCoord):
            return c
        if c is None:
            return self.kernel.coord
        return self.program.bound.pre.user_coord(c.line, c.column)

    def block(self, coord: SourceCoord, why: str) -> None:
        if self.not_spmd is None:
            self.not_spmd = Reason(coord, why)

    def state(self, coord: SourceCoord, why: str) -> None:
        if self.needs_state is None:
            self.needs_state = Reason(coord, why)

    # -- what a name is in serial code ----------------------------------------------------------
    def _is_per_thread(self, sym: Symbol | None) -> bool:
        if sym is None or sym.kind != "var" or sym.is_global or id(sym.decl) in self.team_shared:
            return False
        return id(sym.decl) in self.serial_locals or sym.name in self.per_thread_captures

    def _may_share_with_team(self, sym: Symbol) -> bool:
        """A serial local that can become one shared-memory copy for the team: declared in the
        serial code (not a kernel parameter), not static, of a scalar type or an array of
        constant size of scalars, at most 16 KiB."""
        if id(sym.decl) not in self.serial_locals:
            return False
        size = _shared_size(resolve_typedef(sym.type, self.env), self.env)
        return size is not None and size <= 16384

    def _storage(self, expr: c_ast.Node) -> tuple[c_ast.ID | None, bool]:
        """(root variable, whether the access goes through a pointer) of an lvalue."""
        node, through_pointer = expr, False
        while not isinstance(node, c_ast.ID):
            if isinstance(node, c_ast.ArrayRef):
                if isinstance(node.name, c_ast.ID):
                    sym = self.env.lookup(node.name.name)
                    through_pointer |= sym is not None and is_pointer(sym.type)
                node = node.name
            elif isinstance(node, c_ast.StructRef):
                through_pointer |= node.type == "->"
                node = node.name
            elif isinstance(node, c_ast.Cast):
                node = node.expr
            else:  # *p, (a ? b : c), a function's result
                return None, True
        return node, through_pointer

    def _check_write(self, lvalue: c_ast.Node, n: c_ast.Node) -> None:
        """An assignment in serial code: only to a per-thread variable, never through a pointer."""
        root, through_pointer = self._storage(lvalue)
        if root is None:
            self.block(self.coord(n), "serial code writes memory through a pointer")
        elif through_pointer or not self._is_per_thread(self.env.lookup(root.name)):
            self.block(self.coord(n), f"serial code writes '{root.name}', which is shared by the team "
                                      "(every thread would write it)")

    # -- guarded statements -----------------------------------------------------------------------
    def visit_Compound(self, n: c_ast.Compound) -> None:
        saved, self.env = self.env, self.env.child()
        for item in n.block_items or []:
            if self.in_guard:  # inside a guarded statement: thread 0 runs all of it already
                self.visit(item)
            elif self._guardable(item):
                self.guarded.add(id(item))
                self.in_guard = True
                self.visit(item)
                self.in_guard = False
            elif isinstance(item, c_ast.Decl) and item.init is not None and id(item) in self.team_shared:
                # the team's copy is initialized by thread 0, with the guarded statements around
                self.guarded.add(id(item))
                self.visit(item)
            else:
                self.visit(item)
        self.env = saved

    def _guardable(self, stmt: c_ast.Node, in_loop: bool = False) -> bool:
        """A statement with a side effect that thread 0 can run for the team: an expression
        statement that assigns no per-thread local and calls only the C library and the serial
        omp_* queries; an `if` whose condition has no side effect and whose branches are such
        statements; a `for` that declares its own variables and whose body is such statements
        (with break/continue)."""
        if isinstance(stmt, c_ast.Compound):
            items = stmt.block_items or []
            return bool(items) and all(self._guardable(i, in_loop) for i in items)
        if isinstance(stmt, (c_ast.Break, c_ast.Continue)):
            return in_loop
        if isinstance(stmt, OmpConstruct):
            # an atomic update of memory: thread 0 does it for the team, as the master would
            d = stmt.directive
            kinds = {c.kind for c in d.clauses} & {"read", "write", "update", "capture", "compare"}
            return (d.leaves[0] == "atomic" and stmt.body is not None and kinds <= {"update", "write"}
                    and self._guardable(stmt.body, in_loop))
        if isinstance(stmt, c_ast.If):
            if self._has_effect(stmt.cond):
                return False
            branches = [b for b in (stmt.iftrue, stmt.iffalse) if b is not None]
            return bool(branches) and all(self._guardable(b, in_loop) for b in branches)
        if isinstance(stmt, c_ast.For):
            if not isinstance(stmt.init, c_ast.DeclList) or self._has_effect(stmt.cond) or stmt.stmt is None:
                return False
            own = {d.name for d in stmt.init.decls}
            for part in (stmt.init, stmt.next):
                for node in walk_nodes(part) if part is not None else ():
                    if isinstance(node, c_ast.FuncCall):
                        return False
                    target = node.lvalue if isinstance(node, c_ast.Assignment) else (
                        node.expr if isinstance(node, c_ast.UnaryOp) and node.op in ("++", "--", "p++", "p--") else None)
                    if target is not None and not (isinstance(target, c_ast.ID) and target.name in own):
                        return False
            return self._guardable(stmt.stmt, True)
        if not isinstance(stmt, (c_ast.Assignment, c_ast.FuncCall, c_ast.UnaryOp)):
            return False
        effect = False
        for node in walk_nodes(stmt):
            if isinstance(node, c_ast.FuncCall):
                name = node.name.name if isinstance(node.name, c_ast.ID) else None
                if name not in DEVICE_LIBRARY and name not in SERIAL_API:
                    return False
                effect |= name not in PURE_LIBRARY and name not in SERIAL_API
            elif isinstance(node, c_ast.Assignment) or (isinstance(node, c_ast.UnaryOp) and node.op in ("++", "--", "p++", "p--")):
                root, through_pointer = self._storage(node.lvalue if isinstance(node, c_ast.Assignment) else node.expr)
                if root is not None and not through_pointer and self._is_per_thread(self.env.lookup(root.name)):
                    return False  # a local: every thread must compute it
                effect = True
            elif isinstance(node, c_ast.UnaryOp) and node.op == "&":
                return False
        return effect

    def _has_effect(self, expr: c_ast.Node | None) -> bool:
        """Whether evaluating expr may change anything (an assignment, ++/--, a call that is not
        a pure library function or serial omp_* query)."""
        return has_side_effect(expr, _PURE_SERIAL_CALLS)

    def _varies(self, expr: c_ast.Node | None) -> bool:
        """Whether an expression's value may differ between the team's threads."""
        for node in walk_nodes(expr) if expr is not None else ():
            if isinstance(node, c_ast.FuncCall) and isinstance(node.name, c_ast.ID) and SERIAL_API.get(node.name.name):
                return True
            if isinstance(node, c_ast.ID):
                sym = self.env.lookup(node.name)
                if sym is not None and sym.decl is not None and id(sym.decl) in self.varying:
                    return True
        return False

    def visit_ArrayRef(self, n: c_ast.ArrayRef) -> None:
        self._read_memory()
        self.generic_visit(n)

    def visit_StructRef(self, n: c_ast.StructRef) -> None:
        if n.type == "->":
            self._read_memory()
        self.generic_visit(n)

    def _read_memory(self) -> None:
        if not self.in_guard:
            self.serial_reads = True

    def visit_ID(self, n: c_ast.ID) -> None:
        sym = self.env.lookup(n.name)
        if sym is not None and sym.kind == "var" and (sym.is_global or not self._is_per_thread(sym)):
            self._read_memory()  # a global or a mapped variable: device memory
        if not self.in_guard and sym is not None and sym.decl is not None and id(sym.decl) in self.varying:
            self.block(self.coord(n), f"'{n.name}' differs between threads (it depends on omp_get_wtime) and is "
                                      "used outside a statement that thread 0 runs alone")

    # -- statements and expressions -------------------------------------------------------------
    def visit_Decl(self, n: c_ast.Decl) -> None:
        if n.init is not None:
            self.visit(n.init)
            if self._varies(n.init):
                self.varying.add(id(n))
        if "static" in (n.storage or []) or "extern" in (n.storage or []):
            self.block(self.coord(n), f"'{n.name}' has static storage")
        declare(self.env, n)
        if isinstance(n.type, (c_ast.TypeDecl, c_ast.ArrayDecl, c_ast.PtrDecl)):
            self.serial_locals.add(id(n))

    def visit_Assignment(self, n: c_ast.Assignment) -> None:
        if not self.in_guard:
            self._check_write(n.lvalue, n)
            if isinstance(n.lvalue, c_ast.ID) and self._varies(n.rvalue):
                sym = self.env.lookup(n.lvalue.name)
                if sym is not None and sym.decl is not None:
                    self.varying.add(id(sym.decl))
        self.visit(n.rvalue)
        if not isinstance(n.lvalue, c_ast.ID):
            self.visit(n.lvalue)

    def visit_UnaryOp(self, n: c_ast.UnaryOp) -> None:
        if n.op in ("++", "--", "p++", "p--"):
            if not self.in_guard:
                self._check_write(n.expr, n)
        elif n.op == "*":
            self._read_memory()
        elif n.op == "&":
            root, through_pointer = self._storage(n.expr)
            if root is not None and not through_pointer and self._is_per_thread(self.env.lookup(root.name)):
                self.block(self.coord(n), f"serial code takes the address of '{root.name}'")
        self.visit(n.expr)

    def visit_FuncCall(self, n: c_ast.FuncCall) -> None:
        name = n.name.name if isinstance(n.name, c_ast.ID) else None
        if name in SERIAL_API or (self.in_guard and name in DEVICE_LIBRARY):
            pass
        elif name in self.program.functions and pure_function(self.program, name):
            pass  # every thread computes the same value
        elif name in OMP_DEVICE_API:
            self.block(self.coord(n), f"call to '{name}' outside a parallel region")
        elif name not in PURE_LIBRARY:
            self.block(self.coord(n), f"call to '{name or 'a function pointer'}' outside a parallel region")
        if n.args is not None:
            self.visit(n.args)

    def visit_Return(self, n) -> None:
        self.block(self.coord(n), "'return' in serial code")

    def visit_Goto(self, n) -> None:
        self.block(self.coord(n), "'goto' in serial code")

    def visit_Pragma(self, n) -> None:
        self.block(self.coord(n), "an unrecognised pragma in serial code")

    # -- OpenMP constructs ------------------------------------------------------------------------
    def visit_OmpConstruct(self, n: OmpConstruct) -> None:
        d = n.directive
        leaves = list(d.leaves)
        if leaves and leaves[0] == "teams":
            if any(c.kind == "reduction" for c in d.clauses) and "parallel" not in leaves:
                self.block(d.coord, "a reduction on 'teams' outside a parallel region")
            leaves = leaves[1:]
            if not leaves:
                self.visit(n.body)
                return
        if leaves[0] == "loop":  # team-level `loop`: `distribute parallel for`, or the team's one thread's loop
            leaves = ["distribute", "parallel", "for"] if loop_binding(d, in_parallel=False) == "teams" else ["simd"]
        if leaves[0] == "distribute":
            if any(c.kind in ("lastprivate", "reduction") for c in d.clauses) and "parallel" not in leaves:
                self.block(d.coord, f"'{d.name}' with a lastprivate or reduction clause outside a parallel region")
            if len(leaves) > 1 and leaves[1] == "parallel":
                self._region(n, leaves[1:], distribute=True)
                return
            self._loop_header(n, collapse_depth(d))
            return
        if leaves[0] == "parallel":
            self._region(n, leaves, distribute=False)
            return
        if leaves[0] == "simd":
            # every thread runs the loop, each with its own copies of the privatized items and
            # the loop variables: statements that update only those are per-thread code. A copy
            # that goes back to a variable the team shares would be written by every thread
            # while others still read its start value: such a loop is the master's alone.
            for c in d.clauses:
                if c.kind in ("lastprivate", "linear", "reduction"):
                    for item in getattr(c, "items", ()):
                        if not self._is_per_thread(self.env.lookup(item.name)):
                            self.block(d.coord, f"the {c.kind} item '{item.name}' of a simd loop in serial code is "
                                                "shared by the team")
            saved, self.env = self.env, self.env.child()
            names = [item.name for c in d.clauses if c.kind in _PRIVATIZING for item in getattr(c, "items", ())]
            self._private_copies(names + list(loop_var_names(n.body, collapse_depth(d))))
            self.visit(n.body)
            self.env = saved
            return
        if leaves[0] == "atomic" and self.in_guard:
            self.visit(n.body)  # thread 0 alone, in a guarded statement
            return
        if d.name == "allocate":
            return  # where a declared variable lives: no code
        self.block(d.coord, f"'#pragma omp {d.name}' outside a parallel region")

    def _private_copies(self, names: list[str]) -> None:
        """Declare a per-thread copy of each named variable in the current scope."""
        for name in names:
            sym = self.env.lookup(name)
            if sym is None or sym.kind != "var" or not isinstance(sym.decl, c_ast.Decl):
                continue
            own = copy.copy(sym.decl)
            own.init = None
            declare(self.env, own)
            self.serial_locals.add(id(own))

    def _loop_header(self, n: OmpConstruct, depth: int) -> None:
        """A `distribute` loop nest: every thread walks the same chunks; the body is serial code."""
        saved, self.env = self.env, self.env.child()
        nest = self._visit_loop_bounds(n.body, depth)
        # the loop variables are private in both modes: per-thread
        for name in loop_var_names(n.body, depth):
            sym = self.env.lookup(name)
            if sym is not None and sym.decl is not None:
                self.serial_locals.add(id(sym.decl))
        if nest:
            self.visit(nest[-1].stmt)
        self.env = saved

    def _visit_loop_bounds(self, body: c_ast.Node, depth: int) -> list[c_ast.For]:
        """Visit the init and condition of each loop of the nest (serial expressions that every
        thread evaluates); returns the nest."""
        nest = loop_nest(body, depth)
        for f in nest:
            for part in (f.init, f.cond):
                if part is not None:
                    self.visit(part)
        return nest

    def _region(self, n: OmpConstruct, leaves: list[str], distribute: bool) -> None:
        d = n.directive
        # num_threads: the team is the block's first threads (on the kernel's one combined
        # region the host launches that many). `if` could make the team one thread.
        if d.if_clause("parallel") is not None:
            self.block(d.coord, "'if' clause on the parallel region (an SPMD team is the block's threads)")
        rest = leaves[1:]
        loop_vars = loop_var_names(n.body, collapse_depth(d)) if rest and rest[0] in ("for", "loop") else ()
        if distribute:
            loop_vars = loop_var_names(n.body, collapse_depth(d))
        region = OmpConstruct(dataclasses.replace(d, name=" ".join(leaves)), n.body, n.coord)
        sharing = region_sharing(region, n.body, self.env, loop_vars=loop_vars)
        allreducible = allreducible_items(d, self.env) if self.allow_allreduce else set()
        own_reductions = set()
        for sym in sharing.by_pointer:
            if self._is_per_thread(sym):
                if _is_const(resolve_typedef(sym.type, self.env)):
                    continue  # read-only: every thread's own copy holds the same value
                if sym.name in allreducible and id(sym.decl) in self.serial_locals:
                    self.allreduced[id(sym.decl)] = sym.name
                    own_reductions.add(sym.name)
                    continue
                if self._may_share_with_team(sym):
                    self.team_shared.add(id(sym.decl))
                    self.team_shared_names.setdefault(id(sym.decl), sym.name)
                    continue
                self.block(d.coord, f"the parallel region shares '{sym.name}' with the serial code "
                                    "(it needs the team master's single copy)")
        for sym in sharing.by_value + sharing.by_pointer:
            if sym.decl is not None and id(sym.decl) in self.varying:
                self.block(d.coord, f"the parallel region uses '{sym.name}', which differs between threads "
                                    "(it depends on omp_get_wtime)")
        if not distribute and region_stores_nothing(self.program, region, lambda name: self.env.lookup(name) is not None,
                                                    own_reductions):
            self.storeless_regions.add(id(n.body))
        if distribute:  # the bounds of the distributed nest are serial expressions
            saved, self.env = self.env, self.env.child()
            self._visit_loop_bounds(n.body, collapse_depth(d))
            self.env = saved
        if any(leaf in _STATEFUL_CONSTRUCTS for leaf in rest):
            self.state(d.coord, f"'#pragma omp {d.name}' needs the team's state")
        _check_schedule(self, d)
        _StateScan(self).visit(n.body)


class _StateScan(c_ast.NodeVisitor):
    """Inside a parallel region: find the first thing that reads the runtime's per-thread state."""

    def __init__(self, walker: _SerialWalker):
        self.w = walker

    def visit_FuncCall(self, n: c_ast.FuncCall) -> None:
        name = n.name.name if isinstance(n.name, c_ast.ID) else None
        if name is None or not stateless_call(self.w.program, name):
            self.w.state(self.w.coord(n), f"call to '{name or 'a function pointer'}'")
        self.generic_visit(n)

    def visit_OmpConstruct(self, n: OmpConstruct) -> None:
        d = n.directive
        known_team = d.leaves[0] in _KNOWN_TEAM_CONSTRUCTS and d.clause("copyprivate") is None
        if any(leaf in _STATEFUL_CONSTRUCTS for leaf in d.leaves) and not known_team:
            self.w.state(d.coord, f"'#pragma omp {d.name}' inside the parallel region")
        _check_schedule(self.w, d)
        if n.body is not None:
            self.visit(n.body)




def _shared_size(t: c_ast.Node | None, env) -> int | None:
    """Bytes of a scalar (arithmetic or pointer) or a constant-size array of them; None for
    anything else (structs, VLAs, ...)."""
    if isinstance(t, c_ast.PtrDecl):
        return 8
    if isinstance(t, c_ast.ArrayDecl):
        n = int_constant(_text(t.dim)) if t.dim is not None else None
        inner = _shared_size(resolve_typedef(t.type, env), env)
        return n * inner if n is not None and n > 0 and inner is not None else None
    if isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.IdentifierType):
        names = [x for x in t.type.names if x not in ("signed", "unsigned", "const", "volatile")]
        if not names:
            return 4  # plain `unsigned`
        if names.count("long") == 2 or names == ["long", "int"] or names == ["long", "long", "int"]:
            return 8
        sizes = [SCALAR_BYTES.get(x) for x in names if x != "int" or len(names) == 1]
        return max(sizes) if sizes and all(v is not None for v in sizes) else None
    return None


def _is_const(t: c_ast.Node | None) -> bool:
    """A type whose object cannot be written (`const int`, `const double[4]`)."""
    while isinstance(t, c_ast.ArrayDecl):
        t = t.type
    return isinstance(t, c_ast.TypeDecl) and "const" in (t.quals or [])


def _text(expr: c_ast.Node) -> str:
    return c_generator.CGenerator().visit(expr)


def _check_schedule(w: _SerialWalker, d) -> None:
    c = d.clause("schedule")
    if c is not None and c.schedule_kind != "static":
        w.state(d.coord, f"schedule({c.schedule_kind}) needs the team's dispatch state")
