"""The translation unit: which functions run on the device (the call graph), the user's
types and declare target globals at namespace scope, each kernel through kernel.py, and
the file rendered from device.cu.j2."""
from __future__ import annotations

import re

import copy
import dataclasses
import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from pycparser import c_ast

from ompgpu.analysis.library import OMP_DEVICE_API
from ompgpu.analysis.symbols import region_uses, walk_nodes
from ompgpu.codegen.cprint import finalize_line_markers
from ompgpu.codegen.render import render
from ompgpu.codegen.shared_scalars import SyncFree
from ompgpu.errors import OmpSemanticError, SourceCoord, UnsupportedError
from ompgpu.outliner.outline import Kernel, Program, unique_kernel_names
from ompgpu.parser.bind import default_mem_order
from ompgpu.plan.combine import capture_roles
from ompgpu.plan.mode import KernelPlan
from ompgpu.plan.persistent_loops import LoopPlan
from ompgpu.codegen.device import kernel, parallel, persistent, printer
from ompgpu.codegen.device.cdecl import (CGen, has_body, anonymous_tag, base_type, tag_keys, variably_modified,
                                         local_declarations)


@dataclass(frozen=True)
class LaunchShape:
    """How the host launches one compiled kernel (an instance: the kernel or its dense twin)."""
    params: int          # the kernel's parameters from the host's arguments
    packed: int          # teams per block (1: a team per block; more: one more parameter, the number of teams)
    team_threads: int    # the team size a packed kernel is compiled for (its launch bound)
    scratch: int = 0     # 1: one more parameter, the launch's zeroed scratch (inner loops spread across the grid)
    combine: int = 0     # 1: one more parameter, last: the launch's mask of combined atomic updates
    cooperative: int = 0  # 1: launched cooperatively, every block resident (a persistent loop's kernel)
    generic: int = 0     # 1: one more parameter, last: the team's thread limit (a generic kernel's workers are whole warps)


def device_global_symbol(name: str) -> str:
    """The symbol of the declare target variable `name` in the device code: it lives in namespace
    ompgpu_user (device.cu.j2) with external linkage, so its name is mangled as the Itanium C++
    ABI mangles a namespace-scope variable (what the runtime looks up in a device image)."""
    return f"_ZN11ompgpu_user{len(name)}{name}E"


@dataclass
class DeviceOutput:
    cuda: str
    kernel_names: dict[int, str]
    kernel_modes: dict[int, str]  # by id(kernel): "spmd" or "generic"
    remarks: list[tuple] = field(default_factory=list)  # (coord, message[, "analysis"])
    globals: tuple[str, ...] = ()  # declare target variables whose device copies this file defines
    kernel_max_threads: dict[int, int] = field(default_factory=dict)  # by id(kernel): launch bound
    # id() of the kernels that also have an instance compiled for more resident teams
    kernel_dense: frozenset[int] = frozenset()
    external_device_code: bool = False  # calls device functions of other files: relocatable device code
    defines_functions: bool = False  # defines device functions (declare target, or called by kernels)
    # `declare target indirect` functions defined here, and the name of the device object's
    # function that gives their device addresses (None: there are none).
    indirect_functions: tuple[str, ...] = ()
    indirect_table: str | None = None
    indirect_calls: bool = False  # calls through function pointers (the launch stub sets the device's table)
    launch_shapes: dict[str, LaunchShape] = field(default_factory=dict)  # by kernel instance name
    kernel_scratch: dict[int, int] = field(default_factory=dict)   # by id(kernel): scratch bytes per team (spread)
    # by id(kernel): plan/combine.py capture_roles of a kernel whose atomic updates blocks combine
    kernel_combine: dict[int, tuple[int, ...]] = field(default_factory=dict)
    # id() of the kernels whose grid loop's teams take a tile of iterations at a time (loop.j2
    # team_tile): the host counts the loop's iterations in whole tiles and launches a team per tile
    kernel_grid_tiles: frozenset[int] = frozenset()
    # Device code other files may name: a declare target variable, or a device function with
    # external linkage (relocatable device code where the file is compiled with -c).
    exports_device_symbols: bool = False
    # The persistent loops emitted (the planned ones but those whose regions' teams per block changed)
    loops: LoopPlan | None = None


def indirect_table_name(path: str) -> str:
    """The extern "C" name, unique to the source file, of the function of its device object
    that writes the device addresses of its indirect functions (host.c.j2 registers it)."""
    return "__ompgpu_indirect_" + hashlib.sha1(str(Path(path).resolve()).encode("utf-8", "surrogateescape")).hexdigest()[:16]


def generate_device(program: Program, plans: dict[int, KernelPlan], loops: LoopPlan | None = None) -> DeviceOutput:
    return DeviceGenerator(program, plans, loops).run()


class DeviceGenerator:
    def __init__(self, program: Program, plans: dict[int, KernelPlan], loops: LoopPlan | None = None):
        self.p = program
        self.loops = loops if loops is not None else LoopPlan((), ())
        self.region_kernels = self.loops.kernel_ids()   # kernels whose code a persistent loop calls too
        self.plans = dict(plans)  # _kernel may take a kernel's packed teams back
        self.default_mem_order = default_mem_order(program.bound)
        self.workfns: list[parallel.WorkFunction] = []
        self.next_workfn_id = 0
        self.conditional_count = 0  # names the variables of lastprivate(conditional:) items apart
        self.register_count = 0  # names the registers of team-shared scalars apart (shared_scalars.py)
        self.staged_count = 0  # names the shared-memory copies of team segments apart (worksharing.py)
        self.sync_free = SyncFree(program.functions)
        self.global_names: list[str] = []  # declare target variables defined here
        self.critical_names: set[str] = set()
        self.remarks: list[tuple] = []  # (coord, message[, "analysis"])
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
        self.indirect_calls = False  # device code calls through function pointers (indirect.cuh)
        # kernels (by name) with a grid loop whose teams take it a tile at a time (loop.j2 team_tile)
        self.grid_tiled: set[str] = set()

    # -- call graph --------------------------------------------------------------
    def _device_functions(self) -> set[str]:
        """Functions defined in the file that device code reaches (declare target or called)."""
        def defined(names):  # user definitions; the device omp_* API is the runtime's
            return [c for c in names if c in self.p.functions and c not in OMP_DEVICE_API]

        roots = [c for k in self.p.kernels for c in region_uses(k.construct, k.env).calls]
        roots += [name for name in self.p.functions if name in self.p.bound.declare_target]
        return reachable(defined(roots), lambda f: defined(region_uses(self.p.functions[f].body, self.p.globals_env).calls))

    def _kernel(self, k: Kernel, kname: str) -> dict:
        """Emit kernel k (its work functions join self.workfns). A kernel planned with packed
        teams keeps them only where its code and its work functions name nothing of the block
        (kernel.packed_team_blocker): else it is emitted again with a team per block."""
        plan = self.plans[id(k)]
        if plan.team_shape is not None:
            self.remarks.append((k.coord, f"{kname}: {plan.team_shape}"))
        saved = self._snapshot() if plan.packed_teams > 1 else None
        em = printer.Emitter(self, kname, k.env, master=True, plan=plan)
        kt = kernel.emit_kernel(em, k, kname, id(k) in self.region_kernels)
        if saved is not None:
            new_workfns = self.workfns[saved["workfns"]:]
            why = kernel.packed_team_blocker([kt["body"], *kt["aliases"], *kt["privates"], *kt["promotions"],
                                       *(w.body for w in new_workfns)],
                                      sorted(c for c in em.called if c in self.p.functions))
            if why is not None:
                self._restore(saved)
                self.plans[id(k)] = plan = dataclasses.replace(plan, packed_teams=1)
                em = printer.Emitter(self, kname, k.env, master=True, plan=plan)
                kt = kernel.emit_kernel(em, k, kname)
                self.remarks.append((k.coord, f"{kname}: teams not packed, a team per block: {why}"))
            else:
                self.remarks.append((k.coord, f"{kname}: packed teams, {plan.packed_teams} teams of "
                                               f"{plan.max_threads} threads per block"))
        if plan.spread:
            self.remarks.append((k.coord, f"{kname}: inner loops promoted across the grid: where the distribute "
                                           "loop has at most half as many iterations as the launch has teams, each "
                                           "iteration runs on several teams; otherwise an iteration whose parallel "
                                           "loop is long is shared out in chunks to the teams that have run their "
                                           "own; the last chunk combines the reductions and runs the rest"))
        elif plan.spread_blocker is not None:
            self.remarks.append((k.coord, f"{kname}: inner loops not promoted across the grid: {plan.spread_blocker}"))
        if plan.combine_atomics:
            names = ", ".join(f"'{n}'" for n in plan.combine_atomics)
            self.remarks.append((k.coord, f"{kname}: atomic updates of {names} summed per block before they reach "
                                           "memory, where the launch finds each apart from the kernel's other data"))
        self.calls[kname] = em.called
        return kt

    def _snapshot(self) -> dict:
        """What emitting a kernel adds to the generator, to take back (see _kernel)."""
        return {"workfns": len(self.workfns), "next_workfn_id": self.next_workfn_id, "remarks": len(self.remarks),
                "conditional_count": self.conditional_count, "register_count": self.register_count,
                "staged_count": self.staged_count,
                "critical_names": set(self.critical_names), "external_calls": set(self.external_calls),
                "global_names": list(self.global_names), "hoisted": set(self.hoisted),
                "regions_of": {f: set(ids) for f, ids in self.regions_of.items()}}

    def _restore(self, saved: dict) -> None:
        del self.workfns[saved["workfns"]:]
        del self.remarks[saved["remarks"]:]
        self.next_workfn_id = saved["next_workfn_id"]
        self.conditional_count = saved["conditional_count"]
        self.register_count = saved["register_count"]
        self.staged_count = saved["staged_count"]
        self.critical_names = saved["critical_names"]
        self.external_calls = saved["external_calls"]
        self.global_names = saved["global_names"]
        self.hoisted = saved["hoisted"]
        self.regions_of = saved["regions_of"]

    def run(self) -> DeviceOutput:
        names = unique_kernel_names(self.p.kernels)
        device_fns = self._device_functions()
        # Functions whose host code the binder resolved for the host alone: device code may not call them.
        host_only = [(name, coord, f"this metadirective takes a different variant on the GPU than on the host, and "
                      f"'{name}' runs on both (target regions call it); that is not supported yet (declare the "
                      "function in a declare target block)") for name, coord in self.p.bound.host_variant_functions]
        host_only += [(name, coord, f"'{name}' is defined in a 'begin declare variant' block whose context selector "
                       "matches the host but not the GPU, and target regions call it: a device variant of it is not "
                       "supported yet") for name, coord in self.p.bound.host_only_variant_functions]
        for name, coord, message in host_only:
            if name in device_fns:
                raise UnsupportedError(message, coord)
        self.device_fns = device_fns
        self._check_device_function_globals(device_fns)
        types = self._type_decls()  # first: it says which local type definitions move out
        order = [n for n in self.p.functions if n in device_fns]  # source order
        fn_texts, protos = [], []
        for name in order:
            fn = self.p.functions[name]
            # Conservatively, any device function may run on a team's master: its shared
            # locals go on the soft stack.
            em = printer.Emitter(self, name, self.p.globals_env, master=True)
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
            code = reachable([kt["name"]], lambda f: self.calls.get(f, ()))
            reach = set().union(*(self.regions_of.get(f, set()) for f in code))
            kt["workfns"] = [w for w in self.workfns if w.id in reach]
            self.remarks.append((kt["coord"], kernel.mode_remark(kt["name"], kt["plan"], len(kt["workfns"]))))
        parts = {id(k): kt for k, kt in zip(self.p.kernels, kernels)}
        self._drop_unpacked_loops()
        loops = []
        for loop in self.loops.loops:
            em = printer.Emitter(self, loop.name, loop.env, master=False)
            loops.append(persistent.emit_loop(em, loop, parts))
            self.calls[loop.name] = em.called
        self.remarks += self.loops.remarks
        globals_ = self._device_globals()
        protos += [printer.Emitter(self, "", self.p.globals_env, master=False).prototype(c_ast.FuncDef(self.external_decls[n], None, None),
                                                                                  extern=True)
                   for n in sorted(self.external_calls)]
        indirect = [n for n in order if n in self.p.bound.indirect_functions]
        indirect_table = indirect_table_name(self.p.bound.pre.path) if indirect else None
        cuda = render("device.cu.j2", source=self.p.bound.pre.path, types=types, globals=globals_,
                      prototypes=protos, workfns=self.workfns, functions=fn_texts, kernels=kernels, loops=loops,
                      critical_names=sorted(self.critical_names), global_names=self.global_names,
                      indirect_calls=self.indirect_calls, indirect_functions=indirect, indirect_table=indirect_table)
        cuda = escape_source_bytes(finalize_line_markers(cuda, Path(self.p.bound.pre.path).stem + ".device.cu"))
        modes = {id(k): self.plans[id(k)].mode for k in self.p.kernels}
        max_threads = {id(k): self.plans[id(k)].max_threads for k in self.p.kernels}
        dense = frozenset(id(k) for k, kt in zip(self.p.kernels, kernels) if len(kt["variants"]) > 1)
        return DeviceOutput(cuda, names, modes, self.remarks, tuple(self.global_names), max_threads, dense,
                            external_device_code=bool(self.external_calls), defines_functions=bool(fn_texts),
                            indirect_functions=tuple(indirect), indirect_table=indirect_table,
                            indirect_calls=self.indirect_calls,
                            exports_device_symbols=bool(self.global_names) or any(
                                "static" not in (self.p.functions[n].decl.storage or []) for n in order),
                            kernel_scratch={id(k): kt["spread_bytes"] for k, kt in zip(self.p.kernels, kernels)},
                            kernel_grid_tiles=frozenset(id(k) for k, kt in zip(self.p.kernels, kernels)
                                                        if kt["name"] in self.grid_tiled),
                            kernel_combine={id(k): capture_roles(k, self.plans[id(k)].combine_atomics)
                                            for k in self.p.kernels if self.plans[id(k)].combine_atomics},
                            launch_shapes={v["name"]: LaunchShape(len(kt["params"]), kt["packed"], kt["max_threads"],
                                                                  1 if kt["spread_bytes"] else 0, 1 if kt["combine"] else 0,
                                                                  generic=1 if kt["mode"] == "generic" else 0)
                                           for kt in kernels for v in kt["variants"]}
                                          | {lt["name"]: LaunchShape(5, 1, lt["threads"], cooperative=1) for lt in loops},
                            loops=self.loops)

    def _drop_unpacked_loops(self) -> None:
        """Keep the persistent loops whose regions were emitted with as many teams per block as
        the loop was planned for (its block's width): a packed kernel whose code names the block
        runs a team per block instead (_kernel), and the loop then runs as written."""
        kept, dropped = [], {}
        for loop in self.loops.loops:
            changed = [k for k, packed in zip(loop.kernels, loop.packed) if self.plans[id(k)].packed_teams != packed]
            if changed:
                dropped[loop.name] = (loop.coord, f"the host loop of {len(loop.kernels)} target region(s) runs as "
                                      f"written, a kernel launch per region and iteration: the target region at "
                                      f"{changed[0].coord} runs a team per block, not the packed teams the loop's "
                                      "blocks were sized for")
            else:
                kept.append(loop)
        if dropped:
            remarks = [r for r in self.loops.remarks if not any(f"'{name}'" in r[1] for name in dropped)]
            remarks += [(coord, message, "missed") for coord, message in dropped.values()]
            self.loops = LoopPlan(tuple(kept), tuple(remarks))
            self.region_kernels = self.loops.kernel_ids()

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
            tag = anonymous_tag(anonymous) if anonymous is not None else None
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
                if local and variably_modified(node.type):
                    return  # needs the function's variables: stays a local typedef
                base = base_type(node.type)
                anonymous = base if isinstance(base, (c_ast.Struct, c_ast.Union, c_ast.Enum)) and has_body(base) \
                    and base.name is None else None
                add(node, [f"typedef {node.name}"] + tag_keys(base), definer.visit(node), anonymous)
                if local:
                    self.hoisted.add(id(node))
            elif isinstance(node, c_ast.Decl) and not isinstance(node.type, c_ast.FuncDecl):
                tagged = base_type(node.type)
                if isinstance(tagged, (c_ast.Struct, c_ast.Union, c_ast.Enum)) and has_body(tagged):
                    # `struct S {...};` or `struct S {...} s;`: the type only (variables are not device data)
                    add(node, tag_keys(tagged) or [anonymous_tag(tagged)], definer.visit(tagged),
                        tagged if tagged.name is None else None)
                    if local and node.name is None:
                        self.hoisted.add(id(node))

        for node in self.p.bound.ast.ext:
            if self._is_user_decl(node):
                take(node, local=False)
        hosts = {k.function for k in self.p.kernels} | set(self.device_fns)
        for name, fn in self.p.functions.items():
            if name in hosts:
                for node in local_declarations(fn.body):
                    take(node, local=True)
        return out

    def _check_device_function_globals(self, device_fns: set[str]) -> None:
        """A device function reaches file-scope variables of the user's only where they are declare
        target: the device has no copy of the others (a target region's own references map them;
        a function's cannot). gcc rejects the same ("referenced in offloaded code but hasn't been
        marked to be included in the offloaded code")."""
        for name in (n for n in self.p.functions if n in device_fns):
            body = self.p.functions[name].body
            for sym in region_uses(body, self.p.globals_env).order:
                if sym.kind != "var" or not sym.is_global or sym.name in self.p.bound.declare_target \
                        or not self._is_user_decl(sym.decl):
                    continue
                uses = [n for n in walk_nodes(body) if isinstance(n, c_ast.ID) and n.name == sym.name and n.coord]
                use = min(uses, key=lambda n: (n.coord.line, n.coord.column), default=body)
                raise OmpSemanticError(
                    f"'{sym.name}' is used in '{name}', which runs on the device, but it is not declare target",
                    self.user_coord(use),
                    (f"declare it inside '#pragma omp declare target' ... '#pragma omp end declare target', or "
                     f"with '#pragma omp declare target({sym.name})', so that the device has a copy of it",))

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


def reachable(roots, successors) -> set:
    """Every node reachable from `roots` (roots included) in the graph `successors` describes."""
    seen: set = set()
    todo = list(roots)
    while todo:
        node = todo.pop()
        if node not in seen:
            seen.add(node)
            todo.extend(successors(node))
    return seen


# A byte of the source that is not UTF-8 (a Latin-1 character in a string literal) reaches the
# text as a lone surrogate (surrogateescape). nvcc's front end rejects such a byte ("invalid
# multibyte character sequence") where gcc takes it; the same byte as an octal escape means the
# same in any C or C++ string or character literal, and such bytes occur nowhere else (the
# preprocessor has removed the comments).
_RAW_BYTE = re.compile("[\udc80-\udcff]")


def escape_source_bytes(text: str) -> str:
    """The device code with each raw non-UTF-8 byte written as a three-digit octal escape."""
    return _RAW_BYTE.sub(lambda m: "\\%03o" % (ord(m.group()) - 0xDC00), text)
