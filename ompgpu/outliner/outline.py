"""Outliner: target regions become kernels with classified captures; parallel regions get
their data-sharing classification.

`outline(bound)` walks every function, finds the host-level constructs (target regions
and the data constructs), and returns a `Program`: the kernels with what each captures
and how (by value, as a translated pointer, or as a mapped object), plus the device
functions and globals the kernels reach. `region_sharing` classifies the variables of one
parallel region; the code generator uses it both to outline the region and, beforehand,
to find which master variables must live on the soft stack.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field

from pycparser import c_ast

from ompgpu.analysis.symbols import (Env, ScopedVisitor, Symbol, array_bytes, constant_dims, decay, declare, is_aggregate, is_array,
                                     is_pointer, param_decls, region_uses, resolve_typedef)
from ompgpu.errors import OmpSemanticError, SourceCoord, UnsupportedError, note_location
from ompgpu.parser.bind import BoundUnit, OmpConstruct, collapse_depth, loop_var_names
from ompgpu.parser.cfront import sole_statement
from ompgpu.parser.directives import Directive, ListItem

HOST_DATA_CONSTRUCTS = frozenset({"target data", "target enter data", "target exit data", "target update"})
DEVICE_UNSUPPORTED = {
    "ordered": "'ordered' inside a target region",
    "cancel": "'cancel' inside a target region", "cancellation point": "'cancellation point' inside a target region",
    "threadprivate": "'threadprivate' inside a target region",
}


# OpenMP's predefined memory allocators. Where device code names one (allocate clause or
# directive, uses_allocators), the variables it places are the device code's ordinary
# private or local storage: every predefined allocator's traits (default alignment, fallback
# to default memory) hold for that storage, so the program cannot tell the difference.
PREDEFINED_ALLOCATORS = frozenset({
    "omp_null_allocator", "omp_default_mem_alloc", "omp_large_cap_mem_alloc", "omp_const_mem_alloc",
    "omp_high_bw_mem_alloc", "omp_low_lat_mem_alloc", "omp_cgroup_mem_alloc", "omp_pteam_mem_alloc",
    "omp_thread_mem_alloc",
})


def check_device_clauses(d) -> None:
    """Clauses of a construct in device code that are supported only in part: the allocate
    clauses and directive and uses_allocators (predefined allocators without an alignment),
    lastprivate(conditional:) on for, simd and loop (not with distribute, which OpenMP 5.2
    forbids, nor with nowait or taskloop). Anything else is an error naming it."""
    for c in d.clauses:
        if c.kind == "lastprivate" and c.modifier == "conditional":
            if "distribute" in d.leaves or "taskloop" in d.leaves:
                raise UnsupportedError(f"'lastprivate(conditional: ...)' on '#pragma omp {d.name}' in device code is "
                                       "not supported (only on for, simd and loop)", c.coord)
            if d.has("nowait"):
                raise UnsupportedError("'lastprivate(conditional: ...)' with 'nowait' in device code is not supported yet",
                                       c.coord)
        if c.kind == "allocate":
            # the clause's align: the private copies' declarations (data_sharing.aligned); the
            # directive's: printer.visit_Compound
            if c.allocator is not None and c.allocator not in PREDEFINED_ALLOCATORS:
                raise UnsupportedError(f"allocator '{c.allocator}' in device code is not supported yet (only the "
                                       "predefined omp_*_mem_alloc allocators are)", c.coord)
        elif c.kind == "uses_allocators":
            for allocator, traits in c.allocators:
                if traits is None and allocator not in PREDEFINED_ALLOCATORS:
                    raise OmpSemanticError(f"uses_allocators({allocator}): an allocator without traits must be a "
                                           "predefined one (omp_*_mem_alloc); write uses_allocators("
                                           f"{allocator}(traits)) to make it from a traits array", c.coord)
                if traits is not None and allocator in PREDEFINED_ALLOCATORS:
                    raise OmpSemanticError(f"uses_allocators({allocator}({traits})): a predefined allocator takes no "
                                           "traits", c.coord)


@dataclass(frozen=True, eq=False)
class Capture:
    """A variable a kernel receives from the host."""

    sym: Symbol
    # 'literal' (by value) | 'private' (a firstprivate array's device copy for the launch) | 'pointer'
    # (translated pointer value) | 'attach' | 'object' (mapped, by reference)
    how: str
    map_type: str  # to / from / tofrom / alloc / '' (literal)
    item: ListItem | None  # the map clause item (array section), if any
    implicit: bool
    # map-type modifiers of an implicit map (defaultmap(present) gives 'present')
    modifiers: tuple[str, ...] = ()
    # has_device_addr of an array: its address is already the device's (passed untranslated)
    device_address: bool = False

    @property
    def name(self) -> str:
        return self.sym.name


@dataclass(frozen=True, eq=False)
class Kernel:
    name: str
    function: str
    construct: OmpConstruct
    coord: SourceCoord
    body: c_ast.Node  # what the team's master runs (teams level)
    teams: Directive | None  # the teams directive (combined or nested), if any
    captures: tuple[Capture, ...]
    privates: tuple[Symbol, ...]  # private(...) on the target: declared in the kernel
    env: Env  # the scope at the target construct
    # `map(t: s.p[lo:n])` through a pointer member: (map type, item). The struct is a
    # capture; the host maps the pointee section and attaches it (see pointer_member_section).
    attachments: tuple[tuple[str, ListItem], ...] = ()


@dataclass(frozen=True, eq=False)
class Program:
    bound: BoundUnit
    kernels: tuple[Kernel, ...]
    functions: dict[str, c_ast.FuncDef]  # every function defined in the file
    globals_env: Env
    host_constructs: tuple[OmpConstruct, ...]  # target regions and data constructs, outermost first
    # The scope at each host data construct (by id of the construct): the host code
    # generator needs the types of struct members named in its map clauses.
    data_envs: dict[int, Env] = field(default_factory=dict)


@dataclass(frozen=True, eq=False)
class Sharing:
    """How a parallel region sees each outer variable it uses."""

    by_pointer: tuple[Symbol, ...]  # shared and written or address-taken: the pack holds its address
    by_value: tuple[Symbol, ...]  # firstprivate, or shared but read-only: the pack holds a copy
    private: tuple[Symbol, ...]  # private / loop variables: declared in the work function
    reductions: tuple[tuple[str, Symbol], ...]  # (operator, variable): private copy + combine
    lastprivate: tuple[Symbol, ...]


def outline(bound: BoundUnit) -> Program:
    genv = Env()
    functions: dict[str, c_ast.FuncDef] = {}
    kernels: list[Kernel] = []
    host: list[OmpConstruct] = []
    data_envs: dict[int, Env] = {}
    for node in bound.ast.ext:
        if isinstance(node, c_ast.FuncDef):
            declare(genv, node)
            functions[node.decl.name] = node
            _Finder(bound, node, genv, kernels, host, data_envs).run()
        elif not isinstance(node, OmpConstruct):
            declare(genv, node)
    return Program(bound, tuple(kernels), functions, genv, tuple(host), data_envs)


def kernel_scope(k: Kernel) -> Env:
    """The scope of the kernel's body: every capture is a local of the kernel (a parameter or an
    alias of one); a captured array arrives as a pointer to its first element."""
    env = k.env.child()
    for cap in k.captures:
        t = resolve_typedef(cap.sym.type, k.env)
        decl = copy.copy(cap.sym.decl)
        if isinstance(t, c_ast.ArrayDecl) and (cap.how == "pointer" or (cap.how == "private" and constant_dims(t) is None)):
            decl.type = decay(t)   # a VLA's private copy arrives as a pointer too
        env.add(Symbol(cap.name, "var", decl, is_global=False, is_param=True))
    return env


def target_kind(d: Directive) -> str | None:
    """'kernel' for target regions, 'data' for host data constructs, else None."""
    if d.name in HOST_DATA_CONSTRUCTS:
        return "data"
    if d.leaves and d.leaves[0] == "target":
        return "kernel"
    return None


class _Finder(ScopedVisitor):
    """Walks one host function with a scope chain; records host-level constructs."""

    def __init__(self, bound, fn, genv, kernels, host, data_envs):
        super().__init__(genv.child())
        self.bound, self.fn, self.kernels, self.host, self.data_envs = bound, fn, kernels, host, data_envs
        for p in param_decls(fn):
            declare(self.env, p, is_param=True)

    def run(self):
        self.visit(self.fn.body)

    def visit_OmpConstruct(self, n: OmpConstruct):
        note_location(n.directive.coord)
        kind = target_kind(n.directive)
        if kind == "data":
            self.host.append(n)
            self.data_envs[id(n)] = self.env.copy()
            if n.body is not None:
                self.visit(n.body)
        elif kind == "kernel":
            self.host.append(n)
            self.kernels.append(_make_kernel(self.bound, self.fn, n, self.env.copy(), len(self.kernels)))
        elif n.body is not None:
            self.visit(n.body)


def _kernel_body(n: OmpConstruct) -> tuple[c_ast.Node, Directive | None]:
    """Strip the target (and a directly nested teams) to what a team's master runs."""
    d = n.directive
    if len(d.leaves) > 1:
        rest = d.leaves[1:]
        teams = d if rest[0] == "teams" else None
        return OmpConstruct(_sub_directive(d, rest), n.body, n.coord), teams
    body = sole_statement(n.body)
    if isinstance(body, OmpConstruct) and body.directive.leaves[0] == "teams":
        return n.body, body.directive
    return n.body, None


def _sub_directive(d: Directive, leaves: tuple[str, ...]) -> Directive:
    """The combined directive without its leading leaves (clauses kept; each level picks its own)."""
    import dataclasses

    name = " ".join(leaves)
    return dataclasses.replace(d, name=name)


def _items_by_clause(d: Directive, kinds: tuple[str, ...]) -> dict[str, ListItem]:
    out = {}
    for c in d.clauses:
        if c.kind in kinds:
            for item in c.items:
                out.setdefault(item.name, item)
    return out


def struct_member_map(item: ListItem, map_type: str, prior: tuple[str, ListItem] | None,
                      through_pointer: bool = False) -> str:
    """Members of a struct are mapped by mapping the whole struct.

    Copying the whole object to the device and back is a superset of copying the members:
    members the region does not map come back with the values they went out with. A
    section reached through a pointer member (`s.p[0:n]`, `through_pointer`) maps the
    pointee separately and attaches it; the struct itself then only needs to go to the
    device (it holds the pointer), so it contributes `to`. Paths with `->` are not
    supported.
    """
    if item.arrow:
        raise UnsupportedError(f"mapping '{item.text}' (a member reached through '->') is not supported yet; "
                               "map the pointed-to struct and its arrays separately", item.coord)
    own = "to" if through_pointer else map_type
    kinds = {own, prior[0] if prior else own}
    if kinds & {"from", "tofrom"}:
        return "tofrom"
    return "to"


def pointer_member_section(item: ListItem, env: Env) -> bool:
    """Whether `item` is an array section reached through a pointer member (`s.p[lo:n]`,
    `s.in.p[lo:n]`): mapping it maps the pointee and attaches the device copy of the
    struct's pointer to it."""
    return bool(item.members and item.sections) and member_is_pointer(env.lookup(item.name), item.members, env)


def member_is_pointer(sym: Symbol | None, members: tuple[str, ...], env: Env) -> bool:
    """Whether s.m1.m2... is a pointer (True also when the type cannot be followed)."""
    t = sym.type if sym is not None else None
    for m in members:
        t = resolve_typedef(t, env)
        struct = t.type if isinstance(t, c_ast.TypeDecl) else None
        if isinstance(struct, (c_ast.Struct, c_ast.Union)) and struct.decls is None and struct.name:
            struct = _find_struct(struct.name, env)
        if not isinstance(struct, (c_ast.Struct, c_ast.Union)) or not struct.decls:
            return True
        field = next((f for f in struct.decls if f.name == m), None)
        if field is None:
            return True
        t = field.type
    return is_pointer(resolve_typedef(t, env))


def _find_struct(name: str, env: Env):
    for kw in ("struct", "union"):
        sym = env.lookup(f"{kw} {name}")
        if sym is not None:
            return sym.decl
    return None


def whole_struct(item: ListItem) -> ListItem:
    import dataclasses

    return dataclasses.replace(item, members=(), sections=(), text=item.name)


def _make_kernel(bound: BoundUnit, fn: c_ast.FuncDef, n: OmpConstruct, env: Env, index: int) -> Kernel:
    d = n.directive
    body, teams = _kernel_body(n)
    uses = region_uses(n, env)
    maps: dict[str, tuple[str, ListItem]] = {}
    attachments: list[tuple[str, ListItem]] = []
    for c in d.clauses:
        if c.kind == "map":
            for item in c.items:
                if item.members:
                    through_pointer = pointer_member_section(item, env)
                    if through_pointer:
                        attachments.append((c.map_type, item))
                    maps[item.name] = (struct_member_map(item, c.map_type, maps.get(item.name), through_pointer), whole_struct(item))
                else:
                    maps[item.name] = (c.map_type, item)
    check_device_clauses(d)
    firstprivate = _items_by_clause(d, ("firstprivate",))
    private = _items_by_clause(d, ("private",))
    device_ptrs = _items_by_clause(d, ("is_device_ptr", "has_device_addr"))
    has_device_addr = _items_by_clause(d, ("has_device_addr",))
    # A reduction, lastprivate or linear list item of a combined target construct is mapped
    # tofrom (OpenMP 5.0).
    reduction_vars = _items_by_clause(d, ("reduction", "lastprivate", "linear", "in_reduction"))
    linear_vars = _items_by_clause(d, ("linear",))
    implicit_rule = _defaultmap_rules(d)
    loop_vars = loop_var_names(n.body, collapse_depth(d)) if any(
        leaf in ("for", "distribute", "loop", "simd", "taskloop") for leaf in d.leaves) else ()
    captures: list[Capture] = []
    privates: list[Symbol] = []
    for sym in uses.order:
        if sym.is_global and sym.name in bound.declare_target:
            continue  # a device global: the kernel uses it directly
        name = sym.name
        t = resolve_typedef(sym.type, env)
        if name in private:
            privates.append(sym)
            continue
        if name in device_ptrs:
            # has_device_addr of a variable that is not a pointer (and, as OpenMP 5.1 says, is_device_ptr
            # of one): its storage is the device's (use_device_addr of an enclosing target data names it
            # so); the region works on that storage: an array's as on a mapped array's, a scalar or
            # struct by reference as a mapped one
            if is_array(t):
                captures.append(Capture(sym, "pointer", "", None, False, device_address=True))
                continue
            if not is_pointer(t):
                captures.append(Capture(sym, "object", "", None, False, device_address=True))
                continue
            captures.append(Capture(sym, "literal", "", None, False))
            continue
        if name in maps:
            mtype, item = maps[name]
            if is_pointer(t) and item.sections:
                captures.append(Capture(sym, "pointer", mtype, item, False))
            elif is_pointer(t) and not item.members and "from" in mtype:
                # map(from: p) / map(tofrom: p) maps the pointer variable itself: the region's
                # writes to p come back (OMPGPU_MAP_POINTER_VALUE: the region's value, unless it
                # left p as it went out)
                captures.append(Capture(sym, "object", mtype, item, False))
            elif is_pointer(t):
                captures.append(Capture(sym, "attach", mtype, item, False))
            elif is_array(t):
                captures.append(Capture(sym, "pointer", mtype, item, False))
            else:
                captures.append(Capture(sym, "object", mtype, item, False))
            continue
        if name in firstprivate:  # by value (an array too: the kernel's own copy)
            captures.append(Capture(sym, _firstprivate_how(t), "", None, False))
            continue
        if name in linear_vars and is_pointer(t) and name not in loop_vars:
            # Mapped tofrom, the device's final value would be a device address copied over the
            # host's pointer (and the region would start from the host's address).
            raise UnsupportedError(f"linear pointer '{name}' on a combined target construct is not supported yet",
                                   _clause_item_coord(d, name))
        if name in reduction_vars and not is_array(t) and not is_pointer(t):
            # as if in map(tofrom: ...), so defaultmap does not apply (a section of an array or
            # through a pointer keeps the rules below: the whole array, or the pointee's device copy)
            captures.append(Capture(sym, "object", "tofrom", None, True))
            continue
        # Implicit data-mapping rules of OpenMP 5.0 for target, as defaultmap changes them.
        category = "pointer" if is_pointer(t) else "aggregate" if is_array(t) or is_aggregate(t, env) else "scalar"
        behavior, clause = implicit_rule.get(category, ("default", None))
        if behavior == "none" and name not in loop_vars:  # a loop's own variable is predetermined private
            raise OmpSemanticError(f"'{name}' is used in the target region but is in no data-mapping or data-sharing "
                                   f"clause, which defaultmap({_defaultmap_text(clause)}) requires", d.coord)
        if behavior == "firstprivate":  # by value: the kernel's own copy (an array too; a pointer keeps its value)
            captures.append(Capture(sym, _firstprivate_how(t), "", None, True))
        elif behavior in ("to", "from", "tofrom", "alloc", "present"):
            # A pointer's own storage is mapped (OpenMP 5.0: a clause without a category covers
            # pointers too), not what it points to: the region sees the host's address, as clang
            # does. present (5.1): as map(present, alloc: ...), an error where it is not present.
            map_type, modifiers = ("alloc", ("present",)) if behavior == "present" else (behavior, ())
            captures.append(Capture(sym, "pointer" if is_array(t) else "object", map_type, None, True, modifiers))
        elif is_array(t):
            captures.append(Capture(sym, "pointer", "tofrom", None, True))
        elif is_pointer(t):
            captures.append(Capture(sym, "attach", "", None, True))
        elif is_aggregate(t, env):
            captures.append(Capture(sym, "object", "tofrom", None, True))
        else:
            captures.append(Capture(sym, "literal", "", None, True))
    name = f"__omp_offloading_{fn.decl.name}_l{d.coord.line}"
    return Kernel(name, fn.decl.name, n, d.coord, body, teams, tuple(captures), tuple(privates), env, tuple(attachments))


# Implicit behaviours the outliner implements (`present`: OpenMP 5.1); the `all` category
# (5.2) is left out because gcc 12, which compiles the host fallback, rejects it.
# A firstprivate array of a target region passes by value (a kernel parameter, which a thread that
# writes it copies into its own local memory) up to this many bytes; a larger one, or one whose
# size only the run knows, is one device copy per launch that the region's teams and threads
# share, as OpenMP has it (OMPGPU_MAP_PRIVATE): two 4 KB arrays firstprivate to a `target teams
# loop` exhausted the device heap with a copy per team (SOLLVE 5.0 target_teams_loop_defaultmap).
BY_VALUE_ARRAY_BYTES = 256


def _firstprivate_how(t: c_ast.Node) -> str:
    """How a firstprivate variable of type t reaches the kernel: 'literal' (by value), or
    'private' (an array's device copy for the launch, see BY_VALUE_ARRAY_BYTES)."""
    if not is_array(t):
        return "literal"
    size = array_bytes(t)
    return "literal" if size is not None and size <= BY_VALUE_ARRAY_BYTES else "private"


_DEFAULTMAP_BEHAVIOURS = ("alloc", "to", "from", "tofrom", "firstprivate", "none", "default", "present")


def _defaultmap_rules(d: Directive) -> dict[str, tuple[str, object]]:
    """OpenMP 5.0 defaultmap: category ('scalar', 'aggregate', 'pointer') -> (implicit
    behaviour, the clause that set it). A clause without a category covers all three."""
    rules: dict[str, tuple[str, object]] = {}
    for c in d.clauses_of("defaultmap"):
        if c.behavior not in _DEFAULTMAP_BEHAVIOURS or c.category in ("all", "allocatable"):
            raise UnsupportedError(f"'defaultmap({_defaultmap_text(c)})' is not supported yet (supported: alloc, to, "
                                   "from, tofrom, firstprivate, present, none and default for the scalar, aggregate "
                                   "and pointer categories, and without one)", c.coord)
        for cat in c.categories:
            rules[cat] = (c.behavior, c)  # one clause per category: parser/clause_rules.py checks it
    return rules


def _defaultmap_text(c) -> str:
    return c.behavior + (f": {c.category}" if c.category else "")


def unique_kernel_names(kernels: tuple[Kernel, ...]) -> dict[int, str]:
    """Kernel names, with a suffix where two regions share a function and line."""
    seen: dict[str, int] = {}
    out = {}
    for k in kernels:
        count = seen.get(k.name, 0)
        seen[k.name] = count + 1
        out[id(k)] = k.name if count == 0 else f"{k.name}_{count}"
    return out


def region_sharing(n: OmpConstruct, body: c_ast.Node, env: Env, loop_vars: tuple[str, ...] = (),
                   extra_private: tuple[str, ...] = (), skip_reduction: bool = False) -> Sharing:
    """Classify the outer variables that a parallel region uses (OpenMP's rules)."""
    d = n.directive
    uses = region_uses(n if n.body is body else body, env)
    private_names = set(_items_by_clause(d, ("private",))) | set(loop_vars) | set(extra_private)
    first = set(_items_by_clause(d, ("firstprivate",)))
    last = _items_by_clause(d, ("lastprivate",))
    # A linear item of the region's loop is privatized by the loop, which writes the final value
    # back to the shared variable.
    linear = set(_items_by_clause(d, ("linear",))) - set(loop_vars)
    reds: list[tuple[str, Symbol]] = []
    red_names: set[str] = set()
    for c in d.clauses:
        if c.kind == "reduction" and not skip_reduction:
            for item in c.items:
                sym = env.lookup(item.name)
                if sym is not None:
                    reds.append((c.op, sym))
                    red_names.add(item.name)
    by_ptr, by_val, priv, lastp = [], [], [], []
    for sym in uses.order:
        if sym.is_global:
            continue
        if sym.name in red_names:
            if sym not in by_ptr:
                by_ptr.append(sym)
            continue
        if sym.name in last:
            lastp.append(sym)
            by_ptr.append(sym)
            continue
        if sym.name in linear:
            by_ptr.append(sym)
            continue
        if sym.name in private_names:
            priv.append(sym)
            continue
        if sym.name in first:
            by_val.append(sym)
            continue
        t = sym.type
        if (sym in uses.written or sym in uses.address_taken or is_array(t)):
            by_ptr.append(sym)
        else:
            by_val.append(sym)
    return Sharing(tuple(by_ptr), tuple(by_val), tuple(priv), tuple(reds), tuple(lastp))


def _clause_item_coord(d, name: str):
    """Where a list item named `name` stands in the directive's clauses (the directive if nowhere)."""
    for c in d.clauses:
        for item in getattr(c, "items", ()):
            if item.name == name:
                return item.coord
    return d.coord
