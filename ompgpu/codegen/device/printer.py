"""The printer of one device function, kernel or work function: user statements through
pycparser's C generator, each OpenMP construct handed to the module of its family."""
from __future__ import annotations

import contextlib
import copy
import dataclasses
from typing import TYPE_CHECKING

from pycparser import c_ast

from ompgpu.analysis.library import DEVICE_LIBRARY, HOST_ONLY_API, OMP_DEVICE_API
from ompgpu.analysis.symbols import Env, Symbol, declare, is_array, is_pointer, param_decls, resolve_typedef
from ompgpu.codegen.cprint import line_directive
from ompgpu.codegen.render import BLOCK_TEAM_IDS, packed_team_ids, render
from ompgpu.errors import OmpSemanticError, SourceCoord, UnsupportedError, note_location
from ompgpu.outliner.outline import DEVICE_UNSUPPORTED, check_device_clauses
from ompgpu.parser.bind import OmpConstruct, loop_binding
from ompgpu.plan.mode import KernelPlan
from ompgpu.codegen.device import data_sharing, parallel, sync, tasks, worksharing

from ompgpu.codegen.device.cdecl import CGen, cxx_name, named, type_string
from ompgpu.parser.cfront import set_declname

if TYPE_CHECKING:  # the generator that makes Emitters (program.py imports this module)
    from ompgpu.codegen.device.program import DeviceGenerator


class Emitter(CGen):
    """Prints one device function, kernel or work function."""

    def __init__(self, gen: DeviceGenerator, owner: str, env: Env, master: bool, plan: KernelPlan | None = None):
        super().__init__()
        self.g = gen
        # The plan of the kernel this code belongs to; None for device functions, which any
        # kernel may call and so use the runtime's dynamic (mode-independent) entry points.
        self.plan = plan
        self.spmd = plan is not None and plan.mode == "spmd"
        self.lean = self.spmd and plan.lean
        # how the code names the thread's place in its team (a team per block, or packed teams)
        self.ids = packed_team_ids(plan.exact_threads) if plan is not None and plan.packed_teams > 1 else BLOCK_TEAM_IDS
        # Runtime elision in worksharing code: a C expression for the size of the team that
        # runs this code when the compiler knows it (thread threadIdx.x of team_size), else None
        # and the runtime reads it from the thread's state.
        self.team_size: str | None = None
        # Where the team is known to be every thread of the block: a C++ constant expression
        # ("true", or "__whole_block", the template parameter of a work function that its SPMD
        # fork site instantiates for both cases); None elsewhere. Barriers then use barrier 0.
        self.whole_block: str | None = None
        # The CUDA block size as a C expression: a constant where thread_limit clauses fix it
        # (constant strides and barrier counts let nvcc unroll and fold), else blockDim.x.
        self.block = f"{plan.exact_threads}u" if plan is not None and plan.exact_threads > 0 else "blockDim.x"
        self.owner = owner
        self.env = env.child()
        self.master = master  # code that a team's master may run (forks, soft stack)
        self.escaping: set[int] = set()  # id(decl) of locals that live on the soft stack
        self.allocate_alignments: dict[int, str] = {}  # id(decl) -> the align(n) of an allocate directive naming it
        self.in_global_memory: set[int] = set()  # of those, the ones kept in global memory
        self.called: set[str] = set()
        self.in_region = 0
        self.last_line: tuple[str, int] | None = None  # the last `#line` this emitter wrote
        # Names shared in the enclosing context (a task writing one writes the original): what
        # the enclosing parallel region shares.
        self.task_shared: set[str] = set()
        # The combined loop of an SPMD `distribute parallel for` whose iterations the whole grid
        # shares (see worksharing.distribute): every team gets the whole range, the loop deals it out.
        self.grid_loop = False
        # The kernel's distribute loop and its region's loop, in a kernel whose inner loops are
        # spread across the grid (KernelPlan.spread): loop.j2 deals them over several blocks.
        self.spread = master and plan is not None and plan.spread
        # Of such a loop whose iterations are tiles (footprint.py): the bytes of cache one
        # iteration touches; the loop then keeps about L2 / that many threads busy.
        self.grid_tile_bytes: int | None = None
        # this kernel is a grid loop of long iterations (footprint.py): latency-bound, it may run
        # faster with more resident teams than ptxas leaves room for on its own
        self.long_grid_loop = False
        # lastprivate(conditional:) items of the loop whose body is being printed: C name ->
        # (the item's symbol there, the variable that records the iteration of its last store,
        # the variable holding the current iteration)
        self.conditional_stores: dict[str, tuple[Symbol | None, str, str]] = {}
        # id() of the worksharing loop that ends the parallel region this code belongs to:
        # the region's end synchronizes the team, so the loop's own barrier is left out
        self.region_tail: int | None = None
        # if/switch statements around the code being printed, within this function: a barrier
        # outside all of them is executed by every thread of the team at the same instruction
        self.branch_depth = 0
        # this code runs in a team whose thread numbers are threadIdx.x (a team-level region of
        # a kernel, always forked: SPMD, or generic workers 0..T-1), its size maybe unknown
        self.thread_num_known = False
        # Team-shared scalars that loops of a region may keep in a register (shared_scalars.py):
        # id() of the declarations that qualify, and those held in one in the loop being printed
        # (name -> its symbol, the register variable)
        self.register_candidates: frozenset[int] = frozenset()
        # id() of the declarations of the kernel's by-value parameters that it never assigns nor
        # takes the address of (see parallel.WorkFunction.param_fields)
        self.unchanged_params: frozenset[int] = frozenset()
        self.in_register: dict[str, tuple[Symbol, str]] = {}
        self.member_names: set[int] = set()  # id() of the member-name IDs of the member access being printed

    # -- entry points -----------------------------------------------------------
    def prototype(self, fn: c_ast.FuncDef, extern: bool = False) -> str:
        d = copy.copy(fn.decl)
        d.storage = [s for s in (d.storage or []) if s not in ("extern",)]
        d.funcspec = [s for s in (d.funcspec or []) if s != "inline"]
        return ("extern " if extern else "") + "OMPGPU_DEVICE " + self.visit(d) + ";"

    def function(self, fn: c_ast.FuncDef) -> str:
        params = param_decls(fn)
        for p in params:
            declare(self.env, p, is_param=True)
        if self.master:
            self.escaping, self.in_global_memory = data_sharing.escaping_locals(fn.body, self.env)
        promoted = [p for p in params if id(p) in self.escaping]
        d = copy.deepcopy(fn.decl)
        d.funcspec = [s for s in (d.funcspec or []) if s != "inline"]
        d.storage = [s for s in (d.storage or []) if s not in ("extern",)]
        for p in param_decls(c_ast.FuncDef(d, None, None)):
            if p.name in {q.name for q in promoted}:
                set_declname(p.type, p.name + "__param")
        head = "OMPGPU_DEVICE " + self.visit(d)
        body = self.visit(fn.body)
        if promoted:
            lines = [render("promote.j2", type=type_string(p.type), name=cxx_name(p.name), array=False) for p in promoted]
            body = "{\n" + "".join(lines) + body + "}\n"
        return head + "\n" + body

    def render_with_ids(self, template: str, **context) -> str:
        """A template of code that names the thread's place in its team (see TeamIds)."""
        return render(template, ids=self.ids, **context)

    def on_master_stack(self) -> bool:
        """Whether code here runs on a generic kernel's master, whose locals a parallel region
        cannot reach (they must live on the soft stack to be shared)."""
        return self.master and not self.spmd and self.in_region == 0

    def declared_symbol(self, name: str) -> Symbol | None:
        """The symbol of `name` with its type as declared: a kernel sees a captured array as a
        pointer to its first element (kernel_scope); the scope outside it keeps the array."""
        found = None
        for scope in reversed(self.env.scopes):
            sym = scope.get(name)
            if sym is None:
                continue
            if found is None:
                found = sym
            elif getattr(sym.decl, "coord", None) is not getattr(found.decl, "coord", None):
                break  # another variable of the same name
            if is_array(resolve_typedef(sym.type, self.env)):
                return sym
        return found

    def _conditional_store(self, target: c_ast.Node, text: str) -> str:
        """A store to a lastprivate(conditional:) item (an assignment, ++ or --) also records
        the iteration that made it: the item's final value is the one of the sequentially last
        iteration that stored to it."""
        if self.conditional_stores and isinstance(target, c_ast.ID):
            entry = self.conditional_stores.get(cxx_name(target.name))
            if entry is not None and self.env.lookup(target.name) is entry[0]:
                return f"({entry[1]} = {entry[2]}, {text})"
        return text

    def visit_Assignment(self, n):
        reg = self._register_of(n.lvalue)
        if reg is not None:  # write-through: the register and the variable
            return f"({cxx_name(n.lvalue.name)} = ({reg} {n.op} ({self.visit(n.rvalue)})))"
        return self._conditional_store(n.lvalue, super().visit_Assignment(n))

    def visit_UnaryOp(self, n):
        reg = self._register_of(n.expr) if n.op in ("++", "--", "p++", "p--") else None
        if reg is not None:
            mem = cxx_name(n.expr.name)
            if n.op in ("++", "--"):
                return f"({mem} = {n.op}{reg})"
            return f"ompgpu_store_through_post{'inc' if n.op == 'p++' else 'dec'}({mem}, {reg})"
        text = super().visit_UnaryOp(n)
        return self._conditional_store(n.expr, text) if n.op in ("++", "--", "p++", "p--") else text

    # -- team-shared scalars in registers (shared_scalars.py) -------------------------
    def visit_ID(self, n):
        reg = self._register_of(n)
        return reg if reg is not None else super().visit_ID(n)

    def visit_StructRef(self, n):
        # a member's name is an ID too: never a variable held in a register
        self.member_names.add(id(n.field))
        try:
            return super().visit_StructRef(n)
        finally:
            self.member_names.discard(id(n.field))

    def _register_of(self, n: c_ast.Node) -> str | None:
        """The register holding the variable that n names here, if a loop holds one."""
        if not isinstance(n, c_ast.ID) or id(n) in self.member_names:
            return None
        entry = self.in_register.get(n.name)
        return entry[1] if entry is not None and self.env.lookup(n.name) is entry[0] else None

    def line_marker(self, n: c_ast.Node) -> str:
        """`#line` before each statement of the user's code: nvcc's -lineinfo, compute-sanitizer
        and the emulator's fault reports then name the user's file and line."""
        c = getattr(n, "coord", None)
        if c is None or isinstance(n, OmpConstruct):
            return ""
        where = self.g.p.bound.pre.user_coord(c.line, c.column)
        if where.file in self.g.p.bound.pre.system_files or (where.file, where.line) == self.last_line:
            return ""
        self.last_line = (where.file, where.line)
        return line_directive(where.line, where.file) + "\n"

    # -- scopes ---------------------------------------------------------------------
    def visit_Compound(self, n):
        self._allocate_alignments(n.block_items or [])
        saved, self.env = self.env, self.env.child()
        guarded = self.plan.guarded if self.spmd and self.in_region == 0 else frozenset()
        if any(id(item) in guarded for item in n.block_items or []):
            text = data_sharing.compound_with_guards(self, n.block_items, guarded)
        else:
            text = super().visit_Compound(n)
        self.env = saved
        return text

    def _allocate_alignments(self, items) -> None:
        """The declarations of a block that an allocate directive after them aligns (OpenMP 5.1
        align clause): visit_Decl gives them that alignment."""
        for k, node in enumerate(items):
            if isinstance(node, OmpConstruct) and node.directive.name == "allocate":
                align = next((c.align.text for c in node.directive.clauses if c.align is not None), None)
                if align is None:
                    continue
                names = {item.name for item in node.directive.items}
                for decl in items[:k]:
                    if isinstance(decl, c_ast.Decl) and decl.name in names:
                        self.allocate_alignments[id(decl)] = align

    def visit_If(self, n):
        self.branch_depth += 1
        try:
            return super().visit_If(n)
        finally:
            self.branch_depth -= 1

    def visit_Switch(self, n):
        self.branch_depth += 1
        try:
            return super().visit_Switch(n)
        finally:
            self.branch_depth -= 1

    def aligned(self) -> bool:
        """Whether a team barrier printed here is reached by every thread of a team whose size
        the compiler knows at this very instruction: inside a parallel region's work function,
        under no if/switch of it (OpenMP has every thread of the team meet the same barriers, so
        loops around it run alike on all of them)."""
        return self.team_size is not None and self.in_region > 0 and self.branch_depth == 0

    def visit_For(self, n):
        return data_sharing.held_loop(self, n, self._scoped_for)

    def _scoped_for(self, n):
        saved, self.env = self.env, self.env.child()
        text = super().visit_For(n)
        self.env = saved
        return text

    def visit_While(self, n):
        return data_sharing.held_loop(self, n, super().visit_While)

    def visit_DoWhile(self, n):
        return data_sharing.held_loop(self, n, super().visit_DoWhile)

    def visit_FuncCall(self, n):
        if isinstance(n.name, c_ast.ID):
            name = n.name.name
            sym = self.env.lookup(name)
            if sym is None or sym.kind == "func":
                if name in self.g.p.functions:
                    self.called.add(name)
                elif name in self.g.external_decls:
                    self.g.external_calls.add(name)
                elif name in HOST_ONLY_API:
                    raise UnsupportedError(f"'{name}' cannot be called in a target region: {HOST_ONLY_API[name]}",
                                           self.user_coord(n))
                elif name.startswith("omp_") and name not in OMP_DEVICE_API:
                    raise UnsupportedError(f"'{name}' is not an OpenMP routine that device code can call", self.user_coord(n))
                elif name not in DEVICE_LIBRARY and name not in OMP_DEVICE_API and not name.startswith("__builtin"):
                    raise UnsupportedError(f"function '{name}' is called in device code but has no definition in this file",
                                           self.user_coord(n), notes=(f"to call a '{name}' defined in another file or a library, "
                                                                   "declare it inside '#pragma omp declare target'",))
                position = self.team_position(name) if name not in self.g.p.functions else None
                if position is not None:
                    return position
                return super().visit_FuncCall(n)
        # A call through a function pointer: the pointer may hold the host's address of a
        # `declare target indirect` function (OpenMP 5.1), which the device's table translates.
        self.g.indirect_calls = True
        args = self.visit(n.args) if n.args is not None else ""
        return f"ompgpu_indirect_callee({self.visit(n.name)})({args})"

    def team_position(self, name: str) -> str | None:
        """omp_get_thread_num() and omp_get_num_threads() in the code of a team-level region of an
        SPMD kernel: its team is the block's first team_size threads (or a packed team), as the
        compiler's own schedules take it (team.j2 team_thread), so the thread's number and the
        team's size are known without the team's state. A loop that a program strides by them
        then has a constant step: imghisto's counting loop ran 0.035-0.045 ms against 0.089-0.097
        through the state (session 18 run 7, H200). None elsewhere (nested regions, device
        functions, generic mode: the runtime's answer)."""
        if not (self.spmd and self.team_size):
            return None
        if name == "omp_get_thread_num":
            return f"((int){self.ids.thread})"
        if name == "omp_get_num_threads":
            return f"((int)({self.team_size}))"
        return None

    def visit_Typedef(self, n):
        return "" if id(n) in self.g.hoisted else super().visit_Typedef(n)

    def visit_Decl(self, n, no_type=False):
        if no_type:
            return super().visit_Decl(n, no_type)
        if id(n) in self.g.hoisted:  # a type definition that moved to namespace scope
            return ""
        is_esc = id(n) in self.escaping and self.in_region == 0
        declare(self.env, n)
        shared = self.spmd and self.in_region == 0 and id(n) in self.plan.team_shared
        if id(n) in self.allocate_alignments:
            if is_esc or shared:
                raise UnsupportedError(f"align of an allocate directive for '{n.name}', which a parallel region "
                                       "shares, is not supported yet", self.user_coord(n))
            return f"OMPGPU_ALIGN({self.allocate_alignments[id(n)]}) " + super().visit_Decl(n)
        if shared:
            return data_sharing.team_var(self, n).rstrip().rstrip(";")
        if not is_esc:
            if n.init is not None and is_alloc_call(n.init) and is_pointer(n.type):
                d = copy.copy(n)
                d.init = c_ast.Cast(c_ast.Typename(None, [], None, named(n.type, None)), n.init)
                return super().visit_Decl(d)
            return super().visit_Decl(n)
        # A master variable that a parallel region shares: globally addressable storage.
        if n.init is not None:
            init = self.visit(n.init) if not isinstance(n.init, c_ast.InitList) else "{" + self.visit(n.init) + "}"
        else:
            init = None
        return render("stack_var.j2", type=type_string(n.type), name=cxx_name(n.name), init=init,
                      init_decl=type_string(n.type, cxx_name(n.name) + "__init"),
                      in_global_memory=id(n) in self.in_global_memory,
                      alias=True, is_array=is_array(n.type) or isinstance(n.init, c_ast.InitList)).rstrip().rstrip(";")

    # -- OpenMP constructs ----------------------------------------------------------------
    def user_coord(self, n) -> SourceCoord:
        return self.g.user_coord(n)

    def visit_OmpConstruct(self, n: OmpConstruct) -> str:
        d = n.directive
        note_location(d.coord)
        leaf = d.leaves[0]
        if d.name in DEVICE_UNSUPPORTED or leaf in DEVICE_UNSUPPORTED:
            raise UnsupportedError(f"{DEVICE_UNSUPPORTED.get(d.name) or DEVICE_UNSUPPORTED[leaf]} is not supported yet", d.coord)
        check_device_clauses(d)
        if d.name == "allocate":
            return ""  # the variables live where locals live (check_device_clauses says which allocators)
        if d.name in ("nothing", "assumes", "begin assumes", "end assumes"):
            return ""
        if d.name == "assume":   # assumptions are hints: the block as it is
            return self.stmt_text(n.body)
        if d.name == "error":
            return sync.error_directive(self, d)
        if leaf == "target":
            raise UnsupportedError("a 'target' construct inside device code is not supported", d.coord)
        if d.name in ("target update", "target enter data", "target exit data", "target data"):
            raise UnsupportedError(f"'{d.name}' inside device code is not supported", d.coord)
        if leaf == "teams":
            if self.plan is None:  # a function that device code calls: a host teams region there
                raise OmpSemanticError("a 'teams' construct in a function called from a target region is not allowed: "
                                       "teams must be closely nested in the target construct", d.coord)
            rest = d.leaves[1:]
            if not rest:
                return data_sharing.privatize(self, d, self.stmt_text(n.body))
            return self.visit_OmpConstruct(OmpConstruct(dataclasses.replace(d, name=" ".join(rest)), n.body, n.coord))
        if leaf in ("simd",):
            return worksharing.simd(self, n)
        if leaf == "loop":
            return worksharing.loop_construct(self, n)
        if leaf == "distribute":
            return worksharing.distribute(self, n)
        if leaf == "parallel":
            return parallel.parallel(self, n)
        if leaf == "for":
            return worksharing.workshare_for(self, n, d)
        if leaf in ("barrier",):
            return sync.barrier(self)
        if leaf == "flush":
            return sync.flush(self)
        if leaf in ("task", "taskloop", "taskgroup"):
            return tasks.task(self, n)
        if leaf in ("taskwait", "taskyield", "depobj", "scan"):
            # scan: a loop run by one thread in order (simd) needs no phases (see reductions.scan_loop)
            # depobj: a dependence object only ever orders device tasks, which run at once
            return self.render_with_ids("stmt.j2", kind="nothing", what=d.name)
        if leaf == "single":
            return sync.single(self, n)
        if leaf in ("master", "masked"):
            return sync.master(self, n)
        if leaf == "critical":
            return sync.critical(self, n)
        if leaf == "atomic":
            return sync.atomic(self, n)
        if leaf == "sections":
            return worksharing.sections(self, n)
        if leaf == "scope":
            return worksharing.scope(self, n)
        if leaf == "section":
            return self.stmt_text(n.body)
        if d.name in ("declare target", "end declare target"):
            return ""
        raise UnsupportedError(f"'#pragma omp {d.name}' in device code is not supported yet", d.coord)

    @contextlib.contextmanager
    def child_scope(self):
        """Names declared while the block runs (loop variables, a nest's locals) are known to the
        printing inside it and forgotten after."""
        saved, self.env = self.env, self.env.child()
        try:
            yield self
        finally:
            self.env = saved

    def region_emitter(self) -> Emitter:
        """A fresh Emitter for the body of a work function outlined from code printed here
        (parallel.outline sets what the region's code knows)."""
        return Emitter(self.g, self.owner, self.env, master=False, plan=self.plan)

    def inner_construct(self, n: OmpConstruct, range_from: tuple[str, str] | None) -> str:
        """The construct combined under `parallel` (for, sections, ...), inside the work function."""
        leaf = n.directive.leaves[0]
        if leaf == "loop" and loop_binding(n.directive, in_parallel=True) != "parallel":
            return worksharing.loop_construct(self, n, in_parallel=True)  # bind(thread): every thread's own loop
        if leaf in ("for", "loop"):
            return worksharing.workshare_for(self, n, dataclasses.replace(n.directive, name="for"), range_from=range_from,
                                             combined=True)
        return self.visit_OmpConstruct(n)

    def stmt_text(self, body) -> str:
        if body is None:
            return ";\n"
        if isinstance(body, c_ast.Compound):
            return self.visit(body)
        return "{\n" + self.statement(body) + "}\n"


def is_alloc_call(n) -> bool:
    return isinstance(n, c_ast.FuncCall) and isinstance(n.name, c_ast.ID) and n.name.name in ("malloc", "calloc", "realloc")
