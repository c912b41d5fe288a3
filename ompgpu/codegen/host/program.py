"""Host code generation: the preprocessed program with its target constructs replaced.

The host compiler sees the preprocessed text of the user's file (real headers, GNU
extensions and all). Each host-level construct (target region, target data, enter/exit
data, update) is spliced out by its extent in that text and replaced with calls into the
host runtime; a target region keeps its original text as the host fallback, which the
host compiler builds with -fopenmp. Line markers keep the user's line numbers.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from ompgpu.analysis.symbols import is_pointer, resolve_typedef
from ompgpu.codegen.device.program import LaunchShape, device_global_symbol
from ompgpu.analysis.footprint import TEAM_TILE, short_iteration
from ompgpu.codegen.render import render
from ompgpu.errors import UnsupportedError
from ompgpu.outliner.outline import Kernel, Program, target_kind
from ompgpu.plan.persistent_loops import LoopPlan, PersistentLoop

from ompgpu.parser.bind import OmpConstruct, collapse_depth, loop_nest
from ompgpu.codegen.host import persistent
from ompgpu.codegen.host.trip_counts import nest_trip_count
from ompgpu.codegen.host.maps import data_maps, kernel_maps, update_sections
from ompgpu.codegen.host.allocate_directive import lower_allocate_directives
from ompgpu.codegen.host.allocators import allocator_setup, lower_trait_allocators
from ompgpu.codegen.host.dispatch import lower_dispatch
from ompgpu.codegen.host.interop import lower_interop, without_offload as interop_without_offload
from ompgpu.codegen.host.compat import lower_for_host_compiler, split_loop_leaf, split_target_leaf
from ompgpu.codegen.host.pragmas import blank_lines, host_fallback, host_pragma_lines
from ompgpu.codegen.host.source_text import line_offsets, refer_to_device, rename_names, statement_end
from ompgpu.codegen.host.tasks import data_task_vars, kernel_task_vars, target_task


# Host OpenMP device-memory API calls that ompgpu's runtime implements (libgomp has its own).
RENAMED_HOST_API = ("omp_target_alloc", "omp_target_free", "omp_target_memcpy", "omp_target_memcpy_rect", "omp_target_is_present",
                    "omp_target_associate_ptr", "omp_target_disassociate_ptr", "omp_get_num_devices",
                    "omp_get_default_device", "omp_set_default_device", "omp_get_initial_device",
                    "omp_is_initial_device", "omp_get_device_num", "omp_get_mapped_ptr", "omp_target_memcpy_async",
                    "omp_target_memcpy_rect_async")


# The names, or a string literal or character constant (which keep their text: a message that
# names omp_target_alloc prints as written).
_LITERALS = r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|'
_RENAME_RE = re.compile(_LITERALS + r"\b(" + "|".join(RENAMED_HOST_API) + r")\b")

# The C library's heap functions, which a file that requires unified_shared_memory calls as
# ompgpu_usm_* (runtime/host/usm.cpp: managed memory where a device cannot reach pageable
# memory); not members (`s.free`), not inside literals.
_HEAP_FUNCTIONS = ("malloc", "calloc", "realloc", "aligned_alloc", "posix_memalign", "free")
_HEAP_RE = re.compile(_LITERALS + r"(?<!\.)(?<!->)\b(" + "|".join(_HEAP_FUNCTIONS) + r")\b")


@dataclass(frozen=True)
class DeviceImage:
    """The file's device code compiled on its own, as data of its host object (the driver
    assembles it under `symbol`): the host code launches its kernels through the runtime
    (runtime/host/image.cpp) instead of launch stubs in a device object."""
    symbol: str
    shapes: dict[str, LaunchShape] = field(default_factory=dict)   # by kernel instance name
    indirect_calls: bool = False   # its device code calls through function pointers: the runtime sets the table
    # relocatable device code compiled by NVRTC (-rdc): `symbol` is the program's linked image,
    # which the link defines (nvJitLink); weak, so that a link without it fails at the launch
    relocatable: bool = False


def generate_host(program: Program, kernel_names: dict[int, str], offload: str, device_globals: tuple[str, ...] = (),
                  kernel_modes: dict[int, str] | None = None, kernel_max_threads: dict[int, int] | None = None,
                  offload_arch: str = "sm_90", kernel_dense: frozenset[int] = frozenset(),
                  host_gaps: frozenset[str] = frozenset(), indirect_functions: tuple[str, ...] = (),
                  indirect_table: str | None = None, image: DeviceImage | None = None,
                  kernel_scratch: dict[int, int] | None = None,
                  kernel_combine: dict[int, tuple[int, ...]] | None = None, loops: LoopPlan | None = None,
                  kernel_grid_tiles: frozenset[int] = frozenset()) -> str:
    """The host code of the file; `host_gaps` names the OpenMP the host compiler lacks
    (compat.host_openmp_gaps), which the host code gets lowered. `kernel_grid_tiles`: id() of the
    kernels whose grid loop's teams take a tile of iterations at a time (device
    DeviceOutput.kernel_grid_tiles)."""
    pre = program.bound.pre
    text = rename_names(blank_lines(pre.text, program.bound.host_blank_lines), program.bound.host_renames)
    text = lower_allocate_directives(text, program.bound.ast)
    text = host_pragma_lines(text, program.bound.imperfect_collapses, offload_arch, offload)
    text = lower_dispatch(text, program.bound.ast, offload, offload_arch)
    text = lower_interop(text, program.bound.ast, offload)
    text = lower_for_host_compiler(text, program.bound.ast, host_gaps, offload)
    if offload == "none":
        return interop_without_offload(lower_trait_allocators(text, program.bound.ast))
    text = _rename_host_api(text, pre)
    if _requires(program, "unified_shared_memory"):
        text = _rename_in_user_lines(text, pre, _HEAP_RE, "ompgpu_usm_")
    line_starts = line_offsets(text)
    kernels = {id(k.construct): k for k in program.kernels}
    spans = []
    for c in program.host_constructs:
        start = line_starts[c.coord.line - 1]
        body_start = line_starts[c.coord.line] if c.coord.line < len(line_starts) else len(text)
        end = body_start if c.body is None else statement_end(text, body_start, c)
        spans.append((start, end, body_start, c))
    descs, locs = [], []
    for loop in (loops.loops if loops is not None else ()):
        span = persistent.loop_span(text, line_starts, loop)
        if span is not None:
            spans.append((span[0], span[1], span[0], loop))
            descs.append(persistent.loop_desc(loop))
    link_globals = _link_globals(program)

    def replace(lo: int, hi: int, inner: list) -> str:
        """Text of [lo, hi) with the constructs in `inner` (sorted, non-overlapping at this level) replaced."""
        out, pos = [], lo
        i = 0
        while i < len(inner):
            start, end, body_start, c = inner[i]
            nested = [s for s in inner[i + 1:] if s[0] >= start and s[1] <= end]
            out.append(text[pos:start])
            out.append(construct_text(start, end, body_start, c, nested))
            out.append(_line_marker(pre, text, end, line_starts))
            pos = end
            i += 1 + len(nested)
        out.append(text[pos:hi])
        return "".join(out)

    def construct_text(start, end, body_start, c: OmpConstruct | PersistentLoop, nested) -> str:
        if isinstance(c, PersistentLoop):
            entries = persistent.loop_entries(c, link_globals, dict(program.bound.vla_sizes))
            return persistent.loop_text(c, f"__ompgpu_kd_{c.name}", entries, replace(start, end, nested))
        d = c.directive
        loc_name = f"__ompgpu_loc{len(locs)}"
        locs.append({"name": loc_name, "file": d.coord.file, "line": d.coord.line, "col": d.coord.col, "construct": d.name})
        device = _clause_expr(d, "device") or "OMPGPU_DEVICE_DEFAULT"
        if_cond = _if_expr(d, ("target", "target data", "target enter data", "target exit data", "target update")) or "1"
        if target_kind(d) == "kernel":
            k = kernels[id(c)]
            kname = kernel_names[id(k)]
            grid = _grid_trip_count(c, program, (kernel_modes or {}).get(id(k)) == "spmd",
                                    TEAM_TILE if id(k) in kernel_grid_tiles else None)
            descs.append(_kernel_desc(k, kname, offload, (kernel_modes or {}).get(id(k), "generic"),
                                      (kernel_max_threads or {}).get(id(k), 1024), id(k) in kernel_dense, d.name,
                                      (kernel_scratch or {}).get(id(k), 0), (kernel_combine or {}).get(id(k), ()),
                                      id(k) in kernel_grid_tiles, grid.waves if grid else 0))
            teams = k.teams
            num_teams = (_clause_expr(teams, "num_teams") if teams else None) or "0"
            thread_limit = (_clause_expr(teams, "thread_limit") if teams else None) or _clause_expr(d, "thread_limit") or "0"
            # SPMD: the combined region's num_threads is the block size.
            num_threads = _clause_expr(d, "num_threads") if (kernel_modes or {}).get(id(k)) == "spmd" else None
            maps = kernel_maps(k, link_globals, dict(program.bound.vla_sizes))
            trip = grid.count if grid else None
            exprs = (device, if_cond, num_teams, thread_limit) + ((num_threads,) if num_threads else ())
            task = target_task(d, k.env, maps, exprs, kernel_task_vars(k))
            fallback = host_fallback(text[start:end], d, in_task=task is not None)
            if "linear on combined target" in host_gaps and d.is_combined and d.has("linear"):
                first, nl, rest = fallback.partition("\n")
                fallback = split_target_leaf(first, d) + nl + rest
            elif "combined loop" in host_gaps and "loop" in d.leaves and d.is_combined:
                first, nl, rest = fallback.partition("\n")
                fallback = split_loop_leaf(first, d) + nl + rest
            made, destroyed = allocator_setup(d)
            return render("host_target.j2", kd=f"__ompgpu_kd_{kname}", maps=maps, device=device, if_cond=if_cond,
                          num_teams=num_teams, thread_limit=thread_limit, num_threads=num_threads, task=task, trip=trip,
                          fallback=_line_marker(pre, text, start, line_starts) + fallback,
                          allocators_made=made, allocators_destroyed=destroyed)
        env = program.data_envs.get(id(c))
        maps = data_maps(d, env)
        if d.name == "target data":
            body = replace(body_start, end, nested)
            udp = [item.name for cl in d.clauses_of("use_device_ptr") for item in cl.items]
            uda = []
            for cl in d.clauses_of("use_device_addr"):
                for item in cl.items:
                    sym = env.lookup(item.name) if env is not None else None
                    if item.members:
                        raise UnsupportedError(f"use_device_addr of the struct member '{item.text}' is not supported yet",
                                               item.coord)
                    if sym is not None and not is_pointer(resolve_typedef(sym.type, env)):
                        uda.append(item.name)   # an array or a scalar: its uses name the device's storage
                    elif item.name not in udp:
                        udp.append(item.name)   # a pointer's section: the pointer holds the device address
            if uda:
                body = refer_to_device(body, {name: f"(*{name}__devaddr)" for name in uda})
            return render("host_data.j2", loc=loc_name, maps=maps, device=device, if_cond=if_cond, body=body,
                          use_device_ptr=udp, use_device_addr=uda)
        fn = {"target enter data": "ompgpu_target_data_begin", "target exit data": "ompgpu_target_data_end",
              "target update": "ompgpu_target_update"}[d.name]
        task = target_task(d, env, maps, (device, if_cond), data_task_vars(d, env)) if env is not None else None
        sections = update_sections(d, env) if d.name == "target update" else []
        return render("host_standalone.j2", fn=fn, loc=loc_name, maps=maps, device=device, if_cond=if_cond, task=task,
                      sections=sections)

    body = replace(0, len(text), sorted(spans, key=lambda s: (s[0], -s[1])))
    globals_ = [{"name": g, "link": g in link_globals, "symbol": device_global_symbol(g)} for g in device_globals]
    if image is not None:
        for k in descs:
            for v in k["variants"]:
                v["shape"] = image.shapes[v["name"]]
    return render("host.c.j2", source=pre.path, descs=descs, locs=locs, body=body, globals=globals_, image=image,
                  indirect_functions=indirect_functions, indirect_table=indirect_table,
                  unified_shared_memory=_requires(program, "unified_shared_memory"),
                  async_copies=re.search(r"\bompgpu_omp_target_memcpy(?:_rect)?_async\b", body) is not None)


def _requires(program: Program, clause: str) -> bool:
    """Whether a `#pragma omp requires` of the file has that clause."""
    return any(isinstance(node, OmpConstruct) and node.directive.name == "requires" and node.directive.has(clause)
               for node in program.bound.ast.ext)


def _link_globals(program: Program) -> frozenset[str]:
    """Variables named in `declare target link(...)`."""
    names = set()
    for node in program.bound.ast.ext:
        if isinstance(node, OmpConstruct) and node.directive.name == "declare target":
            for c in node.directive.clauses:
                if c.kind == "link":
                    names.update(item.name for item in c.items)
    return frozenset(names)


def _rename_host_api(text: str, pre) -> str:
    """The user's calls of the OpenMP device-memory API renamed to ompgpu's (RENAMED_HOST_API).
    System headers keep their own declarations: the user's calls, renamed, find ompgpu_host.h's
    (where a header declares a routine with its OpenMP library's own types, such as libomp's
    omp_target_memcpy_async, renaming the header's declaration would contradict ours)."""
    return _rename_in_user_lines(text, pre, _RENAME_RE, "ompgpu_", "omp_")


def _rename_in_user_lines(text: str, pre, pattern: re.Pattern, prefix: str, hint: str = "") -> str:
    """The names that `pattern`'s group 1 matches given `prefix`, in the lines of the user's
    files (system headers and preprocessor lines keep theirs); `hint`: a text every line to
    rename holds (a quick test)."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if hint not in line or line.lstrip().startswith("#"):
            continue
        if i < len(pre.origins) and pre.origins[i][0] in pre.system_files:
            continue
        lines[i] = pattern.sub(lambda m: prefix + m.group(1) if m.group(1) else m.group(0), line)
    return "\n".join(lines)


def _line_marker(pre, text: str, offset: int, line_starts: list[int]) -> str:
    """A line marker naming the user's line of the preprocessed text at `offset`."""
    idx = bisect.bisect_right(line_starts, offset) - 1
    if offset > line_starts[idx] and idx + 1 < len(line_starts):
        return ""  # mid-line: the rest of this line continues as is
    if idx >= len(pre.origins):
        return ""
    file, line = pre.origins[idx]
    return f'\n# {line} "{file}"\n'


@dataclass(frozen=True)
class GridTripCount:
    """How the host sizes the grid of a loop dealt out over it: the loop nest's iteration count
    (host C text) and the most waves of resident teams it may take (0: OMPGPU_GRID_WAVES)."""
    count: str
    waves: int


def _grid_trip_count(c: OmpConstruct, program: Program, spmd: bool,
                     tile: tuple[int, ...] | None = None) -> GridTripCount | None:
    """The iteration count of a kernel that is one `target teams distribute parallel for` loop
    nest dealt out over the grid, which sizes its grid: one iteration per thread. Only where
    the body is short: no loop and no call of a user function. A longer body keeps the launch of
    one wave of teams over which `distribute` spreads its iterations, a team's share each: a
    loop body that long measured faster that way (bench/results/flat-h100-2026-11-25-geometry.txt),
    and a few long iterations run on as many SMs (kmeans' 170 sums over 494,020 points took 1.5x
    longer on the one team their count asks for, bench/results/s22-h200-2026-11-30-run2). And
    only with no num_threads, no dist_schedule, no schedule but `static`, no nowait or depend:
    the host evaluates the bounds at the launch, once more, so they must be free of side effects.
    In SPMD mode the grid takes OMPGPU_GRID_WAVES waves of teams at most. With a reduction it
    takes one wave at most: each team ends by combining its partial result into the one
    variable, and a team per 256 iterations made that 131,040 contended atomic updates in
    examples/mpi/jacobi.c (1.97 ms against clang's 0.36 ms, bench/results/mpi-h100-2026-11-25).
    A generic kernel takes one wave at most too, as before. Either way a loop of fewer
    iterations than a wave has threads gets fewer teams: a 62-iteration reduction ran 1,056
    teams of 256 threads, the idle ones each adding its identity to the variable (77 ms a launch
    under the emulator). None where a condition does not hold. `tile`: the loops' counts rounded
    up to whole tiles of these many iterations each (an SPMD kernel whose teams take the nest a
    tile at a time)."""
    d = c.directive
    if tuple(d.leaves[:5]) != ("target", "teams", "distribute", "parallel", "for") or any(
            d.clause(k) is not None for k in ("num_threads", "dist_schedule", "nowait", "depend")) or \
            d.if_clause("parallel") is not None:
        return None
    sched = d.clause("schedule")
    if sched is not None and (sched.schedule_kind != "static" or sched.chunk is not None):
        return None
    nest = loop_nest(c.body, collapse_depth(d))
    if not nest or not short_iteration(nest[-1].stmt, program.functions):
        return None
    count = nest_trip_count(nest, tile=tile)
    if count is None:
        return None
    return GridTripCount(count, 1 if not spmd or d.clause("reduction") is not None else 0)


def _clause_expr(d, kind: str) -> str | None:
    if d is None:
        return None
    c = d.clause(kind)
    if c is None or getattr(c, "expr", None) is None:
        return None
    return f"({c.expr.text})"


def _if_expr(d, modifiers: tuple[str, ...]) -> str | None:
    for c in d.clauses_of("if"):
        if c.modifier is None or c.modifier in modifiers:
            return f"({c.expr.text})"
    return None


def _kernel_desc(k: Kernel, kname: str, offload: str, mode: str = "generic", max_threads: int = 1024,
                 dense: bool = False, construct: str = "target", scratch_per_team: int = 0,
                 combine_roles: tuple[int, ...] = (), grid_tiles: bool = False, grid_waves: int = 0) -> dict:
    # the kernel, then (dense) its instance compiled for more resident teams
    names = [kname] + ([f"{kname}__dense"] if dense else [])
    return {"var": f"__ompgpu_kd_{kname}", "name": kname, "file": k.coord.file, "line": k.coord.line, "col": k.coord.col,
            "mode": "OMPGPU_MODE_SPMD" if mode == "spmd" else "OMPGPU_MODE_GENERIC", "max_threads": max_threads,
            "variants": [{"name": n, "launch": f"__ompgpu_launch_{n}", "occupancy": f"__ompgpu_occupancy_{n}"} for n in names],
            "default_threads": 0, "construct": construct, "scratch_per_team": scratch_per_team,
            "combine_roles": combine_roles, "grid_tiles": int(grid_tiles), "grid_waves": grid_waves,
            # A target region without teams runs as one team.
            "static_teams": 0 if k.teams is not None else 1}
