"""Device code generation: kernels, work functions, device functions -> one CUDA C++ file.

User statements are printed by pycparser's C generator (a subclass that knows the OpenMP
constructs and the soft stack); every piece of code the compiler itself adds comes from
the jinja2 templates in `templates/`.
"""
from __future__ import annotations

import copy
import re
import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from pycparser import c_ast

from ompgpu.analysis.library import DEVICE_LIBRARY, HOST_ONLY_API, OMP_DEVICE_API, PURE_LIBRARY
from ompgpu.analysis.symbols import (Env, ScopedVisitor, Symbol, decay, declare, has_side_effect, is_array, is_pointer, param_decls, region_uses,
                                     resolve_typedef, walk_nodes)
from ompgpu.codegen.cprint import CPrinter, finalize_line_markers, line_directive
from ompgpu.codegen.render import BLOCK_TEAM_IDS, PACKED_TEAM_IDS, render
from ompgpu.codegen.footprint import short_iteration, tile_footprint
from ompgpu.codegen.shared_scalars import SyncFree, candidate_locals, written_names
from ompgpu.errors import OmpSemanticError, SourceCoord, UnsupportedError, note_location
from ompgpu.outliner.outline import (DEVICE_UNSUPPORTED, Capture, Kernel, Program, Sharing, check_device_clauses, kernel_scope,
                                     region_sharing, unique_kernel_names)
from ompgpu.parser.bind import OmpConstruct, collapse_depth, loop_header_names, loop_nest, loop_var_names
from ompgpu.parser.directives import Directive
from ompgpu.parser.clause_rules import int_constant
from ompgpu.plan.mode import KernelPlan, region_reads_thread_state, same_expression

CXX_KEYWORDS = frozenset("""
new delete class this template typename namespace using operator private public protected virtual friend
try catch throw explicit mutable export bool true false nullptr decltype constexpr noexcept static_cast
dynamic_cast reinterpret_cast const_cast typeid wchar_t char16_t char32_t alignof concept requires co_await
""".split())
RED_OPS = {"+": "RED_ADD", "-": "RED_ADD", "*": "RED_MUL", "min": "RED_MIN", "max": "RED_MAX", "&": "RED_BAND",
           "|": "RED_BOR", "^": "RED_BXOR", "&&": "RED_LAND", "||": "RED_LOR"}
ATOMIC_OPS = {"+": "ATOMIC_ADD", "-": "ATOMIC_SUB", "*": "ATOMIC_MUL", "/": "ATOMIC_DIV", "&": "ATOMIC_BAND",
              "|": "ATOMIC_BOR", "^": "ATOMIC_BXOR", "<<": "ATOMIC_SHL", ">>": "ATOMIC_SHR"}


@dataclass
class WorkFunction:
    id: int
    name: str
    pack: str
    fields: list[str]
    body: str
    function: str  # the function (or kernel) whose code forks it
    # A template on `bool __whole_block` (an SPMD region with num_threads): its fork site calls
    # the true instance when the team is the whole block; everything else calls `ref`.
    templated: bool = False
    # The pack's field names in order, and those that are kernel parameters the kernel never
    # changes (by-value captures): the workers of a generic kernel take them from the parameters,
    # not from the pack, so that nvcc sees values that are the same at every fork (a loop
    # bound decided once, not at every fork: bench/results/exp-h100-2026-11-25-s6-generic-fork-profile.txt).
    field_names: tuple[str, ...] = ()
    param_fields: frozenset[str] = frozenset()
    # The body may read the worker's per-thread state (plan.mode.region_reads_thread_state):
    # a generic kernel whose work functions all leave it unread skips its store at each fork.
    reads_state: bool = True

    @property
    def pack_from_params(self) -> bool:
        """Every field of the pack is an unchanged kernel parameter: the workers build the whole
        pack from the kernel's parameters, so the fork copies nothing into team state."""
        return bool(self.field_names) and self.param_fields == frozenset(self.field_names)

    @property
    def ref(self) -> str:
        """The name that calls it (or takes its address) where the team is not the whole block."""
        return f"{self.name}<false>" if self.templated else self.name


@dataclass
class DeviceOutput:
    cuda: str
    kernel_names: dict[int, str]
    kernel_modes: dict[int, str]  # by id(kernel): "spmd" or "generic"
    remarks: list[tuple[SourceCoord, str]] = field(default_factory=list)
    globals: tuple[str, ...] = ()  # declare target variables whose device copies this file defines
    kernel_max_threads: dict[int, int] = field(default_factory=dict)  # by id(kernel): launch bound
    # id() of the kernels that also have an instance compiled for more resident teams
    kernel_dense: frozenset[int] = frozenset()
    external_device_code: bool = False  # calls device functions of other files: relocatable device code
    defines_functions: bool = False  # defines device functions (declare target, or called by kernels)


def generate_device(program: Program, plans: dict[int, KernelPlan]) -> DeviceOutput:
    return _DeviceGen(program, plans).run()


# Resident threads per SM that the dense instance of a latency-bound grid loop asks for: 40 warps,
# 48 registers a thread. XSBench-style lookups (64 registers on their own: 32 warps) ran 1.10x
# faster so, 40 bytes spilled (H100, bench/results/exp-h100-2026-11-25-s6-variants.txt, mcl_lb5).
DENSE_THREADS = 1280


# What the device code of a packed kernel may call (runtime/device: mapping.cuh, workshare.cuh,
# parallelism.cuh and ompgpu_compiler_support.cuh): routines that take the team's ids from their
# arguments or read none. Anything else may read blockIdx, threadIdx or the block's barrier.
_PACKED_RUNTIME = frozenset({"lane_id", "packed_team_barrier", "distribute_static_block", "distribute_chunk_first",
                             "distribute_chunk_stride", "known_static_block", "known_static_chunk_first",
                             "known_static_chunk_stride", "known_team_barrier"})
_PACKED_SUPPORT = frozenset({"trip_count", "nest_split", "atomic_update", "atomic_update_new", "atomic_write",
                             "atomic_read", "atomic_compare_exchange", "by_value", "by_value_of",
                             "store_through_postinc", "store_through_postdec"})
_BLOCK_IDS = re.compile(r"\b(threadIdx|blockIdx|blockDim|gridDim|OMPGPU_SHARED|__whole_block|__syncthreads)\b")
_WHOLE_BLOCK_BARRIER = re.compile(r"known_team_barrier<\w+,\s*true>")


def packed_team_blocker(texts: list[str], user_calls: list[str]) -> str | None:
    """Why device code cannot run as packed teams (None: it can): it names a hardware id or
    the block's barrier, calls an OpenMP routine, a user function or a runtime routine outside
    _PACKED_RUNTIME / _PACKED_SUPPORT."""
    if user_calls:
        return f"it calls '{user_calls[0]}'"
    for text in texts:
        m = _BLOCK_IDS.search(text) or _WHOLE_BLOCK_BARRIER.search(text)
        if m:
            return f"its code uses '{m.group(0)}'"
        m = re.search(r"\bomp_\w+", text)
        if m:
            return f"it calls '{m.group(0)}'"
        for name in re.findall(r"\bompgpu::(\w+)", text):
            if name not in _PACKED_RUNTIME and not name.isupper():
                return f"it needs the runtime's 'ompgpu::{name}'"
        for name in re.findall(r"\bompgpu_(\w+)", text):
            if name not in _PACKED_SUPPORT:
                return f"it needs the runtime's 'ompgpu_{name}'"
    return None


class _DeviceGen:
    def __init__(self, program: Program, plans: dict[int, KernelPlan]):
        self.p = program
        self.plans = dict(plans)  # _kernel may take a kernel's packed teams back
        self.default_mem_order = _default_mem_order(program.bound)
        self.workfns: list[WorkFunction] = []
        self.next_workfn_id = 0
        self.conditional_count = 0  # names the variables of lastprivate(conditional:) items apart
        self.register_count = 0  # names the registers of team-shared scalars apart (shared_scalars.py)
        self.sync_free = SyncFree(program.functions)
        self.global_names: list[str] = []  # declare target variables defined here
        self.critical_names: set[str] = set()
        self.remarks: list[tuple[SourceCoord, str]] = []
        self.calls: dict[str, set[str]] = {}
        self.regions_of: dict[str, set[int]] = {}
        self.device_fns: set[str] = set()
        self.hoisted: set[int] = set()  # id() of local type definitions moved to namespace scope
        # Functions declared `declare target` here but defined in another file or a library:
        # device code calls them through an extern prototype (relocatable device code).
        self.external_decls: dict[str, c_ast.Decl] = {
            n.name: n for n in program.bound.ast.ext
            if isinstance(n, c_ast.Decl) and isinstance(n.type, c_ast.FuncDecl) and n.name in program.bound.declare_target
            and n.name not in program.functions}
        self.external_calls: set[str] = set()

    # -- call graph --------------------------------------------------------------
    def _device_functions(self) -> set[str]:
        """Functions defined in the file that device code reaches (declare target or called)."""
        def defined(names):  # user definitions; the device omp_* API is the runtime's
            return [c for c in names if c in self.p.functions and c not in OMP_DEVICE_API]

        roots = [c for k in self.p.kernels for c in region_uses(k.construct, k.env).calls]
        roots += [name for name in self.p.functions if name in self.p.bound.declare_target]
        return _reachable(defined(roots), lambda f: defined(region_uses(self.p.functions[f].body, self.p.globals_env).calls))

    def _kernel(self, k: Kernel, kname: str) -> dict:
        """Emit kernel k (its work functions join self.workfns). A kernel planned with packed
        teams keeps them only where its code and its work functions name nothing of the block
        (packed_team_blocker): else it is emitted again with a team per block."""
        plan = self.plans[id(k)]
        saved = self._snapshot() if plan.packed_teams > 1 else None
        em = _Emitter(self, kname, k.env, master=True, plan=plan)
        kt = em.kernel(k, kname)
        if saved is not None:
            new_workfns = self.workfns[saved["workfns"]:]
            why = packed_team_blocker([kt["body"], *kt["aliases"], *kt["privates"], *kt["promotions"],
                                       *(w.body for w in new_workfns)],
                                      sorted(c for c in em.called if c in self.p.functions))
            if why is not None:
                self._restore(saved)
                self.plans[id(k)] = plan = dataclasses.replace(plan, packed_teams=1)
                em = _Emitter(self, kname, k.env, master=True, plan=plan)
                kt = em.kernel(k, kname)
                self.remarks.append((k.coord, f"{kname}: teams not packed, a team per block: {why}"))
            else:
                self.remarks.append((k.coord, f"{kname}: packed teams, {plan.packed_teams} teams of "
                                               f"{plan.max_threads} threads per block"))
        self.calls[kname] = em.called
        return kt

    def _snapshot(self) -> dict:
        """What emitting a kernel adds to the generator, to take back (see _kernel)."""
        return {"workfns": len(self.workfns), "next_workfn_id": self.next_workfn_id, "remarks": len(self.remarks),
                "conditional_count": self.conditional_count, "register_count": self.register_count,
                "critical_names": set(self.critical_names), "external_calls": set(self.external_calls),
                "global_names": list(self.global_names), "hoisted": set(self.hoisted),
                "regions_of": {f: set(ids) for f, ids in self.regions_of.items()}}

    def _restore(self, saved: dict) -> None:
        del self.workfns[saved["workfns"]:]
        del self.remarks[saved["remarks"]:]
        self.next_workfn_id = saved["next_workfn_id"]
        self.conditional_count = saved["conditional_count"]
        self.register_count = saved["register_count"]
        self.critical_names = saved["critical_names"]
        self.external_calls = saved["external_calls"]
        self.global_names = saved["global_names"]
        self.hoisted = saved["hoisted"]
        self.regions_of = saved["regions_of"]

    def run(self) -> DeviceOutput:
        names = unique_kernel_names(self.p.kernels)
        device_fns = self._device_functions()
        for name, coord in self.p.bound.host_variant_functions:
            if name in device_fns:
                raise UnsupportedError(f"this metadirective takes a different variant on the GPU than on the host, "
                                       f"and '{name}' runs on both (target regions call it); that is not supported "
                                       "yet (declare the function in a declare target block)", coord)
        for name, coord in self.p.bound.host_only_variant_functions:
            if name in device_fns:
                raise UnsupportedError(f"'{name}' is defined in a 'begin declare variant' block whose context selector "
                                       "matches the host but not the GPU, and target regions call it: a device variant "
                                       "of it is not supported yet", coord)
        self.device_fns = device_fns
        types = self._type_decls()  # first: it says which local type definitions move out
        order = [n for n in self.p.functions if n in device_fns]  # source order
        fn_texts, protos = [], []
        for name in order:
            fn = self.p.functions[name]
            # Conservatively, any device function may run on a team's master: its shared
            # locals go on the soft stack.
            em = _Emitter(self, name, self.p.globals_env, master=True)
            text = em.function(fn)
            fn_texts.append(text)
            protos.append(em.prototype(fn))
            self.calls[name] = em.called
        kernels = []
        for k in self.p.kernels:
            kname = names[id(k)]
            kernels.append(self._kernel(k, kname))
        # Which work functions each kernel can reach (for its dispatch switch).
        for kt in kernels:
            code = _reachable([kt["name"]], lambda f: self.calls.get(f, ()))
            reach = set().union(*(self.regions_of.get(f, set()) for f in code))
            kt["workfns"] = [w for w in self.workfns if w.id in reach]
            self.remarks.append((kt["coord"], _mode_remark(kt["name"], kt["plan"], len(kt["workfns"]))))
        globals_ = self._device_globals()
        protos += [_Emitter(self, "", self.p.globals_env, master=False).prototype(c_ast.FuncDef(self.external_decls[n], None, None),
                                                                                  extern=True)
                   for n in sorted(self.external_calls)]
        cuda = render("device.cu.j2", source=self.p.bound.pre.path, types=types, globals=globals_,
                      prototypes=protos, workfns=self.workfns, functions=fn_texts, kernels=kernels,
                      critical_names=sorted(self.critical_names), global_names=self.global_names)
        cuda = finalize_line_markers(cuda, Path(self.p.bound.pre.path).stem + ".device.cu")
        modes = {id(k): self.plans[id(k)].mode for k in self.p.kernels}
        max_threads = {id(k): self.plans[id(k)].max_threads for k in self.p.kernels}
        dense = frozenset(id(k) for k, kt in zip(self.p.kernels, kernels) if len(kt["variants"]) > 1)
        return DeviceOutput(cuda, names, modes, self.remarks, tuple(self.global_names), max_threads, dense,
                            external_device_code=bool(self.external_calls), defines_functions=bool(fn_texts))

    # -- declarations the device needs --------------------------------------------
    def _is_user_decl(self, node: c_ast.Node) -> bool:
        coord = getattr(node, "coord", None)
        if coord is None:
            return True
        file, _ = self.p.bound.pre.origins[coord.line - 1] if coord.line - 1 < len(self.p.bound.pre.origins) else ("", 0)
        return file not in self.p.bound.pre.system_files

    def _type_decls(self) -> list[str]:
        """The user's types, at namespace scope: file-scope ones, then those declared inside
        the functions that hold kernels or run on the device (C lets a function define types;
        kernels and work functions are separate functions in the device code, so the types
        move out of the function). System headers' types come from the real headers."""
        definer = CGen(define_types=True)
        out: list[str] = []
        # "struct pair", "typedef item_t", "enumerator N" -> (definition text, where, its anonymous tag)
        seen: dict[str, tuple[str, SourceCoord, str | None]] = {}

        def add(node: c_ast.Node, keys: list[str], text: str, anonymous: c_ast.Node | None = None) -> None:
            coord = self.user_coord(node)
            tag = _anonymous_tag(anonymous) if anonymous is not None else None
            same = text.replace(tag, "__ompgpu_anon") if tag else text  # compared without the made-up tag
            clashes = [(k, seen[k]) for k in keys if k in seen and seen[k][0] != same]
            if clashes:
                key, (_, first, _) = clashes[0]
                raise UnsupportedError(f"{key.replace('typedef ', 'type ')} is defined differently at {first} and here; "
                                       "device code needs one definition of each type name (rename one)", coord)
            earlier = [seen[k] for k in keys if k in seen]
            if earlier:  # the same definition again (the same typedef in two functions): one type
                first_tag = earlier[0][2]
                if tag and first_tag and first_tag != tag:
                    out.append(f"typedef {first_tag} {tag};")
                return
            for k in keys:
                seen[k] = (same, coord, tag)
            out.append(text + ";")

        def take(node: c_ast.Node, local: bool) -> None:
            if isinstance(node, c_ast.Typedef):
                if local and _variably_modified(node.type):
                    return  # needs the function's variables: stays a local typedef
                base = _base_type(node.type)
                anonymous = base if isinstance(base, (c_ast.Struct, c_ast.Union, c_ast.Enum)) and _has_body(base) \
                    and base.name is None else None
                add(node, [f"typedef {node.name}"] + _tag_keys(base), definer.visit(node), anonymous)
                if local:
                    self.hoisted.add(id(node))
            elif isinstance(node, c_ast.Decl) and not isinstance(node.type, c_ast.FuncDecl):
                tagged = _base_type(node.type)
                if isinstance(tagged, (c_ast.Struct, c_ast.Union, c_ast.Enum)) and _has_body(tagged):
                    # `struct S {...};` or `struct S {...} s;`: the type only (variables are not device data)
                    add(node, _tag_keys(tagged) or [_anonymous_tag(tagged)], definer.visit(tagged),
                        tagged if tagged.name is None else None)
                    if local and node.name is None:
                        self.hoisted.add(id(node))

        for node in self.p.bound.ast.ext:
            if self._is_user_decl(node):
                take(node, local=False)
        hosts = {k.function for k in self.p.kernels} | set(self.device_fns)
        for name, fn in self.p.functions.items():
            if name in hosts:
                for node in _local_declarations(fn.body):
                    take(node, local=True)
        return out

    def user_coord(self, node: c_ast.Node) -> SourceCoord:
        """Where a node of the AST stands in the user's source."""
        c = getattr(node, "coord", None)
        if c is None:
            return SourceCoord(self.p.bound.pre.path, 1, 1)
        return self.p.bound.pre.user_coord(c.line, c.column)

    def _device_globals(self) -> list[str]:
        gen = CGen()
        out = []
        for node in self.p.bound.ast.ext:
            if isinstance(node, c_ast.Decl) and node.name in self.p.bound.declare_target and not isinstance(node.type, c_ast.FuncDecl):
                if "extern" in (node.storage or []):
                    continue
                d = copy.copy(node)
                d.storage = [s for s in (node.storage or []) if s != "static"]
                out.append("OMPGPU_DEVICE " + gen.visit(d) + ";")
                self.global_names.append(node.name)
        return out


class CGen(CPrinter):
    """Prints C that is also valid C++ for nvcc: names that C++ reserves are respelled.

    Struct, union and enum definitions are printed only where the device code defines its
    types (define_types=True, at namespace scope); everywhere else a type with a body is
    named by its tag (an anonymous one gets a tag made from its source position), so that a
    kernel parameter or a local variable of such a type refers to that one definition."""

    def __init__(self, define_types: bool = False):
        super().__init__()
        self.define_types = define_types

    def visit_Struct(self, n):
        return self._tagged(n, "struct", super().visit_Struct)

    def visit_Union(self, n):
        return self._tagged(n, "union", super().visit_Union)

    def visit_Enum(self, n):
        return self._tagged(n, "enum", super().visit_Enum)

    def _tagged(self, n, keyword: str, define) -> str:
        if not _has_body(n):
            return define(n)
        if self.define_types:
            if n.name is None:
                n = copy.copy(n)
                n.name = _anonymous_tag(n)
            return define(n)
        # C++ names a class without its keyword: an anonymous type's made-up tag can then also
        # be a typedef of another (identical definitions in two functions are one type).
        return f"{keyword} {n.name}" if n.name else _anonymous_tag(n)

    def visit_ID(self, n):
        return _cxx_name(n.name)

    def visit_Constant(self, n):
        return n.value

    def declared_name(self, name: str) -> str:
        return _cxx_name(name)


def _by_value_type(t: c_ast.Node, name: str, coord: SourceCoord) -> str:
    """The type of an array passed by value; its size must be a compile-time constant."""
    dims = []
    elem = t
    while isinstance(elem, c_ast.ArrayDecl):
        dims.append(elem.dim)
        elem = elem.type
    if any(d is None or int_constant(CGen().visit(d)) is None for d in dims):
        raise UnsupportedError(f"firstprivate array '{name}' of variable size is not supported yet", coord)
    return type_string(t)


def _unqualified(t: c_ast.Node) -> c_ast.Node:
    """t without const/volatile on the object itself (an array's elements included; what a
    pointer points to keeps its qualifiers)."""
    t = copy.deepcopy(t)
    node = t
    while isinstance(node, c_ast.ArrayDecl):
        node = node.type
    if isinstance(node, (c_ast.PtrDecl, c_ast.TypeDecl)):
        node.quals = [q for q in node.quals if q not in ("const", "volatile")]
    return t


_MEMORY_ORDERS = ("seq_cst", "acq_rel", "release", "acquire", "relaxed")


def _default_mem_order(bound) -> str:
    """The atomic_default_mem_order of the file's `requires` directive, else relaxed."""
    for node in bound.ast.ext:
        if isinstance(node, OmpConstruct) and node.directive.name == "requires":
            c = node.directive.clause("atomic_default_mem_order")
            if c is not None:
                return c.value
    return "relaxed"


def _has_body(n: c_ast.Node) -> bool:
    return (n.values if isinstance(n, c_ast.Enum) else n.decls) is not None


def _anonymous_tag(n: c_ast.Node) -> str:
    c = n.coord
    return f"__ompgpu_anon_l{c.line}_c{c.column}" if c is not None else f"__ompgpu_anon_{id(n)}"


def _base_type(t: c_ast.Node) -> c_ast.Node:
    """The specifier under a declarator: `struct S {...}` of `struct S {...} *p[3]`."""
    while isinstance(t, (c_ast.PtrDecl, c_ast.ArrayDecl, c_ast.FuncDecl, c_ast.TypeDecl, c_ast.Typename)):
        t = t.type
    return t


def _tag_keys(t: c_ast.Node) -> list[str]:
    """What a type definition declares: its tag (if it defines one) and an enum's constants."""
    if not isinstance(t, (c_ast.Struct, c_ast.Union, c_ast.Enum)) or not _has_body(t):
        return []
    keys = [f"{type(t).__name__.lower()} {t.name}"] if t.name else []
    if isinstance(t, c_ast.Enum):
        keys += [f"enumerator {e.name}" for e in t.values.enumerators]
    return keys


def _variably_modified(t: c_ast.Node) -> bool:
    """An array type whose size is not a constant (`typedef double row[n]`)."""
    while isinstance(t, (c_ast.PtrDecl, c_ast.ArrayDecl, c_ast.TypeDecl)):
        if isinstance(t, c_ast.ArrayDecl) and t.dim is not None and not isinstance(t.dim, c_ast.Constant):
            return any(isinstance(x, c_ast.ID) for x in walk_nodes(t.dim))
        t = t.type
    return False


def _local_declarations(body: c_ast.Node):
    """Declarations anywhere in a function body (nested blocks and constructs included), in order."""
    todo = [body]
    while todo:
        node = todo.pop()
        if isinstance(node, (c_ast.Typedef, c_ast.Decl)):
            yield node
            continue
        todo.extend(reversed([child for _, child in node.children()]))


def _cxx_name(name: str) -> str:
    return f"{name}__c" if name in CXX_KEYWORDS else name


def _named(t: c_ast.Node, name: str | None) -> c_ast.Node:
    """A copy of type t whose declarator names `name` (abstract when None)."""
    t = copy.deepcopy(t)
    _set_declname(t, name)
    return t


def type_string(t: c_ast.Node, name: str | None = None) -> str:
    """C declarator text for type t declaring `name` (abstract when name is None)."""
    return CGen().declaration(t, name)


@dataclass
class _Loop:
    var: str
    var_type: str
    lb: str
    ub: str  # exclusive when step > 0 (after adjusting <=), for step < 0 the other way
    step: str
    cond_op: str
    narrow: bool = False  # the variable has 32 bits or fewer: its value is computed in 32-bit arithmetic

    @property
    def cmp(self) -> str:
        """The runtime's name of the loop's comparison (OMPGPU_CMP_<cmp>)."""
        return {"<": "LT", "<=": "LE", ">": "GT", ">=": "GE", "!=": "NE"}[self.cond_op]

    @property
    def trip_count(self) -> str:
        """C expression of the loop's iteration count."""
        return (f"ompgpu_trip_count((long long)({self.lb}), (long long)({self.ub}), (long long)({self.step}), "
                f"OMPGPU_CMP_{self.cmp})")


def _strip_quals(t: c_ast.Node) -> None:
    """Drop const/volatile from a declarator's innermost type (shared-memory storage takes no
    initializer, so it is written after its declaration)."""
    while isinstance(t, (c_ast.ArrayDecl, c_ast.PtrDecl)):
        t = t.type
    if isinstance(t, c_ast.TypeDecl):
        t.quals = [q for q in t.quals or [] if q not in ("const", "volatile")]


def _region_tail(body: c_ast.Node) -> int | None:
    """id() of the `for`/`loop` construct that is the last statement of a parallel region's
    body, if any."""
    while isinstance(body, c_ast.Compound) and body.block_items:
        body = body.block_items[-1]
    if isinstance(body, OmpConstruct) and body.directive.leaves[0] in ("for", "loop"):
        return id(body)
    return None


def _integer_words(t: c_ast.Node | None, env: Env) -> frozenset[str] | None:
    """The words of an integer type named by t (typedefs followed) without signed/unsigned
    ({'int'}, {'long', 'long'} as {'long'}, the empty set for a plain `unsigned`); None for
    any other type, an enum and `_Bool` included."""
    t = resolve_typedef(t, env)
    if not (isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.IdentifierType)):
        return None
    words = frozenset(t.type.names) - {"signed", "unsigned"}
    return words if words <= {"int", "short", "char", "long"} else None


def _is_narrow_integer(t: c_ast.Node | None, env: Env) -> bool:
    """Whether t is an integer type of at most 32 bits: char, short, int, with or without
    signed/unsigned (`long` and `_Bool` are not)."""
    words = _integer_words(t, env)
    return words is not None and "long" not in words


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
    while isinstance(stmt, c_ast.Compound) and stmt.block_items is not None and len(stmt.block_items) == 1:
        stmt = stmt.block_items[0]
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


def _is_integer_type(t: c_ast.Node | None, env: Env) -> bool:
    """Whether t (typedefs followed) is an integer type (an enum counts; _Bool does not)."""
    resolved = resolve_typedef(t, env)
    return _integer_words(t, env) is not None or (isinstance(resolved, c_ast.TypeDecl) and isinstance(resolved.type, c_ast.Enum))


class _Emitter(CGen):
    """Prints one device function, kernel or work function."""

    def __init__(self, gen: _DeviceGen, owner: str, env: Env, master: bool, plan: KernelPlan | None = None):
        super().__init__()
        self.g = gen
        # The plan of the kernel this code belongs to; None for device functions, which any
        # kernel may call and so use the runtime's dynamic (mode-independent) entry points.
        self.plan = plan
        self.spmd = plan is not None and plan.mode == "spmd"
        self.lean = self.spmd and plan.lean
        # how the code names the thread's place in its team (a team per block, or packed teams)
        self.ids = PACKED_TEAM_IDS if plan is not None and plan.packed_teams > 1 else BLOCK_TEAM_IDS
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
        self.in_global_memory: set[int] = set()  # of those, the ones kept in global memory
        self.called: set[str] = set()
        self.in_region = 0
        self.last_line: tuple[str, int] | None = None  # the last `#line` this emitter wrote
        # Names shared in the enclosing context (a task writing one writes the original): what
        # the enclosing parallel region shares.
        self.task_shared: set[str] = set()
        # The combined loop of an SPMD `distribute parallel for` whose iterations the whole grid
        # shares (see _distribute): every team gets the whole range, the loop deals it out.
        self.grid_loop = False
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
        # takes the address of (see WorkFunction.param_fields)
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
            self.escaping, self.in_global_memory = _escaping_locals(fn.body, self.env)
        promoted = [p for p in params if id(p) in self.escaping]
        d = copy.deepcopy(fn.decl)
        d.funcspec = [s for s in (d.funcspec or []) if s != "inline"]
        d.storage = [s for s in (d.storage or []) if s not in ("extern",)]
        for p in param_decls(c_ast.FuncDef(d, None, None)):
            if p.name in {q.name for q in promoted}:
                _set_declname(p.type, p.name + "__param")
        head = "OMPGPU_DEVICE " + self.visit(d)
        body = self.visit(fn.body)
        if promoted:
            lines = [render("promote.j2", type=type_string(p.type), name=_cxx_name(p.name), array=False) for p in promoted]
            body = "{\n" + "".join(lines) + body + "}\n"
        return head + "\n" + body

    def _render(self, template: str, **context) -> str:
        """A template of code that names the thread's place in its team (see TeamIds)."""
        return render(template, ids=self.ids, **context)

    def kernel(self, k: Kernel, kname: str) -> dict:
        note_location(k.coord)
        body = k.body
        # In a target region's serial code, the initial task's variables (mapped ones too) are
        # not shared by a team: a task that writes one gets a firstprivate copy (as gcc does).
        self.task_shared = set()
        self.env = kernel_scope(k)
        self.register_candidates = candidate_locals(body, self.env)
        self.unchanged_params = frozenset(  # the parameters' declarations in the kernel's scope
            id(self.env.lookup(cap.name).decl) for cap in k.captures
            if cap.name in self.plan.unchanged_captures and not is_array(resolve_typedef(cap.sym.type, k.env)))
        # In SPMD mode no serial local is shared with a region (the plan checked it): nothing
        # goes on the soft stack, every thread keeps its own copy of the serial code's locals.
        if not self.spmd:
            self.escaping, self.in_global_memory = _escaping_locals(body, self.env)
        params, aliases, promotions = [], [], []
        for cap in k.captures:
            t = resolve_typedef(cap.sym.type, k.env)
            name = _cxx_name(cap.name)
            if cap.how == "literal" and is_array(t):
                # A firstprivate array: passed by value, the kernel's own copy.
                value_t = f"ompgpu_by_value<{_by_value_type(t, cap.name, k.coord)}>"
                params.append((f"{value_t} {name}__value", value_t))
                if id(self.env.lookup(cap.name).decl) in self.escaping:
                    promotions.append(render("promote.j2", type=type_string(t), name=name, array=True).strip())
                else:
                    aliases.append(f"auto &{name} = {name}__value.v;")
            elif cap.how in ("literal", "pointer", "attach"):
                pt = cap.sym.type if cap.how == "literal" else decay(t if isinstance(t, c_ast.ArrayDecl) else cap.sym.type)
                # A parameter that a parallel region shares by address moves onto the soft stack.
                promoted = id(self.env.lookup(cap.name).decl) in self.escaping
                params.append((type_string(pt, name + "__param" if promoted else name), type_string(pt)))
                if promoted:
                    promotions.append(render("promote.j2", type=type_string(pt), name=name, array=False).strip())
            else:
                pt = c_ast.PtrDecl([], cap.sym.type)
                params.append((type_string(pt, name + "__map"), type_string(pt)))
                aliases.append(f"auto &{name} = *{name}__map;")
        privates = [self._declare_private(s) for s in k.privates]
        text = self._stmt_text(body)
        if k.teams is not None and not _combined_with_parallel(k):
            reds = self._reductions(k.teams)
            if reds:
                text = self._render("reduction_scope.j2", reds=reds, on_stack=self._on_master_stack(), body=text, barrier=False, team_size=self.team_size, whole_block=self.whole_block)
        bound = self.plan.max_threads
        packed = self.plan.packed_teams
        variants = [{"name": kname, "bounds": str(bound * packed),
                     "note": f"; {packed} teams of {bound} threads per block" if packed > 1 else ""}]
        # A grid loop of long iterations is latency-bound: a second instance asks ptxas for
        # DENSE_THREADS resident threads per SM (fewer registers, maybe a little spilled), and the
        # runtime launches it where it holds more teams without spilling much (target.cpp).
        dense_teams = DENSE_THREADS // bound
        if self.long_grid_loop and dense_teams >= 2 and packed == 1:
            variants.append({"name": f"{kname}__dense", "bounds": f"{bound}, {dense_teams}",
                             "note": f"; the instance for {dense_teams} resident teams per SM"})
        return {"name": kname, "coord": k.coord, "params": params, "aliases": aliases, "promotions": promotions,
                "privates": privates, "body": text, "max_threads": bound, "plan": self.plan,
                "mode": self.plan.mode, "lean": self.plan.lean, "combined": self.plan.combined, "variants": variants,
                "packed": packed}

    def _reductions(self, d: Directive) -> list[dict]:
        """What reduction_scope.j2 needs for each item of d's reduction clauses: a scalar, a
        whole array (any rank), or a one-dimensional array section `a[lo:len]`."""
        out = []
        for c in d.clauses:
            if c.kind != "reduction" or c.modifier == "inscan":  # inscan: the scan loop's own (_scan_loop)
                continue
            for item in c.items:
                name = _cxx_name(item.name)
                entry = {"op": RED_OPS[c.op], "name": name, "kind": "scalar"}
                sym = self._declared(item.name)
                t = resolve_typedef(sym.type, self.env) if sym is not None else None
                if item.members:
                    raise UnsupportedError(f"reduction over the struct member '{item.text}' is not supported yet", item.coord)
                if not item.sections:
                    if t is not None and is_array(t):
                        entry.update(kind="array", private_decl=type_string(sym.type, name + "__priv"),
                                     private_type=type_string(sym.type))
                    out.append(entry)
                    continue
                if len(item.sections) > 1 or not item.sections[0].is_range:
                    raise UnsupportedError(f"reduction over '{item.text}' is not supported yet (only whole arrays and "
                                           "one-dimensional array sections a[lower:length])", item.coord)
                sec = item.sections[0]
                lower = sec.lower.text if sec.lower is not None else "0"
                if sec.length is not None:
                    length = sec.length.text
                elif t is not None and isinstance(t, c_ast.ArrayDecl) and t.dim is not None:
                    length = f"({self.visit(t.dim)}) - ({lower})"
                else:
                    raise OmpSemanticError(f"the array section '{item.text}' needs a length (its array's size is not known)",
                                           item.coord)
                entry.update(kind="section", lower=lower, length=length, constant_length=int_constant(length))
                out.append(entry)
        return out

    def _on_master_stack(self) -> bool:
        """Whether code here runs on a generic kernel's master, whose locals a parallel region
        cannot reach (they must live on the soft stack to be shared)."""
        return self.master and not self.spmd and self.in_region == 0

    def _declared(self, name: str) -> Symbol | None:
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

    # ---- tasks ------------------------------------------------------------------------------
    def _task(self, n: OmpConstruct) -> str:
        """Tasks in device code run undeferred: the encountering thread executes the task (or,
        for taskloop, every iteration in order) at once, which OpenMP allows (an included
        task); `depend` (with iterators and depend objects too) is then satisfied by program
        order, taskwait/taskgroup wait for nothing, and `affinity` (a hint) has nothing to say.
        The data environment is the task's: private and firstprivate copies, explicit or by
        OpenMP's default rules (a variable the task writes that is not shared in the enclosing
        context is firstprivate)."""
        d = n.directive
        for c in d.clauses:
            if c.kind in ("detach", "in_reduction", "task_reduction"):
                raise UnsupportedError(f"'{c.kind}' on '#pragma omp {d.name}' in device code is not supported yet", c.coord)
        if d.leaves[0] == "taskgroup":
            return self._stmt_text(n.body)
        # (a reduction item of taskloop is combined into the original: not copied here)
        explicit = {item.name: c.kind for c in d.clauses
                    if c.kind in ("private", "firstprivate", "shared", "lastprivate", "reduction") for item in c.items}
        default = next((c.value for c in d.clauses if c.kind == "default"), None)
        loop_vars: tuple[str, ...] = ()
        if d.leaves[0] == "taskloop":
            loop_vars = loop_var_names(n.body, collapse_depth(d))
        uses = region_uses(n.body, self.env)
        copies = {name: "private" for name in loop_vars}
        for sym in uses.order:
            kind = explicit.get(sym.name)
            if kind in ("private", "firstprivate"):
                copies[sym.name] = kind
            elif kind is None and sym.name not in copies and sym in uses.written and not sym.is_global and \
                    default != "shared" and sym.name not in self.task_shared:
                copies[sym.name] = "firstprivate"
        for item_name, kind in explicit.items():  # listed but not used in the body
            if kind in ("private", "firstprivate") and item_name not in copies and self.env.lookup(item_name) is not None:
                copies[item_name] = kind
        text = self._stmt_text(n.body)
        if d.leaves[0] == "taskloop":
            reds = self._reductions(d)
            if reds:  # every iteration on this thread: one private copy, combined atomically
                text = self._render("reduction_scope.j2", reds=reds, on_stack=self._on_master_stack(), body=text, barrier=False, team_size="1u")
        return self._privatize_names(copies, text)

    def _privatize(self, d: Directive, text: str) -> str:
        """`text` (the code of a teams or distribute construct) in a scope where the construct's
        private and firstprivate variables are the team's own copies."""
        return self._privatize_names({item.name: c.kind for c in d.clauses if c.kind in ("private", "firstprivate")
                                      for item in c.items if item.is_plain}, text)

    def _privatize_names(self, copies: dict[str, str], text: str) -> str:
        """`text` in a scope where each named variable is a private or firstprivate copy."""
        decls = []
        for name_in_c, kind in copies.items():
            sym = self._declared(name_in_c)
            if sym is None:
                continue
            name = _cxx_name(name_in_c)
            t = resolve_typedef(sym.type, self.env)
            own = _unqualified(sym.type)  # the copy is written once, so it cannot be const
            decls.append(render("privatize.j2", kind=kind, name=name, type=type_string(own),
                                decl=type_string(own, name + "__priv"), array=is_array(t),
                                on_stack=self._on_master_stack()))
        if not decls:
            return text
        return "{\n" + "".join(decls) + text + "}\n"

    def _lastprivate(self, name: str, conditional: bool = False) -> dict:
        """A lastprivate variable for loop.j2: an array's private copy has its declared type
        (a kernel sees the original as a pointer to its first element). A conditional one
        (OpenMP 5.0) records the iteration of its last store in `iv` (see _conditional_store)."""
        sym = self._declared(name)
        array = sym is not None and is_array(resolve_typedef(sym.type, self.env))
        entry = {"name": _cxx_name(name), "array": type_string(sym.type, _cxx_name(name)) if array else None,
                 "conditional": conditional, "iv": None}
        if conditional:
            if array:
                raise OmpSemanticError(f"a 'lastprivate(conditional: ...)' item must be a scalar variable, and "
                                       f"'{name}' is an array", sym.decl.coord if sym is not None else None)
            self.g.conditional_count += 1
            entry["iv"] = f"{_cxx_name(name)}__cond{self.g.conditional_count}"
        return entry

    def _conditional_store(self, target: c_ast.Node, text: str) -> str:
        """A store to a lastprivate(conditional:) item (an assignment, ++ or --) also records
        the iteration that made it: the item's final value is the one of the sequentially last
        iteration that stored to it."""
        if self.conditional_stores and isinstance(target, c_ast.ID):
            entry = self.conditional_stores.get(_cxx_name(target.name))
            if entry is not None and self.env.lookup(target.name) is entry[0]:
                return f"({entry[1]} = {entry[2]}, {text})"
        return text

    def visit_Assignment(self, n):
        reg = self._register_of(n.lvalue)
        if reg is not None:  # write-through: the register and the variable
            return f"({_cxx_name(n.lvalue.name)} = ({reg} {n.op} ({self.visit(n.rvalue)})))"
        return self._conditional_store(n.lvalue, super().visit_Assignment(n))

    def visit_UnaryOp(self, n):
        reg = self._register_of(n.expr) if n.op in ("++", "--", "p++", "p--") else None
        if reg is not None:
            mem = _cxx_name(n.expr.name)
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

    def _held_loop(self, n: c_ast.Node, print_loop: Callable[[c_ast.Node], str]) -> str:
        """A loop of a parallel region: the team-shared scalars that it updates and that may
        live in a register meanwhile are read into one before it (shared_scalars.py)."""
        names = []
        if self.in_region and self.task_shared:
            for name in sorted((written_names(n) & self.task_shared) - set(self.in_register)):
                sym = self.env.lookup(name)
                if sym is not None and id(sym.decl) in self.register_candidates:
                    names.append((name, sym))
        if not names or not self.g.sync_free.code(n):
            return print_loop(n)
        loads = []
        for name, sym in names:
            self.g.register_count += 1
            reg = f"{_cxx_name(name)}__reg{self.g.register_count}"
            self.in_register[name] = (sym, reg)
            loads.append(f"auto {reg} = {_cxx_name(name)};")
        try:
            text = print_loop(n)
        finally:
            for name, _ in names:
                del self.in_register[name]
        return "{ " + " ".join(loads) + "  /* held in registers for the loop, written through */\n" + \
            self.indent() + text + "\n" + self.indent() + "}"

    def _declare_private(self, sym: Symbol) -> str:
        return type_string(sym.type, _cxx_name(sym.name)) + ";"

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
        saved, self.env = self.env, self.env.child()
        guarded = self.plan.guarded if self.spmd and self.in_region == 0 else frozenset()
        if any(id(item) in guarded for item in n.block_items or []):
            text = self._compound_with_guards(n.block_items, guarded)
        else:
            text = super().visit_Compound(n)
        self.env = saved
        return text

    def _compound_with_guards(self, items, guarded) -> str:
        """A block of SPMD serial code: each run of side-effect statements is executed by thread 0
        for the team, between two team barriers (before: every thread has done the reads that
        came earlier; after: the stores are visible). A team-shared local in a run is declared
        before it and initialized in it."""
        text = self.indent() + "{\n"
        self.indent_level += 2
        i = 0
        while i < len(items):
            if id(items[i]) not in guarded:
                text += self.statement(items[i])
                i += 1
                continue
            declared, run, seen_names = [], [], set()
            while i < len(items) and id(items[i]) in guarded:
                item = items[i]
                if isinstance(item, c_ast.Decl) and id(item) in self.plan.team_shared:
                    if item.name in seen_names:
                        break  # an earlier statement of the run means another variable by that name
                    declared.append(self._team_var(item, "declare"))
                    run.append(self._team_var(item, "init"))
                else:
                    run.append(self.statement(item))
                seen_names |= {x.name for x in walk_nodes(item) if isinstance(x, c_ast.ID)}
                i += 1
            text += "".join(declared) + self._render("stmt.j2", kind="guarded", body="".join(run), block=self.block)
        self.indent_level -= 2
        return text + self.indent() + "}\n"

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

    def _aligned(self) -> bool:
        """Whether a team barrier printed here is reached by every thread of a team whose size
        the compiler knows at this very instruction: inside a parallel region's work function,
        under no if/switch of it (OpenMP has every thread of the team meet the same barriers, so
        loops around it run alike on all of them)."""
        return self.team_size is not None and self.in_region > 0 and self.branch_depth == 0

    def visit_For(self, n):
        return self._held_loop(n, self._scoped_for)

    def _scoped_for(self, n):
        saved, self.env = self.env, self.env.child()
        text = super().visit_For(n)
        self.env = saved
        return text

    def visit_While(self, n):
        return self._held_loop(n, super().visit_While)

    def visit_DoWhile(self, n):
        return self._held_loop(n, super().visit_DoWhile)

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
                                           self._coord(n))
                elif name.startswith("omp_") and name not in OMP_DEVICE_API:
                    raise UnsupportedError(f"'{name}' is not an OpenMP routine that device code can call", self._coord(n))
                elif name not in DEVICE_LIBRARY and name not in OMP_DEVICE_API and not name.startswith("__builtin"):
                    raise UnsupportedError(f"function '{name}' is called in device code but has no definition in this file",
                                           self._coord(n), notes=(f"to call a '{name}' defined in another file or a library, "
                                                                   "declare it inside '#pragma omp declare target'",))
        return super().visit_FuncCall(n)

    def visit_Typedef(self, n):
        return "" if id(n) in self.g.hoisted else super().visit_Typedef(n)

    def visit_Decl(self, n, no_type=False):
        if no_type:
            return super().visit_Decl(n, no_type)
        if id(n) in self.g.hoisted:  # a type definition that moved to namespace scope
            return ""
        is_esc = id(n) in self.escaping and self.in_region == 0
        declare(self.env, n)
        if self.spmd and self.in_region == 0 and id(n) in self.plan.team_shared:
            return self._team_var(n).rstrip().rstrip(";")
        if not is_esc:
            if n.init is not None and _is_alloc_call(n.init) and is_pointer(n.type):
                d = copy.copy(n)
                d.init = c_ast.Cast(c_ast.Typename(None, [], None, _named(n.type, None)), n.init)
                return super().visit_Decl(d)
            return super().visit_Decl(n)
        # A master variable that a parallel region shares: globally addressable storage.
        if n.init is not None:
            init = self.visit(n.init) if not isinstance(n.init, c_ast.InitList) else "{" + self.visit(n.init) + "}"
        else:
            init = None
        return render("stack_var.j2", type=type_string(n.type), name=_cxx_name(n.name), init=init,
                      init_decl=type_string(n.type, _cxx_name(n.name) + "__init"),
                      in_global_memory=id(n) in self.in_global_memory,
                      alias=True, is_array=is_array(n.type) or isinstance(n.init, c_ast.InitList)).rstrip().rstrip(";")

    def _team_var(self, n: c_ast.Decl, part: str = "both") -> str:
        """A serial local of an SPMD kernel that regions share: the team's one copy (team_var.j2);
        part "declare" is its storage and name, "init" thread 0's initialization (to run
        inside a guarded block)."""
        if part != "init":
            declare(self.env, n)
        name = _cxx_name(n.name)
        init = None
        if n.init is not None and part != "declare":
            init = self.visit(n.init) if not isinstance(n.init, c_ast.InitList) else "{" + self.visit(n.init) + "}"
        # the declared type, completed from the initializer (`char s[] = "abc"`)
        sym = self.env.lookup(n.name)
        storage = copy.deepcopy(sym.type if sym is not None and sym.type is not None else n.type)
        _strip_quals(storage)
        return self._render("team_var.j2", block=self.block, part=part, storage_decl=type_string(storage, name + "__team"), name=name, init=init,
                      init_decl=type_string(n.type, name + "__init"),
                      is_array=is_array(n.type) or isinstance(n.init, c_ast.InitList))

    # -- OpenMP constructs ----------------------------------------------------------------
    def _coord(self, n) -> SourceCoord:
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
                return self._privatize(d, self._stmt_text(n.body))
            return self.visit_OmpConstruct(OmpConstruct(dataclasses.replace(d, name=" ".join(rest)), n.body, n.coord))
        if leaf in ("simd",):
            return self._simd(n)
        if leaf == "loop":
            return self._loop_construct(n)
        if leaf == "distribute":
            return self._distribute(n)
        if leaf == "parallel":
            return self._parallel(n)
        if leaf == "for":
            return self._workshare_for(n, d)
        if leaf in ("barrier",):
            return self._render("stmt.j2", kind="barrier", team_size=self.team_size, aligned=self._aligned(), whole_block=self.whole_block)
        if leaf == "flush":
            return self._render("stmt.j2", kind="flush")
        if leaf in ("task", "taskloop", "taskgroup"):
            return self._task(n)
        if leaf in ("taskwait", "taskyield", "depobj", "scan"):
            # scan: a loop run by one thread in order (simd) needs no phases (see _scan_loop)
            # depobj: a dependence object only ever orders device tasks, which run at once
            return self._render("stmt.j2", kind="nothing", what=d.name)
        if leaf == "single":
            if d.clause("copyprivate") is not None:
                raise UnsupportedError("'copyprivate' on '#pragma omp single' in device code is not supported yet",
                                       d.clause("copyprivate").coord or d.coord)
            # With the team known, thread 0 runs the block (any one thread may): no team state
            return self._render("stmt.j2", kind="single", body=self._privatize(d, self._stmt_text(n.body)), nowait=d.has("nowait"),
                          team_size=self.team_size, thread_num_known=self.thread_num_known, aligned=self._aligned(),
                          whole_block=self.whole_block)
        if leaf in ("master", "masked"):
            c = d.clause("filter")
            return self._render("stmt.j2", kind="master", body=self._stmt_text(n.body), filter=c.expr.text if c else "0",
                          thread_num_known=self.thread_num_known)
        if leaf == "critical":
            name = d.critical_name or "unnamed"
            self.g.critical_names.add(name)
            return self._render("stmt.j2", kind="critical", name=name, body=self._stmt_text(n.body))
        if leaf == "atomic":
            return self._atomic(n)
        if leaf == "sections":
            return self._sections(n)
        if leaf == "scope":
            return self._scope(n)
        if leaf == "section":
            return self._stmt_text(n.body)
        if d.name in ("declare target", "end declare target"):
            return ""
        raise UnsupportedError(f"'#pragma omp {d.name}' in device code is not supported yet", d.coord)

    def _stmt_text(self, body) -> str:
        if body is None:
            return ";\n"
        if isinstance(body, c_ast.Compound):
            return self.visit(body)
        return "{\n" + self.statement(body) + "}\n"

    # ---- parallel ----------------------------------------------------------------------
    def _parallel(self, n: OmpConstruct) -> str:
        d = n.directive
        rest = d.leaves[1:]
        body = n.body
        loop_vars: tuple[str, ...] = ()
        if rest and rest[0] in ("for", "loop"):
            loop_vars = loop_var_names(body, collapse_depth(d))
        elif rest and rest[0] not in ("for", "sections", "simd", "master", "masked", "loop"):
            raise UnsupportedError(f"'#pragma omp {d.name}' is not supported yet", d.coord)
        sharing = region_sharing(n, body, self.env, loop_vars=loop_vars)
        return self._outline(n, sharing, inner=(dataclasses.replace(d, name=" ".join(rest)) if rest else None))

    def _outline(self, n: OmpConstruct, sharing: Sharing, inner: Directive | None,
                 extra_values: tuple[tuple[str, str, str], ...] = (), range_from: tuple[str, str] | None = None,
                 grid_loop: bool = False, grid_tile_bytes: int | None = None) -> str:
        """Outline a parallel region into a work function; return the fork site."""
        d = n.directive
        self.g.next_workfn_id += 1
        wid = self.g.next_workfn_id
        line = d.coord.line
        wname = f"__omp_outlined_{self.owner.replace('__omp_offloading_', '')}_l{line}_{wid}"
        pack = f"{wname}_args"
        fields, field_names, inits, unpack = [], [], [], []
        spmd_site = self.spmd and self.in_region == 0
        nt = self._num_threads(d, spmd_site)
        if nt is None and d.clause("num_threads") is not None and spmd_site:
            self.g.remarks.append((d.clause("num_threads").coord, "num_threads of the parallel region is the kernel's "
                                   "thread_limit: its team is the whole block"))
        if spmd_site and nt is not None:
            # An SPMD region with num_threads: the team is the first __ts threads of the block;
            # the work function learns its size from the pack.
            extra_values = extra_values + (("unsigned", "__team_size", f"__ts{wid}"),)
        for sym in sharing.by_pointer:
            name = _cxx_name(sym.name)
            fields.append(type_string(c_ast.PtrDecl([], sym.type), name) + ";")
            field_names.append(name)
            inits.append(f"&{name}")
            unpack.append(f"auto &{name} = *__pack->{name};")
        param_fields = set()
        for sym in sharing.by_value:
            name = _cxx_name(sym.name)
            field_names.append(name)
            t = resolve_typedef(sym.type, self.env)
            if not spmd_site and self.in_region == 0 and self.plan is not None and id(sym.decl) in self.unchanged_params \
                    and id(sym.decl) not in self.escaping:
                param_fields.add(name)
            if is_array(t):  # firstprivate array: each thread copies it from the pack
                value_t = f"ompgpu_by_value<{_by_value_type(t, sym.name, d.coord)}>"
                fields.append(f"{value_t} {name};")
                inits.append(f"ompgpu_by_value_of({name})")
                unpack.append(f"auto {name}__value = __pack->{name}; auto &{name} = {name}__value.v;")
                continue
            fields.append(type_string(decay(sym.type), name) + ";")
            inits.append(name)
            unpack.append(f"auto {name} = __pack->{name};")
        for ftype, fname, fvalue in extra_values:
            fields.append(f"{ftype} {fname};")
            field_names.append(fname)
            inits.append(fvalue)
            unpack.append(f"const {ftype} {fname} = __pack->{fname};")
        privates = [type_string(s.type, _cxx_name(s.name)) + ";" for s in sharing.private
                    if s.name not in loop_var_names(n.body, collapse_depth(d))]
        # Body of the work function: a fresh emitter context where captured names are locals.
        sub = _Emitter(self.g, self.owner, self.env, master=False, plan=self.plan)
        sub.in_region = 1
        sub.team_size = self._known_team_size(d)
        # SPMD team-level region: without num_threads its team is the block; with it, the fork
        # site picks the work function's whole-block instance when the team came out whole.
        templated = spmd_site and nt is not None and sub.team_size is not None
        # (packed teams: a team is never the whole block)
        sub.whole_block = ("__whole_block" if templated else "true") \
            if spmd_site and sub.team_size is not None and not self.ids.packed else None
        sub.thread_num_known = sub.team_size is not None or (self.plan is not None and self.in_region == 0 and d.clause("if") is None)
        sub.task_shared = {sym.name for sym in sharing.by_pointer}
        sub.register_candidates = self.register_candidates
        sub.grid_loop = grid_loop
        sub.grid_tile_bytes = grid_tile_bytes
        sub.region_tail = _region_tail(n.body) if inner is None else None
        sub.called = self.called
        if inner is not None:
            body_text = sub._inner(OmpConstruct(inner, n.body, n.coord), range_from)
        else:
            body_text = sub._stmt_text(n.body)
        reds = self._reductions(d) if sharing.reductions else []
        if reds:
            body_text = self._render("reduction_scope.j2", reds=reds, on_stack=sub._on_master_stack(), body=body_text, barrier=False, team_size=sub.team_size, whole_block=sub.whole_block)
        wf_body = render("workfn_body.j2", pack=pack, unpack=unpack, privates=privates, body=body_text)
        # Two instances only where a barrier of the body tells them apart: the test at the fork
        # site cost EPCC's barrier-free `parallel` 0.023 us per region on an H100
        # (epcc-h100-80gb-hbm3-2026-11-25-1149.csv against -1126).
        templated = templated and "__whole_block" in wf_body
        self.g.workfns.append(WorkFunction(wid, wname, pack, fields, wf_body, self.owner, templated,
                                           tuple(field_names), frozenset(param_fields),
                                           reads_state=region_reads_thread_state(self.g.p, n)))
        self.g.regions_of.setdefault(self.owner, set()).add(wid)
        ifc = d.clause("if")
        combined = self.plan is not None and self.plan.combined
        # Only a team-level region is run by the whole block in SPMD mode; a region nested in
        # another takes the generic fork site, which serializes it (no master to fork from).
        return self._render("fork.j2", block=self.block, id=wid, wname=wname, pack=pack, inits=inits, mode="spmd" if spmd_site else "generic",
                      pack_from_params=self.g.workfns[-1].pack_from_params,
                      templated=templated,
                      stateful=spmd_site and not self.lean, combined=combined,
                      always_forks=not spmd_site and self.plan is not None and self.in_region == 0,
                      entry_barrier=spmd_site and not combined and self.plan.entry_barrier,
                      num_threads=nt.expr.text if nt else "0", if_cond=ifc.expr.text if ifc else None)

    def _num_threads(self, d: Directive, spmd_site: bool):
        """The num_threads clause that sizes a region's team, None when the team is the whole
        block: in an SPMD kernel's own code a num_threads written like the kernel's thread_limit
        asks for the block (KernelPlan.block_expr), so the region is forked as one without."""
        nt = d.clause("num_threads")
        if nt is not None and spmd_site and d.clause("if") is None and self.plan.block_expr is not None and \
                same_expression(nt.expr.text, self.plan.block_expr):
            return None
        return nt

    def _known_team_size(self, d: Directive) -> str | None:
        """The team of a region forked here, when known at compile time: a team-level region of a
        kernel (not of a device function, which any context may call) runs on the whole block
        (SPMD) or on all the workers (generic, when neither num_threads nor if can shrink it;
        the host always launches at least one worker warp, so such a region always forks)."""
        if self.plan is None or self.in_region != 0:
            return None
        if self.spmd:
            return "__team_size" if self._num_threads(d, True) is not None else self.block
        if d.clause("num_threads") is not None or d.clause("if") is not None:
            return None
        return f"({self.block} - 32u)"

    def _inner(self, n: OmpConstruct, range_from: tuple[str, str] | None) -> str:
        """The construct combined under `parallel` (for, sections, ...), inside the work function."""
        leaf = n.directive.leaves[0]
        if leaf in ("for", "loop"):
            return self._workshare_for(n, dataclasses.replace(n.directive, name="for"), range_from=range_from, combined=True)
        return self.visit_OmpConstruct(n)

    # ---- loops ---------------------------------------------------------------------------------
    def _loop_construct(self, n: OmpConstruct) -> str:
        """`loop`: distribute + parallel for at team level, for inside a parallel region."""
        d = n.directive
        if self.in_region:
            return self._workshare_for(n, dataclasses.replace(d, name="for"))
        return self._distribute(OmpConstruct(dataclasses.replace(d, name="distribute parallel for"), n.body, n.coord))

    def _analyze_loops(self, d: Directive, body: c_ast.Node) -> list[_Loop]:
        nest = loop_nest(body, collapse_depth(d))
        loops = [self._canonical(f, d) for f in nest]
        # A collapsed nest is dealt out as one iteration space computed before the loops run:
        # an inner loop's bounds may not depend on an outer loop's variable (OpenMP 5.0's
        # non-rectangular nests are not supported yet).
        outer: set[str] = set()
        for f, loop in zip(nest, loops):
            used = loop_header_names(f) - {loop.var}
            dependent = sorted(used & outer)
            if dependent:
                raise UnsupportedError(f"collapse of a non-rectangular loop nest (the bounds of the loop over "
                                       f"'{loop.var}' depend on '{dependent[0]}') is not supported yet", self._coord(f))
            outer.add(loop.var)
        return loops

    def _canonical(self, f: c_ast.For, d: Directive) -> _Loop:
        err = lambda why: UnsupportedError(f"loop of '#pragma omp {d.name}' is not in canonical form ({why})", self._coord(f))  # noqa: E731
        init = f.init
        if isinstance(init, c_ast.DeclList) and len(init.decls) == 1:
            decl = init.decls[0]
            var, vtype, lb = decl.name, type_string(decl.type), decl.init
            narrow = _is_narrow_integer(decl.type, self.env)
        elif isinstance(init, c_ast.Assignment) and init.op == "=" and isinstance(init.lvalue, c_ast.ID):
            var, lb = init.lvalue.name, init.rvalue
            sym = self.env.lookup(var)
            vtype = type_string(sym.type) if sym is not None and sym.type is not None else "long long"
            narrow = sym is not None and _is_narrow_integer(sym.type, self.env)
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
        step = step_expr if isinstance(step_expr, str) else self.visit(step_expr)
        if subtracted:
            step = f"-(long long)({step})"
        return _Loop(_cxx_name(var), vtype, self.visit(lb), self.visit(ub), step, op, narrow)

    def _loop_code(self, d: Directive, body: c_ast.Node, schedule_kind: str, chunk: str | None,
                   range_from: tuple[str, str] | None, lastprivate: list[str], nowait: bool, barrier: bool,
                   linear: tuple[tuple[str, str], ...] = (), barrier_before: bool = False,
                   phase: tuple[c_ast.Node, Callable[[str], str]] | None = None, tile_bytes: int | None = None) -> str:
        """A worksharing (or distribute, or serial) loop over d's loop nest. `phase`: print that
        statement and pass its text through the function, instead of the innermost loop's body
        (the two phases of a scan loop)."""
        loops = self._analyze_loops(d, body)
        loop_var_names = [l.var for l in loops]
        linear = tuple((_cxx_name(name), step) for name, step in linear if _cxx_name(name) not in loop_var_names)
        nest = loop_nest(body, len(loops))
        inner = nest[-1].stmt if phase is None else phase[0]
        # The loop variables are private: the template declares them, so the body's scope has them.
        conditional = {item.name for c in d.clauses if c.kind == "lastprivate" and c.modifier == "conditional"
                       for item in c.items}
        entries = [self._lastprivate(v, v in conditional) for v in lastprivate]
        saved, self.env = self.env, self.env.child()
        for f in nest:
            self._declare_loop_var(f)
        saved_stores = self.conditional_stores
        if conditional:
            self.g.conditional_count += 1
            now = f"__cond_iv{self.g.conditional_count}"
            self.conditional_stores = dict(saved_stores)
            self.conditional_stores.update({e["name"]: (self.env.lookup(name), e["iv"], now)
                                            for name, e in zip(lastprivate, entries) if e["conditional"]})
        else:
            now = None
        body_text = self._stmt_text(inner)
        if phase is not None:
            body_text = phase[1](body_text)
        # A team's loop whose iterations the user left to the implementation (no schedule) and
        # whose body is one store of a value read from memory: several iterations' reads go ahead
        # of their stores (loop.j2's batch). Not a loop over the grid: the host launches those
        # with about one iteration per thread where they are short (runtime/host/target.cpp).
        store = None
        if phase is None and not lastprivate and not linear and not conditional and d.clause("schedule") is None \
                and (schedule_kind, chunk) == ("static", "1"):
            store = _batchable_store(inner, self.env)
        batch = {"n": BATCH_ITERATIONS, "lhs": self.visit(store.lvalue), "rhs": self.visit(store.rvalue)} if store else None
        self.conditional_stores = saved_stores
        self.env = saved
        aligned = self._aligned()
        # A linear item is a lastprivate one whose private copy starts each iteration at its
        # original value plus the iteration's number times the step.
        lastprivate = entries + [{"name": name, "array": None, "conditional": False} for name, _ in linear]
        return self._render("loop.j2", loops=loops, schedule=schedule_kind, chunk=chunk, tile_bytes=tile_bytes, body=body_text, batch=batch, aligned=aligned,
                      range_from=range_from, lastprivate=lastprivate, iteration_now=now,
                      linear=[{"name": name, "step": step} for name, step in linear], barrier_before=bool(linear) and barrier_before,
                      loop_var_names=loop_var_names, barrier=barrier and not nowait, team_size=self.team_size,
                      whole_block=self.whole_block)

    def _scan_loop(self, n: OmpConstruct, d: Directive, kind: str, chunk: str | None, range_from) -> str:
        """A worksharing loop with inscan reductions (scan.j2): its body is split at its
        `#pragma omp scan` into the input phase and the scan phase, each run over every
        iteration by a loop of its own."""
        scans, names = [], []
        for c in d.clauses:
            if c.kind == "reduction" and c.modifier == "inscan":
                for item in c.items:
                    sym = self._declared(item.name)
                    t = resolve_typedef(sym.type, self.env) if sym is not None else None
                    if item.members or item.sections or t is None or is_array(t) or is_pointer(t):
                        raise UnsupportedError(f"an inscan reduction of '{item.text}' in device code is not supported "
                                               "yet (only scalar variables)", item.coord)
                    scans.append({"name": _cxx_name(item.name), "op": RED_OPS[c.op]})
                    names.append(item.name)
            elif c.kind in ("reduction", "lastprivate", "linear"):
                raise UnsupportedError(f"'{c.kind}' next to an inscan reduction in device code is not supported yet",
                                       c.coord)
        if range_from is not None or "distribute" in d.leaves:
            raise UnsupportedError(f"an inscan reduction on '#pragma omp {d.name}' in device code is not supported yet "
                                   "(only on loops of one team: for, parallel for, for simd, simd)", d.coord)
        if d.has("nowait"):
            raise UnsupportedError("an inscan reduction with 'nowait' in device code is not supported yet", d.coord)
        loops = self._analyze_loops(d, n.body)
        inner = loop_nest(n.body, len(loops))[-1].stmt
        items = (inner.block_items or []) if isinstance(inner, c_ast.Compound) else []
        at = [k for k, s in enumerate(items) if isinstance(s, OmpConstruct) and s.directive.name == "scan"]
        if len(at) != 1:
            raise OmpSemanticError("a loop with an inscan reduction must have exactly one '#pragma omp scan' directly "
                                   "in its body", d.coord)
        scan = items[at[0]].directive
        clause = scan.clauses[0]
        if sorted(item.name for item in clause.items) != sorted(names):
            raise OmpSemanticError("the list of '#pragma omp scan' must be the loop's inscan reduction items", clause.coord)
        before, after = items[:at[0]], items[at[0] + 1:]
        declared = {s.name for s in before if isinstance(s, c_ast.Decl) and s.name}
        used_after = {node.name for s in after for node in walk_nodes(s) if isinstance(node, c_ast.ID)}
        if declared & used_after:
            raise UnsupportedError(f"'{sorted(declared & used_after)[0]}', declared before '#pragma omp scan', is used after "
                                   "it: not supported yet in device code", scan.coord)
        input_part, scan_part = (before, after) if clause.kind == "inclusive" else (after, before)
        inclusive = clause.kind == "inclusive"

        def input_phase(text: str) -> str:
            fresh = "".join(f"{s['name']}__t {s['name']} = ompgpu_red_identity<{s['name']}__t>(ompgpu::{s['op']});\n"
                            for s in scans)
            store = "".join(f"{s['name']}__scan[__iv] = {s['name']};\n" for s in scans)
            return "{\n" + fresh + text + store + "}\n"

        def scan_phase(text: str) -> str:
            prefix = "".join(
                f"const {s['name']}__t {s['name']} = " +
                (f"{s['name']}__scan[__iv];\n" if inclusive
                 else f"__iv == 0 ? {s['name']}__initial : {s['name']}__scan[__iv - 1];\n") for s in scans)
            return "{\n" + prefix + text + "}\n"

        def phase_loop(part, wrap) -> str:
            return self._loop_code(d, n.body, kind, chunk, None, [], False, barrier=True,
                                   phase=(c_ast.Compound(list(part), coord=inner.coord), wrap))

        return self._render("scan.j2", scans=scans, trip_count=" * ".join(l.trip_count for l in loops), input_loop=phase_loop(input_part, input_phase),
                      scan_loop=phase_loop(scan_part, scan_phase), team_size=self.team_size, aligned=self._aligned(),
                      whole_block=self.whole_block)

    def _linear_items(self, d: Directive) -> tuple[tuple[str, str], ...]:
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
                sym = self._declared(item.name)
                t = resolve_typedef(sym.type, self.env) if sym is not None else None
                if t is None or not (is_pointer(t) or _is_integer_type(t, self.env)):
                    raise OmpSemanticError(f"linear item '{item.name}' must be of integer or pointer type", item.coord)
                out.append((item.name, c.step.text if c.step is not None else "1"))
        return tuple(out)

    def _declare_loop_var(self, f: c_ast.For) -> None:
        if isinstance(f.init, c_ast.DeclList):
            for decl in f.init.decls:
                declare(self.env, decl)
        elif isinstance(f.init, c_ast.Assignment) and isinstance(f.init.lvalue, c_ast.ID):
            outer = self.env.lookup(f.init.lvalue.name)
            if outer is not None and outer.kind == "var":
                # a fresh private copy, distinct from the outer variable it shadows
                self.env.add(Symbol(outer.name, "var", copy.copy(outer.decl), is_global=False))

    def _schedule(self, d: Directive) -> tuple[str, str | None]:
        c = d.clause("schedule")
        if c is None:
            # The default schedule is implementation-defined; on the GPU it is static with
            # chunk 1, so consecutive threads take consecutive iterations and their memory
            # accesses coalesce (one contiguous block per thread would stride them apart).
            return "static", "1"
        kind = c.schedule_kind if c.schedule_kind not in ("auto", "runtime") else "static"
        return kind, (c.chunk.text if c.chunk is not None else None)

    def _workshare_for(self, n: OmpConstruct, d: Directive, range_from=None, combined: bool = False) -> str:
        kind, chunk = self._schedule(d)
        if combined and self.grid_loop:
            kind, chunk = "grid", None
        if d.has("ordered"):
            raise UnsupportedError("'ordered' loops on the device are not supported yet", d.coord)
        if any(c.kind == "reduction" and c.modifier == "inscan" for c in d.clauses):
            return self._privatize(d, self._scan_loop(n, d, kind, chunk, range_from))
        lastp = [item.name for c in d.clauses if c.kind == "lastprivate" for item in c.items]
        # A `for` combined with `parallel` has its reductions done by the region; alone, by itself.
        reds = [] if combined else self._reductions(d)
        # The loop's implicit barrier is implied when the loop ends its parallel region: the
        # region's end joins the team (generic: the join barrier; SPMD: the region's closing
        # barrier, or the kernel's end, or the next chunk of the same distribute loop, whose
        # iterations are independent of this chunk's).
        barrier = not reds
        if barrier and not d.has("nowait") and (combined or id(n) == self.region_tail):
            barrier = False
            self.g.remarks.append((d.coord, f"implicit barrier of '#pragma omp {n.directive.name}' removed: the end of the "
                                            "parallel region synchronizes the team"))
        text = self._loop_code(d, n.body, kind, chunk, range_from, lastp, d.has("nowait"), barrier=barrier,
                               linear=self._linear_items(d), barrier_before=True,
                               tile_bytes=self.grid_tile_bytes if kind == "grid" else None)
        if reds:
            text = self._render("reduction_scope.j2", reds=reds, on_stack=self._on_master_stack(), body=text, barrier=not d.has("nowait"), team_size=self.team_size,
                                  whole_block=self.whole_block)
        # private/firstprivate of a `for` inside a parallel region: each thread's own copy (a
        # `parallel for` has them made by the region already)
        return text if combined else self._privatize(d, text)

    def _simd(self, n: OmpConstruct) -> str:
        """A simd loop runs as a serial loop of the thread that meets it. Its private and
        firstprivate items are that thread's copies; with linear items, the normalized loop
        sets each iteration's copy (the body need not advance it)."""
        d = n.directive
        linear = self._linear_items(d)
        if not linear:
            return self._privatize(d, self._stmt_text(n.body))
        lastp = [item.name for c in d.clauses if c.kind == "lastprivate" for item in c.items]
        return self._privatize(d, self._loop_code(d, n.body, "serial", None, None, lastp, True, barrier=False, linear=linear))

    def _distribute(self, n: OmpConstruct) -> str:
        d = n.directive
        rest = d.leaves[1:]
        if self.in_region:
            raise OmpSemanticError("'distribute' must be closely nested in a 'teams' region", d.coord)
        ds = d.clause("dist_schedule")
        dchunk = ds.chunk.text if ds is not None and ds.chunk is not None else None
        if not rest or rest == ("simd",):
            lastp = [item.name for c in d.clauses if c.kind == "lastprivate" for item in c.items]
            return self._privatize(d, self._loop_code(d, n.body, "distribute", dchunk, None, lastp, True, barrier=False))
        if rest[0] != "parallel":
            raise UnsupportedError(f"'#pragma omp {d.name}' is not supported yet", d.coord)
        # distribute parallel for: this team's block of iterations, then a parallel for over it.
        loops = self._analyze_loops(d, n.body)
        # Without a dist_schedule the distribute schedule is ours to choose, and so is the loop
        # schedule without a schedule clause; schedule(static) without a chunk may map
        # iterations to threads in any way that splits them into one chunk per thread. All
        # three get the coalesced mapping: with at least one iteration per thread of the grid,
        # chunks of one team's size dealt round-robin to the teams, each thread one iteration
        # of each chunk (a grid-stride loop: consecutive threads, consecutive iterations); with
        # fewer, a block of n / teams per team, one iteration per thread (every team busy).
        # One call of the region per team. SPMD kernels only.
        grid = (dchunk is None and self.spmd and d.clause("num_threads") is None
                and (d.clause("schedule") is None or self._schedule(d) == ("static", None)))
        # Iterations that are tiles (footprint.py) and no schedule clause: fewer threads in
        # flight, each a block of consecutive iterations (schedule(static) keeps one chunk per
        # thread of the grid).
        tile_bytes = None
        iteration = loop_nest(n.body, collapse_depth(d))[-1].stmt
        if grid and d.clause("schedule") is None:
            tile_bytes = tile_footprint(iteration, self.env)
            if tile_bytes is not None:
                self.g.remarks.append((d.coord, f"iterations of '#pragma omp {d.name}' are tiles of about {tile_bytes} "
                                                "bytes of cache lines: blocks of consecutive iterations on fewer threads, "
                                                "about L2 / that many at once"))
        if grid and tile_bytes is None and not short_iteration(iteration, self.g.p.functions):
            self.long_grid_loop = True
        pf = OmpConstruct(dataclasses.replace(d, name=" ".join(rest)), n.body, n.coord)
        loop_vars = loop_var_names(n.body, collapse_depth(d))
        sharing = region_sharing(pf, n.body, self.env, loop_vars=loop_vars)
        fork = self._outline(pf, sharing, inner=dataclasses.replace(d, name=" ".join(rest[1:])),
                             extra_values=(("long long", "__dist_lo", "__dist_lo"), ("long long", "__dist_hi", "__dist_hi")),
                             range_from=("__dist_lo", "__dist_hi"), grid_loop=grid, grid_tile_bytes=tile_bytes)
        return self._render("distribute_fork.j2", loops=loops, chunk=dchunk, fork=fork, whole=grid)

    # ---- misc constructs -------------------------------------------------------------------------
    def _sections(self, n: OmpConstruct) -> str:
        d = n.directive
        body = n.body
        items = body.block_items if isinstance(body, c_ast.Compound) else [body]
        secs = []
        for it in items or []:
            if isinstance(it, OmpConstruct) and it.directive.name == "section":
                secs.append(self._stmt_text(it.body))
            else:
                secs.append(self._stmt_text(it))
        return self._privatize(d, self._render("stmt.j2", kind="sections", sections=secs, nowait=d.has("nowait")))

    def _scope(self, n: OmpConstruct) -> str:
        """OpenMP 5.1 `scope`: every thread of the team runs the block, with its private and
        firstprivate copies; reductions combine into the shared variables; a team barrier ends
        it unless nowait (the reduction's own combine ends in that barrier)."""
        d = n.directive
        body = self._stmt_text(n.body)
        reds = self._reductions(d)
        if reds:
            text = self._render("reduction_scope.j2", reds=reds, on_stack=self._on_master_stack(), body=body,
                          barrier=not d.has("nowait"), team_size=self.team_size, whole_block=self.whole_block)
        elif d.has("nowait"):
            text = body
        else:
            text = body + self._render("stmt.j2", kind="barrier", team_size=self.team_size, aligned=self._aligned(),
                                 whole_block=self.whole_block)
        return self._privatize(d, text)

    def _atomic(self, n: OmpConstruct) -> str:
        text = self._atomic_operation(n)
        # The memory order (the clause, else `requires atomic_default_mem_order`, else relaxed):
        # CUDA's atomics are relaxed, so release and acquire become fences around the operation
        # (OpenMP: a seq_cst atomic implies a flush before and after it).
        order = next((c.kind for c in n.directive.clauses if c.kind in _MEMORY_ORDERS), self.g.default_mem_order)
        before = "__threadfence();\n" if order in ("seq_cst", "acq_rel", "release") else ""
        after = "__threadfence();\n" if order in ("seq_cst", "acq_rel", "acquire") else ""
        return before + text + after

    def _atomic_compare(self, stmt: c_ast.Node | None) -> str | None:
        """The device code of an OpenMP 5.1 `atomic compare` statement (no capture): the
        conditional-update forms with < or > (a minimum or maximum) and with == (a
        compare-and-swap); None for any other statement."""
        if isinstance(stmt, c_ast.Assignment) and stmt.op == "=" and isinstance(stmt.rvalue, c_ast.TernaryOp):
            # x = cond ? e : x
            x, t = self.visit(stmt.lvalue), stmt.rvalue
            if self.visit(t.iffalse) != x:
                return None
            cond, new = t.cond, t.iftrue
        elif isinstance(stmt, c_ast.If) and stmt.iffalse is None and isinstance(stmt.iftrue, c_ast.Compound):
            # if (cond) { x = e; }  (the braces are part of the form)
            then = stmt.iftrue.block_items
            if not (len(then or []) == 1 and isinstance(then[0], c_ast.Assignment) and then[0].op == "="):
                return None
            x, cond, new = self.visit(then[0].lvalue), stmt.cond, then[0].rvalue
        else:
            return None
        if not (isinstance(cond, c_ast.BinaryOp) and cond.op in ("<", ">", "==")):
            return None
        left, right, e = self.visit(cond.left), self.visit(cond.right), self.visit(new)
        if left == x and right != x:
            other, x_first = right, True
        elif right == x and left != x:
            other, x_first = left, False
        else:
            return None
        if cond.op == "==":
            # x == other ? d : x  /  if (x == other) x = d
            return f"ompgpu_atomic_compare_exchange(&({x}), {other}, {e});\n"
        if e != other:
            return None   # x = e < x ? f : x with f not e: not a form of OpenMP 5.1
        # e < x (or x > e) replaces x by a smaller value: a minimum; the other way a maximum.
        smaller = (cond.op == "<") != x_first
        return f"ompgpu_atomic_update(ompgpu::{'ATOMIC_MIN' if smaller else 'ATOMIC_MAX'}, &({x}), {e});\n"

    def _atomic_operation(self, n: OmpConstruct) -> str:
        d = n.directive
        kinds = [c.kind for c in d.clauses if c.kind in ("read", "write", "update", "capture", "compare")]
        kind = kinds[0] if kinds else "update"
        body = n.body
        stmts = body.block_items if isinstance(body, c_ast.Compound) else [body]
        stmts = [s for s in (stmts or []) if not isinstance(s, c_ast.EmptyStatement)]
        if "compare" in kinds:
            if "capture" in kinds:
                raise UnsupportedError("'atomic compare capture' is not supported yet", d.coord)
            text = self._atomic_compare(stmts[0] if len(stmts) == 1 else None)
            if text is None:
                raise UnsupportedError("statement form of 'atomic compare' is not recognised (expected "
                                       "'x = e < x ? e : x;', 'x = x == e ? d : x;', 'if (e < x) { x = e; }', "
                                       "'if (x == e) { x = d; }' or the same with > or the operands swapped)", d.coord)
            return text
        err = UnsupportedError(f"statement form of 'atomic {kind}' is not recognised", d.coord)
        if kind == "read":
            s = stmts[0] if len(stmts) == 1 else None
            if not (isinstance(s, c_ast.Assignment) and s.op == "="):
                raise err
            return f"{self.visit(s.lvalue)} = ompgpu_atomic_read(&({self.visit(s.rvalue)}));\n"
        if kind == "write":
            s = stmts[0] if len(stmts) == 1 else None
            if not (isinstance(s, c_ast.Assignment) and s.op == "="):
                raise err
            return f"ompgpu_atomic_write(&({self.visit(s.lvalue)}), {self.visit(s.rvalue)});\n"
        if kind == "update":
            if len(stmts) != 1:
                raise err
            upd = self._update_expr(stmts[0])
            if upd is None:
                raise err
            x, op, e, _ = upd
            return f"ompgpu_atomic_update(ompgpu::{op}, &({x}), {e});\n"
        # capture
        if len(stmts) == 1:
            s = stmts[0]
            if not (isinstance(s, c_ast.Assignment) and s.op == "="):
                raise err
            v = self.visit(s.lvalue)
            upd = self._update_expr(s.rvalue)
            if upd is None:
                raise err
            x, op, e, new = upd
            fn = "ompgpu_atomic_update_new" if new else "ompgpu_atomic_update"
            return f"{v} = {fn}(ompgpu::{op}, &({x}), {e});\n"
        if len(stmts) == 2:
            a, b = stmts
            if isinstance(a, c_ast.Assignment) and a.op == "=" and self._update_expr(b) is not None:
                x, op, e, _ = self._update_expr(b)
                if self.visit(a.rvalue) == x:
                    return f"{self.visit(a.lvalue)} = ompgpu_atomic_update(ompgpu::{op}, &({x}), {e});\n"
            if isinstance(b, c_ast.Assignment) and b.op == "=" and self._update_expr(a) is not None:
                x, op, e, _ = self._update_expr(a)
                if self.visit(b.rvalue) == x:
                    return f"{self.visit(b.lvalue)} = ompgpu_atomic_update_new(ompgpu::{op}, &({x}), {e});\n"
            if isinstance(a, c_ast.Assignment) and a.op == "=" and isinstance(b, c_ast.Assignment) and b.op == "=" \
                    and self.visit(a.rvalue) == self.visit(b.lvalue):
                # { v = x; x = e; }: atomic exchange
                x = self.visit(b.lvalue)
                return f"{self.visit(a.lvalue)} = ompgpu_atomic_update(ompgpu::ATOMIC_ASSIGN, &({x}), {self.visit(b.rvalue)});\n"
        raise err

    def _update_expr(self, s) -> tuple[str, str, str, bool] | None:
        """(x, op, e, yields_new) for x++, ++x, x--, --x, x op= e, x = x op e."""
        if isinstance(s, c_ast.UnaryOp) and s.op in ("++", "--", "p++", "p--"):
            op = "ATOMIC_ADD" if "+" in s.op else "ATOMIC_SUB"
            return self.visit(s.expr), op, "1", not s.op.startswith("p")
        if isinstance(s, c_ast.Assignment):
            x = self.visit(s.lvalue)
            if s.op != "=" and s.op[:-1] in ATOMIC_OPS:
                return x, ATOMIC_OPS[s.op[:-1]], self.visit(s.rvalue), True
            if s.op == "=" and isinstance(s.rvalue, c_ast.BinaryOp) and s.rvalue.op in ATOMIC_OPS:
                if self.visit(s.rvalue.left) == x:
                    return x, ATOMIC_OPS[s.rvalue.op], self.visit(s.rvalue.right), True
                if self.visit(s.rvalue.right) == x and s.rvalue.op in ("+", "*", "&", "|", "^"):
                    return x, ATOMIC_OPS[s.rvalue.op], self.visit(s.rvalue.left), True
        return None


def _mode_remark(kname: str, plan: KernelPlan, regions: int) -> str:
    if plan.mode == "spmd":
        text = f"kernel '{kname}' runs in SPMD mode; elided: {', '.join(plan.elided)}"
        if plan.team_shared_names:
            text += f"; serial locals shared with the parallel regions in shared memory: {', '.join(plan.team_shared_names)}"
        if plan.guarded:
            text += f"; {len(plan.guarded)} serial statement(s) run by thread 0 alone"
        if plan.needs_state is not None:
            text += f"; team state kept for {plan.needs_state.why} at {plan.needs_state.coord}"
        return text
    text = f"kernel '{kname}' uses generic (warp-specialized) mode: {regions} parallel region(s) reachable"
    if plan.not_spmd is not None:
        text += f"; not SPMD because of {plan.not_spmd.coord}: {plan.not_spmd.why}"
    else:
        text += "; SPMD was legal but --mode=generic forced generic"
    return text


def _combined_with_parallel(k: Kernel) -> bool:
    return k.teams is not None and "parallel" in k.teams.leaves


def _is_alloc_call(n) -> bool:
    return isinstance(n, c_ast.FuncCall) and isinstance(n.name, c_ast.ID) and n.name.name in ("malloc", "calloc", "realloc")


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


def _escaping_locals(body, env: Env) -> tuple[set[int], set[int]]:
    """id(decl) of master variables that a parallel region shares by address (or whose address
    is taken), and the subset that a region touches inside `critical`: those live in global
    memory, because a lock orders their accesses and compute-sanitizer's racecheck (which
    checks shared memory) cannot see that."""
    finder = _EscapeFinder(env)
    finder.visit(body)
    return finder.found, finder.in_critical


class _EscapeFinder(ScopedVisitor):
    def __init__(self, env: Env):
        super().__init__(env.child())
        self.found: set[int] = set()
        self.in_critical: set[int] = set()

    def visit_UnaryOp(self, n):
        if n.op == "&" and isinstance(n.expr, c_ast.ID):
            sym = self.env.lookup(n.expr.name)
            if sym is not None and sym.kind == "var" and not sym.is_global:
                self.found.add(id(sym.decl))
        self.visit(n.expr)

    def visit_OmpConstruct(self, n: OmpConstruct):
        d = n.directive
        leaves = d.leaves
        if "parallel" in leaves:
            idx = leaves.index("parallel")
            rest = leaves[idx + 1:]
            loop_vars = loop_var_names(n.body, collapse_depth(d)) if rest and rest[0] in ("for", "loop") else ()
            sharing = region_sharing(n, n.body, self.env, loop_vars=loop_vars)
            shared = {id(sym.decl) for sym in sharing.by_pointer if not sym.is_global}
            self.found |= shared
            self.in_critical |= shared & _names_in_critical(n.body, self.env)
            return  # code inside the region runs on workers: nothing there escapes
        if leaves[0] == "loop" or (leaves[0] == "teams" and "loop" in leaves):
            sharing = region_sharing(n, n.body, self.env, loop_vars=loop_var_names(n.body, collapse_depth(d)))
            for sym in sharing.by_pointer:
                if not sym.is_global:
                    self.found.add(id(sym.decl))
            return
        if n.body is not None:
            self.visit(n.body)




def _names_in_critical(body, env: Env) -> set[int]:
    """id(decl) of the outer variables that `critical` constructs inside `body` use."""
    found: set[int] = set()

    class _Walk(ScopedVisitor):
        def visit_OmpConstruct(self, n: OmpConstruct):
            if n.directive.leaves[0] == "critical" and n.body is not None:
                found.update(id(sym.decl) for sym in region_uses(n.body, self.env).order if not sym.is_global)
            elif n.body is not None:
                self.visit(n.body)

    _Walk(env.child()).visit(body)
    return found


def _set_declname(t: c_ast.Node, name: str | None) -> None:
    while not isinstance(t, c_ast.TypeDecl):
        t = t.type
    t.declname = name


def _reachable(roots, successors) -> set:
    """Every node reachable from `roots` (roots included) in the graph `successors` describes."""
    seen: set = set()
    todo = list(roots)
    while todo:
        node = todo.pop()
        if node not in seen:
            seen.add(node)
            todo.extend(successors(node))
    return seen
