"""Host loops of target regions run as one persistent kernel (issue 50; Cooperative Kernels,
Sorensen, Evrard and Donaldson, FSE 2017).

A host `for`/`while`/`do` loop whose body is a sequence of target regions (SPMD or generic), `target update`s
of scalars and host statements on scalars (a level counter, a flag or residual read back, plain
arithmetic) becomes one kernel that runs the loop on the device: every thread of the grid runs
the host statements on its own copies of the loop's scalars (all compute the same values), the
regions are called in turn with grid barriers between them (runtime/device/grid.cuh), and the
copies in and out that the regions' map clauses and the updates ask for become reads and writes
of device memory. The launch is cooperative (every block resident), once per run of the loop; the
host's scalars get the values the loop ended with. Where the runtime cannot run it so (an item not
present, no device), the loop runs as written (runtime/host/persistent.cpp). The regions' blocks
must be alike: a region whose teams are packed several to a block (one-warp or 16-lane teams) makes
the loop's block that wide, holding as many of its teams as its own launch does.

The one entry point, plan_persistent_loops(program, plans), returns the loops that qualify (as
frozen PersistentLoop values: the steps in order, barriers placed) and remarks: -Rpass for each
fused loop, -Rpass-missed for a loop of target regions that does not qualify, with the reason.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from pycparser import c_ast

from ompgpu.analysis.library import PURE_LIBRARY
from ompgpu.analysis.symbols import Env, ScopedVisitor, Symbol, declare, is_pointer, region_uses, resolve_typedef
from ompgpu.errors import SourceCoord
from ompgpu.outliner.outline import Kernel, Program, target_kind
from ompgpu.parser.bind import OmpConstruct, collapse_depth, loop_header_names, loop_nest, loop_var_names
from ompgpu.parser.cfront import param_decls, walk_nodes
from ompgpu.plan.mode import KernelPlan

# C's arithmetic type words (after typedefs): a loop's scalars are of these types. long double is
# left out: the host's and the device's differ in size.
_ARITHMETIC_WORDS = frozenset("char short int long signed unsigned float double _Bool bool".split())

# Clauses of a region that the persistent kernel cannot keep: they choose the device, defer the
# region, fix the team count or size, or pass device addresses the host holds.
_REGION_CLAUSES_NOT_KEPT = ("nowait", "depend", "if", "device", "num_teams", "in_reduction", "uses_allocators",
                            "is_device_ptr", "has_device_addr", "allocate")
# Clauses that size the team: kept where they fix it to a constant (KernelPlan.exact_threads).
_TEAM_SIZE_CLAUSES = ("thread_limit", "num_threads")


DEFAULT_SPMD_THREADS = 256
DEFAULT_GENERIC_THREADS = 160


@dataclass(frozen=True)
class HostStep:
    """A host statement, run by every thread on its own copies of the loop's scalars."""
    stmt: c_ast.Node


@dataclass(frozen=True)
class RegionStep:
    """A target region called in the persistent kernel: `items[i]` is the loop item of the
    kernel's i-th capture (None: passed by value from the thread's copy)."""
    kernel: Kernel
    items: tuple[int | None, ...]


@dataclass(frozen=True)
class CopyStep:
    """A scalar copied between a thread's copy and its device storage (loop item `item`):
    `to_device` writes it (the grid's leader alone), else every thread reads it. `when_present`:
    a `target update` (only where the item is present); else a region's map clause (only where it
    is not: then the item is the loop's own copy)."""
    item: int
    name: str
    to_device: bool
    when_present: bool


@dataclass(frozen=True)
class BarrierStep:
    """A grid barrier."""


@dataclass(frozen=True)
class CarryStep:
    """First in each iteration: every scalar's device storage moves to its other cell (the
    grid's leader copies the value over), so that the iteration's writes never meet the
    previous iteration's reads (a barrier fewer an iteration). `skip_when[i]`, for the i-th
    cell item: "present" or "absent" where the iteration's first use of the cell writes it whole
    in that case (a region's copy in where the scalar is not present, an update to where it is),
    so there is nothing to copy over; None: always copied."""
    skip_when: tuple[tuple[int, str | None], ...] = ()


Step = HostStep | RegionStep | CopyStep | BarrierStep | CarryStep


@dataclass(frozen=True)
class LoopItem:
    """A device address the loop's kernel receives: a capture of a region (`kernel`, capture
    index: an array or a pointer), an outer pointer of the host code (`pointer`), or a scalar's
    cells (`cell`, its variable `sym`): while the loop runs, the scalar's device storage is a pair of
    cells in the loop's frame, one an iteration, whether the variable is present or not (nothing
    but the loop can see its device copy meanwhile); where it is present, the runtime copies the
    device copy's value in and the kernel writes the last value back."""
    kernel: Kernel | None
    capture: int
    name: str
    pointer: bool = False
    cell: bool = False
    sym: Symbol | None = None
    local: bool = False   # a cell of a scalar declared inside the loop: never present


@dataclass(frozen=True)
class PersistentLoop:
    name: str                      # the kernel's: __ompgpu_loop_<function>_l<line>
    loop: c_ast.Node               # the For / While / DoWhile
    coord: SourceCoord
    function: str
    env: Env                       # the scope at the loop
    steps: tuple[Step, ...]        # the body's, in order, barriers placed
    top_barrier: bool              # a barrier first in each iteration (the body has a `continue`)
    state: tuple[Symbol, ...]      # the outer scalars the loop uses: copied in, and out where written
    # The outer pointers the host code uses (swaps: `t = a; a = b; b = t;`), with their loop items: each
    # thread's copy holds the device address; at the end each written one names the item it ends on.
    pointers: tuple[tuple[Symbol, int], ...]
    written: frozenset[str]        # names of those the loop may change
    items: tuple[LoopItem, ...]
    team_threads: int
    kernels: tuple[Kernel, ...]
    # Each kernel's teams per block as planned (KernelPlan.packed_teams): the loop's block holds
    # that many of a packed region's teams. Code generation keeps the loop only where each kernel
    # is emitted so (codegen/device/program.py: a packed kernel whose code names the block is not).
    packed: tuple[int, ...]
    # Each region's loop nest dealt out over the grid (one iteration a thread), whose bounds the
    # host can evaluate before the loop (they name only outer variables the loop never changes):
    # the grid need not be larger than the longest; None where a region is not one such nest.
    grid_nests: tuple[tuple[c_ast.For, ...], ...] | None


@dataclass(frozen=True)
class LoopPlan:
    loops: tuple[PersistentLoop, ...]
    remarks: tuple[tuple, ...]     # (coord, message, "missed" | None)

    def kernel_ids(self) -> frozenset[int]:
        return frozenset(id(k) for loop in self.loops for k in loop.kernels)


class NotKept(Exception):
    """Why a loop cannot run as one kernel."""


def plan_persistent_loops(program: Program, plans: dict[int, KernelPlan]) -> LoopPlan:
    kernels = {id(k.construct): k for k in program.kernels}
    loops, remarks = [], []
    for name, fn in program.functions.items():
        finder = _LoopFinder(program, name, fn, kernels, plans)
        finder.visit(fn.body)
        loops += finder.loops
        remarks += finder.remarks
    return LoopPlan(tuple(loops), tuple(remarks))


class _LoopFinder(ScopedVisitor):
    """Walks one host function (not into target regions) and plans each loop of target regions."""

    def __init__(self, program: Program, fn_name: str, fn: c_ast.FuncDef, kernels: dict, plans: dict):
        super().__init__(program.globals_env.child())
        for p in param_decls(fn):
            declare(self.env, p, is_param=True)
        self.program, self.fn_name, self.kernels, self.plans = program, fn_name, kernels, plans
        self.loops: list[PersistentLoop] = []
        self.remarks: list[tuple] = []
        self.names: set[str] = set()

    def user_coord(self, node: c_ast.Node) -> SourceCoord:
        return self.program.bound.pre.user_coord(node.coord.line, node.coord.column)

    def unique_name(self, coord: SourceCoord) -> str:
        name = base = f"__ompgpu_loop_{self.fn_name}_l{coord.line}"
        while name in self.names:
            name = f"{base}_{len(self.names)}"
        self.names.add(name)
        return name

    def visit_OmpConstruct(self, n: OmpConstruct):
        if target_kind(n.directive) == "data" and n.body is not None:
            self.visit(n.body)   # a data region's body is host code; nothing else is walked

    def visit_For(self, n: c_ast.For):
        self._consider(n)
        super().visit_For(n)

    def visit_While(self, n: c_ast.While):
        self._consider(n)
        self.generic_visit(n)

    def visit_DoWhile(self, n: c_ast.DoWhile):
        self._consider(n)
        self.generic_visit(n)

    def _consider(self, loop: c_ast.Node) -> None:
        items = _body_items(loop.stmt)
        regions = [it for it in items if isinstance(it, OmpConstruct) and id(it) in self.kernels]
        if not regions:
            return
        try:
            planned = _Planner(self, loop, items).plan()
        except NotKept as why:
            self.remarks.append((self.user_coord(loop), f"the host loop of {len(regions)} target region(s) runs as "
                                 f"written, a kernel launch per region and iteration: {why}", "missed"))
            return
        self.loops.append(planned)
        barriers = sum(isinstance(s, BarrierStep) for s in planned.steps) + planned.top_barrier
        scalars = ", ".join(s.name for s in planned.state) or "none"
        self.remarks.append((planned.coord, f"the host loop of {len(planned.kernels)} target region(s) runs as one "
                             f"persistent kernel '{planned.name}': one cooperative launch of blocks of "
                             f"{planned.team_threads} threads{_packing(planned)}, all resident (no more than fill half of each SM, nor "
                             f"than the regions' loops give two iterations a thread); {barriers} grid barrier(s) an "
                             f"iteration; the loop's scalars ({scalars}) kept on the device", None))


def _packing(loop: PersistentLoop) -> str:
    """How a loop's blocks hold the teams of its packed regions (say nothing where none is)."""
    packed = sorted({p for p in loop.packed if p > 1})
    return f" ({' or '.join(str(p) for p in packed)} teams to a block)" if packed else ""


def _body_items(stmt: c_ast.Node) -> list:
    if isinstance(stmt, c_ast.Compound):
        return list(stmt.block_items or [])
    return [stmt]


class _Planner:
    def __init__(self, finder: _LoopFinder, loop: c_ast.Node, items: list):
        self.f, self.loop, self.items = finder, loop, items
        self.env: Env = finder.env
        # The host code of the loop (its header and the statements between the regions) in
        # order, as one block: the outer variables it uses and writes.
        header = [p for p in (getattr(loop, "init", None), loop.cond, getattr(loop, "next", None)) if p is not None]
        host = [it for it in items if not isinstance(it, OmpConstruct)]
        self.host_uses = region_uses(c_ast.Compound(header + host), self.env)
        self.written = {s.name for s in self.host_uses.written}
        self.loop_items: list[LoopItem] = []
        self.state: list[Symbol] = []
        self.pointers: list[tuple[Symbol, int]] = []

    def _keep(self, sym: Symbol) -> None:
        """`sym`, an outer variable the loop uses, among the loop's scalars."""
        if any(s.decl is sym.decl for s in self.state):
            return
        if sym.name in self.f.program.bound.declare_target:
            raise NotKept(f"the loop uses the declare target variable '{sym.name}'")
        if is_pointer(resolve_typedef(sym.type, self.env)):
            if not any(p.decl is sym.decl for p, _ in self.pointers):
                self.pointers.append((sym, self._item(LoopItem(None, 0, sym.name, pointer=True))))
            return
        if not _is_scalar(sym, self.env):
            raise NotKept(f"the loop's host code uses '{sym.name}', which is not a scalar")
        self.state.append(sym)

    def _outer(self, name: str, sym: Symbol) -> bool:
        """Whether `sym` (of another walk's scopes) is the variable `name` names outside the loop."""
        outer = self.env.lookup(name)
        return outer is not None and outer.decl is sym.decl

    def plan(self) -> PersistentLoop:
        steps: list[Step] = []
        for name in ("init", "cond", "next"):
            part = getattr(self.loop, name, None)
            if part is not None:
                _check_host_code(part, self.f, f"the loop's {name}")
        for sym in self.host_uses.order:   # the host code's pointers first: regions pass them as they are
            if sym.kind == "var" and is_pointer(resolve_typedef(sym.type, self.env)):
                self._keep(sym)
        kernels, team = [], None
        for item in self.items:
            if isinstance(item, OmpConstruct) and id(item) in self.f.kernels:
                k = self.f.kernels[id(item)]
                threads = self._check_region(k)
                if team is not None and threads != team:
                    raise NotKept(f"its regions run teams of different sizes ({team} and {threads} threads)")
                team = threads
                kernels.append(k)
                steps += self._region_steps(k)
            elif isinstance(item, OmpConstruct) and item.directive.name == "target update":
                steps += self._update_steps(item)
            elif isinstance(item, OmpConstruct):
                raise NotKept(f"'#pragma omp {item.directive.name}' at {item.directive.coord} is not a target region")
            else:
                _check_host_code(item, self.f, "a host statement")
                steps.append(HostStep(item))
        self._check_pointer_moves()
        for sym in self.host_uses.order:
            if sym.kind == "var":
                if sym in self.host_uses.address_taken:
                    raise NotKept(f"the loop takes the address of '{sym.name}'")
                self._keep(sym)
        self.written |= {self.loop_items[s.item].name for s in steps if isinstance(s, CopyStep) and not s.to_device}
        for k in kernels:   # a region's map items: no section bound may move while the loop runs
            for c in k.construct.directive.clauses_of("map"):
                for item in c.items:
                    moved = _names_in_sections(item) & self.written
                    if moved:
                        raise NotKept(f"the target region at {k.coord} maps a section whose bounds name "
                                      f"'{sorted(moved)[0]}', which the loop changes")
        has_continue = any(_jumps_out(it, (c_ast.Continue,)) for it in self.items)
        if any(it.cell for it in self.loop_items):
            steps.insert(0, CarryStep(_carry_skips(steps, self.loop_items)))
        placed = _place_barriers(steps, self.loop_items, wrap=not has_continue)
        coord = self.f.user_coord(self.loop)
        return PersistentLoop(self.f.unique_name(coord), self.loop, coord, self.f.fn_name,
                              self.env.copy(), tuple(placed), has_continue, tuple(self.state), tuple(self.pointers),
                              frozenset(self.written), tuple(self.loop_items), team or 256, tuple(kernels),
                              tuple(self.f.plans[id(k)].packed_teams for k in kernels), self._grid_nests(kernels))

    def _grid_nests(self, kernels: list[Kernel]) -> tuple[tuple[c_ast.For, ...], ...] | None:
        nests = []
        for k in kernels:
            d = k.construct.directive
            if tuple(d.leaves[:5]) != ("target", "teams", "distribute", "parallel", "for") or \
                    self.f.plans[id(k)].mode != "spmd" or d.clause("dist_schedule") is not None:
                return None
            nest = loop_nest(k.construct.body, collapse_depth(d))
            if not nest:
                return None
            loop_vars = set(loop_var_names(k.construct.body, len(nest)))
            if any(name in self.written or self.env.lookup(name) is None
                   for f in nest for name in loop_header_names(f) - loop_vars):
                return None
            nests.append(tuple(nest))
        return tuple(nests)


    def _check_pointer_moves(self) -> None:
        """The host code may only copy pointers (`p = q`, `T *t = p`): each thread's copy of a
        pointer then always holds the device address of one of the loop's pointers at its start."""
        pointers = {p.name for p, _ in self.pointers}
        header = [p for p in (getattr(self.loop, "init", None), self.loop.cond, getattr(self.loop, "next", None)) if p]
        for item in header + [it for it in self.items if not isinstance(it, OmpConstruct)]:
            for n in walk_nodes(item):
                if isinstance(n, c_ast.Decl) and isinstance(n.type, c_ast.PtrDecl):
                    pointers.add(n.name)
            for n in walk_nodes(item):
                if isinstance(n, c_ast.Decl) and isinstance(n.type, c_ast.PtrDecl) and n.init is not None and \
                        not (isinstance(n.init, c_ast.ID) and n.init.name in pointers):
                    raise NotKept(f"a host statement at {self.f.user_coord(n)} sets the pointer '{n.name}' to "
                                  "something other than another pointer of the loop")
                if isinstance(n, c_ast.Assignment) and isinstance(n.lvalue, c_ast.ID) and n.lvalue.name in pointers \
                        and not (n.op == "=" and isinstance(n.rvalue, c_ast.ID) and n.rvalue.name in pointers):
                    raise NotKept(f"a host statement at {self.f.user_coord(n)} computes the pointer "
                                  f"'{n.lvalue.name}' (only copies of the loop's pointers are kept)")
                if isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--") and \
                        isinstance(n.expr, c_ast.ID) and n.expr.name in pointers:
                    raise NotKept(f"a host statement at {self.f.user_coord(n)} moves the pointer '{n.expr.name}'")

    def _check_region(self, k: Kernel) -> int:
        plan: KernelPlan = self.f.plans[id(k)]
        where = f"the target region at {k.coord}"
        if k.teams is None:
            raise NotKept(f"{where} has no teams: it runs as one team, which the loop's grid cannot stand for")
        if plan.spread or plan.combine_atomics:
            raise NotKept(f"{where} shapes its own launch (spread inner loops or combined atomics)")
        d = k.construct.directive
        for clause in _REGION_CLAUSES_NOT_KEPT:
            if d.clause(clause) is not None or (k.teams is not None and k.teams.clause(clause) is not None):
                raise NotKept(f"{where} has a '{clause}' clause")
        if k.attachments:
            raise NotKept(f"{where} attaches pointer members")
        sized = [c for c in _TEAM_SIZE_CLAUSES if d.clause(c) is not None or (k.teams is not None and k.teams.clause(c))]
        if plan.exact_threads > 0:
            # the clauses fix every launch's block to this; packed teams share a block, the loop's
            # block holds as many as their own launch's does (packed_teams, fixed at planning)
            return plan.exact_threads * plan.packed_teams
        if sized:
            raise NotKept(f"{where} sizes its teams with a '{sized[0]}' clause that is not a constant")
        # the team size its own launch would get (runtime/host/target.cpp threads_for, without
        # thread_limit): 256 threads in SPMD mode, 128 workers and the master warp in generic mode
        return min(DEFAULT_SPMD_THREADS if plan.mode == "spmd" else DEFAULT_GENERIC_THREADS, plan.max_threads)

    def _region_steps(self, k: Kernel) -> list[Step]:
        before, after, items = [], [], []
        for i, cap in enumerate(k.captures):
            where = f"the target region at {k.coord}"
            declared_inside = not self._outer(cap.name, cap.sym)
            if cap.device_address or cap.how not in ("literal", "pointer", "attach", "object"):
                raise NotKept(f"{where} passes '{cap.name}' in a way the loop cannot keep ({cap.how})")
            if cap.how == "literal":
                if not _is_scalar(cap.sym, k.env):
                    raise NotKept(f"{where} takes '{cap.name}' by value and it is not a scalar")
                if not declared_inside:
                    self._keep(cap.sym)
                items.append(None)
                continue
            scalar = cap.how == "object" and _is_scalar(cap.sym, k.env)
            if declared_inside and not scalar and cap.how != "attach":
                raise NotKept(f"{where} maps '{cap.name}', which is declared inside the loop")
            if cap.how in ("pointer", "attach") and (declared_inside or any(p.decl is cap.sym.decl
                                                                          for p, _ in self.pointers)):
                items.append(None)   # a pointer of the host code: the thread's copy holds its device address
                continue
            if scalar:
                index = self._cell(cap.sym, local=declared_inside)
                if not declared_inside:
                    self._keep(cap.sym)
            else:
                index = self._item(LoopItem(k, i, cap.name))
            items.append(index)
            if scalar:
                if "to" in cap.map_type:
                    before.append(CopyStep(index, cap.name, True, False))
                if "from" in cap.map_type:
                    after.append(CopyStep(index, cap.name, False, False))
        return [*before, RegionStep(k, tuple(items)), *after]

    def _update_steps(self, c: OmpConstruct) -> list[Step]:
        d = c.directive
        steps = []
        for clause in d.clauses:
            if clause.kind not in ("to", "from"):
                raise NotKept(f"the target update at {d.coord} has a '{clause.kind}' clause")
            for item in clause.items:
                sym = self.env.lookup(item.name)
                if sym is not None and not self._outer(item.name, sym):
                    sym = None
                if item.sections or item.members or sym is None or not _is_scalar(sym, self.env):
                    raise NotKept(f"the target update at {d.coord} moves '{item.text}', which is not a scalar")
                self._keep(sym)
                index = self._cell(sym, local=False)
                steps.append(CopyStep(index, item.name, clause.kind == "to", True))
        return steps

    def _item(self, item: LoopItem) -> int:
        self.loop_items.append(item)
        return len(self.loop_items) - 1

    def _cell(self, sym: Symbol, local: bool) -> int:
        """The item of the cells of scalar `sym` (one for all its uses)."""
        for i, it in enumerate(self.loop_items):
            if it.cell and it.sym.decl is sym.decl:
                return i
        return self._item(LoopItem(None, 0, sym.name, cell=True, sym=sym, local=local))


def _carry_skips(steps: list[Step], items: list[LoopItem]) -> tuple[tuple[int, str | None], ...]:
    """CarryStep.skip_when of each cell: where the cell's first use in the iteration is a copy to
    the device, reached from the iteration's start without a `break` or `continue` before it."""
    out = []
    for i, item in enumerate(items):
        if not item.cell:
            continue
        when = None
        for step in steps:
            if isinstance(step, HostStep) and _jumps_out(step.stmt, (c_ast.Break, c_ast.Continue)):
                break
            if isinstance(step, CopyStep) and step.item == i:
                if step.to_device:
                    when = "present" if step.when_present else "absent"
                break
            if isinstance(step, RegionStep) and i in step.items:
                break
        out.append((i, when))
    return tuple(out)


def _is_scalar(sym: Symbol, env: Env) -> bool:
    t = resolve_typedef(sym.type, env)
    if not isinstance(t, c_ast.TypeDecl) or not isinstance(t.type, c_ast.IdentifierType):
        return False
    words = set(t.type.names)
    if "volatile" in (t.quals or []) or ("long" in words and "double" in words):
        return False
    return bool(words) and words <= _ARITHMETIC_WORDS


def _names_in_sections(item) -> set[str]:
    return {name for section in item.sections for part in (section.lower, section.length) if part is not None
            for name in re.findall(r"[A-Za-z_]\w*", part.text)}


# What host statements of a fused loop may be: scalar arithmetic, control flow, calls of pure
# library functions. Anything else (I/O, other calls, memory through pointers) stays on the host.
_HOST_NODES = (c_ast.Compound, c_ast.If, c_ast.For, c_ast.While, c_ast.DoWhile, c_ast.Break, c_ast.Continue,
               c_ast.EmptyStatement, c_ast.Assignment, c_ast.BinaryOp, c_ast.UnaryOp, c_ast.TernaryOp, c_ast.Constant,
               c_ast.ID, c_ast.Cast, c_ast.ExprList, c_ast.Decl, c_ast.DeclList, c_ast.TypeDecl, c_ast.PtrDecl,
               c_ast.IdentifierType, c_ast.Typename, c_ast.FuncCall)


def _check_host_code(node: c_ast.Node, finder: _LoopFinder, what: str) -> None:
    program = finder.program
    for n in walk_nodes(node):
        if isinstance(n, OmpConstruct):
            raise NotKept(f"{what} at {n.directive.coord} holds '#pragma omp {n.directive.name}'")
        if not isinstance(n, _HOST_NODES):
            kind = {"ArrayRef": "an array element", "StructRef": "a struct member", "Return": "a return",
                    "Goto": "a goto", "Label": "a label", "Switch": "a switch"}.get(type(n).__name__, type(n).__name__)
            raise NotKept(f"{what} at {finder.user_coord(n)} uses {kind}, which the device's copies of the loop's scalars "
                          "cannot stand for")
        if isinstance(n, c_ast.UnaryOp) and n.op in ("&", "*"):
            raise NotKept(f"{what} at {finder.user_coord(n)} uses '{n.op}' on memory")
        if isinstance(n, c_ast.FuncCall):
            name = n.name.name if isinstance(n.name, c_ast.ID) else None
            if name not in PURE_LIBRARY or name in program.functions:
                raise NotKept(f"{what} at {finder.user_coord(n)} calls '{name or 'a function pointer'}' on the host")
        if isinstance(n, (c_ast.PtrDecl,)):
            continue
        if isinstance(n, c_ast.Decl) and (n.storage or not isinstance(n.type, (c_ast.TypeDecl, c_ast.PtrDecl))):
            raise NotKept(f"{what} at {finder.user_coord(n)} declares '{n.name}', which is not a plain scalar")


def _jumps_out(stmt: c_ast.Node, jumps: tuple[type, ...]) -> bool:
    """Whether `stmt` holds one of `jumps` (break, continue) of the loop itself: not one of a loop,
    switch or OpenMP construct nested in it."""
    todo = [stmt]
    while todo:
        n = todo.pop()
        if isinstance(n, jumps):
            return True
        if not isinstance(n, (c_ast.For, c_ast.While, c_ast.DoWhile, c_ast.Switch, OmpConstruct)):
            todo.extend(child for _, child in n.children())
    return False


# What a step does to device memory: (reads by every thread, writes by every thread, writes by the
# grid's leader alone), each a set of storage: an item's (a scalar's cell of this iteration, or the
# arrays, "*", as one) or "<item>@prev", a cell of the iteration before.
def _accesses(step: Step, items: list[LoopItem]) -> tuple[set, set, set]:
    if isinstance(step, RegionStep):
        touched = {"*"} | {str(i) for i in step.items if i is not None and items[i].cell}
        return touched, touched, set()
    if isinstance(step, CopyStep):
        cell = {str(step.item)}
        return (set(), set(), cell) if step.to_device else (cell, set(), set())
    if isinstance(step, CarryStep):
        cells = [str(i) for i, it in enumerate(items) if it.cell]
        return {f"{c}@prev" for c in cells}, set(), set(cells)
    return set(), set(), set()


def _place_barriers(steps: list[Step], items: list[LoopItem], wrap: bool) -> list[Step]:
    """The steps with a grid barrier wherever one thread may touch device memory that another
    touched since the last barrier, one of them writing (the leader's own writes one after the
    other need none). Placed for the steady state: the accesses left pending at the end of an
    iteration meet the next iteration's first steps, its cells then the previous iteration's
    (`wrap`; without it each iteration starts with a barrier of its own,
    PersistentLoop.top_barrier). Every iteration holds a barrier (between its region and the
    previous iteration's, at least), so cells two iterations apart never meet."""
    def place(pending: tuple[set, set, set]) -> tuple[list[Step], tuple[set, set, set]]:
        out = []
        reads, writes, leader = (set(p) for p in pending)
        for step in steps:
            r, w, lw = _accesses(step, items)
            if (w & (reads | writes | leader)) or (lw & (reads | writes)) or (r & (writes | leader)):
                out.append(BarrierStep())
                reads, writes, leader = set(), set(), set()
            reads |= r
            writes |= w
            leader |= lw
            out.append(step)
        return out, (reads, writes, leader)

    def previous(names: set) -> set:
        return {n if n == "*" else f"{n}@prev" for n in names if not n.endswith("@prev")}
    _, pending = place((set(), set(), set()))
    placed, _ = place(tuple(previous(p) for p in pending) if wrap else (set(), set(), set()))
    return placed
