"""What calling the compiled C function does on the Python side, as frozen IR.

`build_plan` checks that the named function's body is made only of what Python can run
and turns it into a sequence of steps:

- `Declare`: a local scalar (`double sum = 0;`), its initialiser a C expression over the
  parameters and earlier locals (or none);
- `Target`: a target region: its map entries, kernel arguments, clause expressions and
  launch defaults (the same kernel descriptor `ompgpu cc` puts in the host code);
- `Data`: `target data` (with its body), `target enter data`, `target exit data`,
  `target update`;
- `Return`: the last statement, `return expr;` (a scalar) or `return;`.

Anything else in the function's own body (loops, calls, assignments, `if`) is host code
that Python cannot run: it is an error at the statement, with a note saying what is
allowed. Target regions, device functions and types elsewhere in the source compile as
usual; only the named function is called.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from pycparser import c_ast
from pycparser.c_parser import CParser

from ompgpu.analysis.symbols import Env, Symbol, declare, is_pointer, param_decls, resolve_typedef
from ompgpu.errors import OmpgpuError, SourceCoord, UnsupportedError
from ompgpu.outliner.outline import Kernel, Program, struct_member_map, target_kind
from ompgpu.parser.bind import OmpConstruct
from ompgpu.parser.directives import CExpr, Directive, ListItem
from ompgpu.python_api import cexpr
from ompgpu.python_api.ctypes_model import LONG, ScalarType, is_void, pointee_type, scalar_type

# Map-entry flags (the host runtime's OMPGPU_MAP_* bits, same meaning).
MAP_TO, MAP_FROM, MAP_ALWAYS, MAP_DELETE = 0x001, 0x002, 0x004, 0x008
MAP_PTR, MAP_ARG, MAP_IMPLICIT, MAP_RELEASE, MAP_PRESENT = 0x010, 0x040, 0x080, 0x100, 0x200
_TYPE_FLAGS = {"to": MAP_TO, "from": MAP_FROM, "tofrom": MAP_TO | MAP_FROM, "alloc": 0, "release": MAP_RELEASE,
               "delete": MAP_DELETE, "": 0}
_MODIFIER_FLAGS = {"always": MAP_ALWAYS, "present": MAP_PRESENT}

ALLOWED = ("the function body may hold only declarations of scalar locals, target constructs "
           "(target, target data, target enter/exit data, target update) and a final 'return'")


@dataclass(frozen=True)
class Param:
    name: str
    kind: str  # 'scalar' | 'pointer'
    type: ScalarType | None  # the scalar's type, or the pointer's element type (None: void *)
    c_type: str  # as declared, for messages


@dataclass(frozen=True)
class MapItem:
    """One map entry: variable `name`, optionally a section [lower : length] (elements)."""

    name: str
    text: str  # as written, for messages and OMPGPU_INFO
    flags: int
    lower: cexpr.Expr | None
    length: cexpr.Expr | None  # None with a section: up to the end of the array
    section: bool
    coord: SourceCoord


@dataclass(frozen=True)
class KernelArg:
    name: str
    how: str  # 'literal' | 'pointer' | 'attach' | 'object' (outliner's Capture.how)
    type: ScalarType | None  # literal/object: the value's type; pointer/attach: element type
    map_index: int  # index of its MapItem for 'pointer' / 'object', else -1


@dataclass(frozen=True)
class Target:
    kernel: str
    coord: SourceCoord
    mode: int  # 0 generic, 1 spmd (the host runtime's OMPGPU_MODE_*)
    default_threads: int
    max_threads: int
    static_teams: int
    num_teams: cexpr.Expr | None
    thread_limit: cexpr.Expr | None
    if_cond: cexpr.Expr | None
    device: cexpr.Expr | None
    maps: tuple[MapItem, ...]
    args: tuple[KernelArg, ...]
    num_threads: cexpr.Expr | None = None  # SPMD: the combined region's num_threads is the block size


@dataclass(frozen=True)
class Data:
    construct: str  # 'target data' | 'target enter data' | 'target exit data' | 'target update'
    coord: SourceCoord
    if_cond: cexpr.Expr | None
    device: cexpr.Expr | None
    maps: tuple[MapItem, ...]
    use_device_ptr: tuple[str, ...]
    body: tuple["Step", ...]


@dataclass(frozen=True)
class Declare:
    name: str
    type: ScalarType
    init: cexpr.Expr | None


@dataclass(frozen=True)
class Return:
    value: cexpr.Expr | None


Step = Target | Data | Declare | Return


@dataclass(frozen=True)
class FunctionPlan:
    name: str
    params: tuple[Param, ...]
    result: ScalarType | None
    steps: tuple[Step, ...]
    kernels: tuple[str, ...]  # every kernel the function launches


def build_plan(program: Program, kernel_names: dict[int, str], name: str, fix_coord,
               kernel_modes: dict[int, str] | None = None, kernel_max_threads: dict[int, int] | None = None) -> FunctionPlan:
    fn = program.functions.get(name)
    if fn is None:
        known = ", ".join(sorted(program.functions)) or "none"
        raise OmpgpuError(f"no function named '{name}' in the source (functions defined: {known})")
    return _PlanBuilder(program, kernel_names, fn, fix_coord, kernel_modes or {}, kernel_max_threads or {}).run()


class _PlanBuilder:
    def __init__(self, program: Program, kernel_names: dict[int, str], fn: c_ast.FuncDef, fix_coord,
                 kernel_modes: dict[int, str], kernel_max_threads: dict[int, int]):
        self.p, self.names, self.fn, self.fix = program, kernel_names, fn, fix_coord
        self.modes = kernel_modes
        self.max_threads = kernel_max_threads
        self.kernels = {id(k.construct): k for k in program.kernels}
        self.env = program.globals_env.child()
        self.launched: list[str] = []

    def coord(self, node) -> SourceCoord:
        c = node.coord
        return self.p.bound.pre.user_coord(c.line, c.column)

    def run(self) -> FunctionPlan:
        params = []
        for p in param_decls(self.fn):
            declare(self.env, p, is_param=True)
            st = scalar_type(p.type, self.env)
            if st is not None:
                params.append(Param(p.name, "scalar", st, st.c_name))
                continue
            kind, elem = pointee_type(p.type, self.env)
            if kind == "pointer":
                params.append(Param(p.name, "pointer", elem, (elem.c_name if elem else "void") + " *"))
                continue
            raise UnsupportedError(f"parameter '{p.name}' of '{self.fn.decl.name}' cannot be passed from Python: "
                                   "parameters must be arithmetic scalars or pointers to them", self.coord(p))
        ftype = self.fn.decl.type
        result = None
        if not is_void(ftype.type, self.env):
            result = scalar_type(ftype.type, self.env)
            if result is None:
                raise UnsupportedError(f"'{self.fn.decl.name}' must return void or an arithmetic type to be called "
                                       "from Python", self.coord(self.fn.decl))
        steps = self.block(self.fn.body.block_items or [], top=True)
        return FunctionPlan(self.fn.decl.name, tuple(params), result, steps, tuple(self.launched))

    # -- statements ---------------------------------------------------------------
    def block(self, items: list, top: bool = False) -> tuple[Step, ...]:
        out: list[Step] = []
        for i, s in enumerate(items):
            last = top and i == len(items) - 1
            out += self.statement(s, last)
        return tuple(out)

    def statement(self, s, last: bool) -> list[Step]:
        if isinstance(s, c_ast.EmptyStatement):
            return []
        if isinstance(s, c_ast.Decl):
            return [self.declaration(s)]
        if isinstance(s, c_ast.Compound):
            saved, self.env = self.env, self.env.child()
            steps = list(self.block(s.block_items or []))
            self.env = saved
            return steps
        if isinstance(s, c_ast.Return):
            if not last:
                raise self.host_code(s, "'return' must be the last statement")
            if s.expr is None:
                return [Return(None)]
            return [Return(self.expr_node(s.expr, self.coord(s.expr), "the returned value"))]
        if isinstance(s, OmpConstruct):
            kind = target_kind(s.directive)
            if kind == "kernel":
                return [self.target(self.kernels[id(s)])]
            if kind == "data":
                return [self.data(s)]
            raise self.host_code(s, f"'#pragma omp {s.directive.name}' runs on the host")
        raise self.host_code(s, "this statement is host code")

    def host_code(self, s, why: str) -> UnsupportedError:
        coord = s.directive.coord if isinstance(s, OmpConstruct) else self.coord(s)
        return UnsupportedError(f"{why}; ompgpu.compile cannot run host code of '{self.fn.decl.name}' from Python",
                                self.fix(coord), notes=(ALLOWED,))

    def declaration(self, d: c_ast.Decl) -> Step:
        st = scalar_type(d.type, self.env)
        if st is None or (d.storage and "static" in d.storage):
            raise self.host_code(d, f"local '{d.name}' is not a (non-static) arithmetic scalar")
        init = None
        if d.init is not None:
            init = self.expr_node(d.init, self.coord(d.init), f"initialiser of '{d.name}'")
        declare(self.env, d)
        return Declare(d.name, st, init)

    # -- expressions ----------------------------------------------------------------
    def expr_node(self, node, coord: SourceCoord, what: str) -> cexpr.Expr:
        return cexpr.build(node, self.env, self.fix(coord), what)

    def expr_text(self, e: CExpr | None, what: str, env: Env | None = None) -> cexpr.Expr | None:
        if e is None:
            return None
        env = env or self.env
        typedefs = [w for w in set(re.findall(r"[A-Za-z_]\w*", e.text))
                    if (sym := env.lookup(w)) is not None and sym.kind == "typedef"]
        prelude = "".join(f"typedef int {t};" for t in typedefs)
        try:
            ast = CParser().parse(f"{prelude} void __ompgpu_expr(void) {{ ({e.text}); }}")
        except Exception:  # noqa: BLE001 - pycparser's ParseError: the front end accepted it, so it is exotic
            raise UnsupportedError(f"{what}: '{e.text}' cannot be evaluated in Python", self.fix(e.coord)) from None
        node = ast.ext[-1].body.block_items[0]
        return cexpr.build(node, env, self.fix(e.coord), what)

    # -- target constructs ------------------------------------------------------------
    def var(self, name: str, coord: SourceCoord) -> Symbol:
        sym = self.env.lookup(name)
        if sym is None or sym.kind != "var":
            raise UnsupportedError(f"'{name}' is not a variable of '{self.fn.decl.name}'", self.fix(coord))
        if sym.is_global:
            if name in self.p.bound.declare_target:
                raise UnsupportedError(f"'declare target' variable '{name}' has no host copy on the Python side; "
                                       "it can be used in target regions but not mapped or updated", self.fix(coord))
            raise UnsupportedError(f"global variable '{name}' is used by a target construct; from Python only the "
                                   f"parameters and locals of '{self.fn.decl.name}' (and 'declare target' globals "
                                   "inside regions) are available: pass it as a parameter", self.fix(coord))
        return sym

    def map_item(self, item: ListItem, flags: int, what: str) -> MapItem:
        if item.members:
            raise UnsupportedError(f"mapping a struct member ('{item.text}') is not supported from Python", self.fix(item.coord))
        sym = self.var(item.name, item.coord)
        pointerish = pointee_type(sym.type, self.env)[0] == "pointer"
        if not pointerish and scalar_type(sym.type, self.env) is None:
            raise UnsupportedError(f"'{item.name}' is neither a scalar nor a pointer to scalars", self.fix(item.coord))
        if not item.sections:
            return MapItem(item.name, item.text, flags | (MAP_PTR if pointerish else 0), None, None, False, self.fix(item.coord))
        if not pointerish:
            raise UnsupportedError(f"array section of scalar '{item.name}'", self.fix(item.coord))
        if len(item.sections) > 1:
            raise UnsupportedError(f"multi-dimensional section '{item.text}' is not supported from Python; map a "
                                   "flat pointer", self.fix(item.coord))
        sec = item.sections[0]
        lower = self.expr_text(sec.lower, f"lower bound of '{item.text}'") if sec.lower is not None else cexpr.Const(0, LONG)
        length = cexpr.Const(1, LONG) if not sec.is_range else self.expr_text(sec.length, f"length of '{item.text}'")
        return MapItem(item.name, item.text, flags | MAP_PTR, lower, length, True, self.fix(item.coord))

    def clause_expr(self, d: Directive | None, kind: str) -> cexpr.Expr | None:
        if d is None:
            return None
        c = d.clause(kind)
        return self.expr_text(getattr(c, "expr", None), f"'{kind}' clause") if c is not None else None

    def if_expr(self, d: Directive, modifiers: tuple[str, ...]) -> cexpr.Expr | None:
        for c in d.clauses_of("if"):
            if c.modifier is None or c.modifier in modifiers:
                return self.expr_text(c.expr, "'if' clause")
        return None

    def target(self, k: Kernel) -> Target:
        from ompgpu.codegen.host import _kernel_desc  # the descriptor `ompgpu cc` emits: same launch defaults

        d = k.construct.directive
        kname = self.names[id(k)]
        mode = self.modes.get(id(k), "generic")
        desc = _kernel_desc(k, kname, "cuda", mode, self.max_threads.get(id(k), 1024))
        mods: dict[str, tuple[str, ...]] = {}
        for c in d.clauses_of("map"):
            for item in c.items:
                mods[item.name] = c.modifiers
        maps: list[MapItem] = []
        args: list[KernelArg] = []
        used = set()
        for cap in k.captures:
            used.add(cap.name)
            if cap.sym.is_global:
                self.var(cap.name, k.coord)  # raises: a global the Python side cannot provide
            implicit = MAP_IMPLICIT if cap.implicit else 0
            t = resolve_typedef(cap.sym.type, k.env)
            if cap.how in ("literal", "attach"):
                st = scalar_type(t, k.env)
                kind, elem = pointee_type(t, k.env)
                if st is None and kind != "pointer":
                    raise UnsupportedError(f"'{cap.name}' (not a scalar or a pointer to scalars) cannot be passed "
                                           "to a target region from Python", self.fix(k.coord))
                args.append(KernelArg(cap.name, "literal" if st is not None else cap.how, st or elem, -1))
                continue
            flags = _TYPE_FLAGS.get(cap.map_type, 0) | MAP_ARG | implicit
            flags |= sum(_MODIFIER_FLAGS.get(m, 0) for m in mods.get(cap.name, ()))
            if cap.how == "pointer":
                if not is_pointer(t):
                    raise UnsupportedError(f"array '{cap.name}' has no length the Python side knows: map a section "
                                           f"of it ({cap.name}[0:n]) or declare it as a pointer", self.fix(k.coord))
                item = cap.item or ListItem(cap.name, (), (), cap.name, k.coord)
                maps.append(self.map_item(item, flags, "map"))
                args.append(KernelArg(cap.name, "pointer", pointee_type(t, k.env)[1], len(maps) - 1))
            else:  # object: a mapped scalar, passed by reference
                st = scalar_type(t, k.env)
                if st is None:
                    raise UnsupportedError(f"'{cap.name}' is mapped by reference but is not a scalar; not supported "
                                           "from Python", self.fix(k.coord))
                item = cap.item or ListItem(cap.name, (), (), cap.name, k.coord)
                if item.members:
                    raise UnsupportedError(f"struct member map '{item.text}' is not supported from Python", self.fix(item.coord))
                maps.append(self.map_item(item, flags, "map"))
                args.append(KernelArg(cap.name, "object", st, len(maps) - 1))
        # Mapped items that the region does not use still move data.
        for c in d.clauses_of("map"):
            for item in c.items:
                if item.name not in used:
                    flags = _TYPE_FLAGS.get(c.map_type, 0) | sum(_MODIFIER_FLAGS.get(m, 0) for m in c.modifiers)
                    maps.append(self.map_item(item, flags, "map"))
        teams = k.teams
        thread_limit = self.clause_expr(teams, "thread_limit") or self.clause_expr(d, "thread_limit")
        self.launched.append(kname)
        return Target(kname, self.fix(k.coord), 1 if desc["mode"] == "OMPGPU_MODE_SPMD" else 0,
                      int(desc["default_threads"]), int(desc.get("max_threads", 1024)), int(desc["static_teams"]),
                      self.clause_expr(teams, "num_teams"), thread_limit, self.if_expr(d, ("target",)),
                      self.clause_expr(d, "device"), tuple(maps), tuple(args),
                      self.clause_expr(d, "num_threads") if mode == "spmd" else None)

    def data(self, s: OmpConstruct) -> Data:
        d = s.directive
        maps: list[MapItem] = []
        for c in d.clauses:
            if c.kind == "map":
                mtype = c.map_type
                for item in c.items:
                    if item.members:
                        mtype = struct_member_map(item, c.map_type, None)
                    flags = _TYPE_FLAGS.get(mtype, 0) | sum(_MODIFIER_FLAGS.get(m, 0) for m in c.modifiers)
                    maps.append(self.map_item(item, flags, "map"))
            elif c.kind in ("to", "from") and d.name == "target update":
                for item in c.items:
                    flags = (MAP_TO if c.kind == "to" else MAP_FROM) | sum(_MODIFIER_FLAGS.get(m, 0) for m in c.modifiers)
                    maps.append(self.map_item(item, flags, c.kind))
        udp = tuple(item.name for c in d.clauses if c.kind in ("use_device_ptr", "use_device_addr") for item in c.items)
        for name in udp:
            sym = self.var(name, d.coord)
            if pointee_type(sym.type, self.env)[0] != "pointer":
                raise UnsupportedError(f"use_device_ptr/use_device_addr of '{name}': only pointers are supported from "
                                       "Python", self.fix(d.coord))
        body: tuple[Step, ...] = ()
        if d.name == "target data" and s.body is not None:
            saved, self.env = self.env, self.env.child()
            inner = s.body.block_items if isinstance(s.body, c_ast.Compound) else [s.body]
            body = self.block(inner or [])
            self.env = saved
            if any(isinstance(b, Return) for b in body):
                raise self.host_code(s, "'return' inside 'target data'")
        mods = ("target data", "target enter data", "target exit data", "target update")
        return Data(d.name, self.fix(d.coord), self.if_expr(d, mods), self.clause_expr(d, "device"), tuple(maps), udp, body)
