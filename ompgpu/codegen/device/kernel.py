"""Kernel entry: parameters from the captures, the kernel's own teams reduction, launch
bounds and the dense instance; packed teams' check; the mode remark; the scratch of a kernel
whose inner loops are spread across the grid."""
from __future__ import annotations

import re

from pycparser import c_ast

from ompgpu.analysis.symbols import constant_dims, decay, is_array, resolve_typedef
from ompgpu.codegen.render import render
from ompgpu.codegen.shared_scalars import candidate_locals
from ompgpu.errors import note_location
from ompgpu.outliner.outline import Kernel, kernel_scope
from ompgpu.plan.mode import KernelPlan
from ompgpu.plan.spread import spread_candidate
from ompgpu.codegen.device import data_sharing, reductions
from ompgpu.codegen.device.cdecl import by_value_type, cxx_name, type_string


# Resident threads per SM that the dense instance of a latency-bound grid loop asks for: 40 warps,
# 48 registers a thread. XSBench-style lookups (64 registers on their own: 32 warps) ran 1.10x
# faster so, 40 bytes spilled (H100, bench/results/exp-h100-2026-11-25-s6-variants.txt, mcl_lb5).
DENSE_THREADS = 1280


# What the device code of a packed kernel may call (runtime/device: mapping.cuh, workshare.cuh,
# parallelism.cuh and ompgpu_compiler_support.cuh): routines that take the team's ids from their
# arguments or read none. Anything else may read blockIdx, threadIdx or the block's barrier.
_PACKED_RUNTIME = frozenset({"lane_id", "packed_team_barrier", "packed_team_first_taker", "distribute_static_block",
                             "distribute_chunk_first", "distribute_chunk_stride", "known_static_block",
                             "known_static_chunk_first", "known_static_chunk_stride", "known_team_barrier",
                             "packed_team_slot", "packed_thread",
                             # spread.cuh's, called with their warp-team argument (<32>)
                             "spread_distribute_begin", "spread_own", "spread_help", "spread_split", "spread_chunk",
                             "spread_slice", "spread_put", "spread_arrive", "spread_gather", "spread_done",
                             # combine.cuh's: a table per block, which its teams share
                             "combine_update"})


_PACKED_SUPPORT = frozenset({"trip_count", "nest_split", "atomic_update", "atomic_update_new", "atomic_write",
                             "atomic_read", "atomic_compare_exchange", "by_value", "by_value_of",
                             "store_through_postinc", "store_through_postdec", "reduce_packed", "allreduce_packed",
                             "red_identity"})


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


def emit_kernel(em, k: Kernel, kname: str, region_function: bool = False) -> dict:
    """The kernel's parts for device.cu.j2; `region_function`: its code goes in a device function
    that the kernel calls, which a persistent loop calls too (plan/persistent_loops.py)."""
    note_location(k.coord)
    body = k.body
    # In a target region's serial code, the initial task's variables (mapped ones too) are
    # not shared by a team: a task that writes one gets a firstprivate copy (as gcc does).
    em.task_shared = set()
    em.env = kernel_scope(k)
    em.register_candidates = candidate_locals(body, em.env)
    em.unchanged_params = frozenset(  # the parameters' declarations in the kernel's scope
        id(em.env.lookup(cap.name).decl) for cap in k.captures
        if cap.name in em.plan.unchanged_captures and not is_array(resolve_typedef(cap.sym.type, k.env)))
    # In SPMD mode no serial local is shared with a region (the plan checked it): nothing
    # goes on the soft stack, every thread keeps its own copy of the serial code's locals.
    if not em.spmd:
        em.escaping, em.in_global_memory = data_sharing.escaping_locals(body, em.env)
    params, aliases, promotions = [], [], []
    for cap in k.captures:
        t = resolve_typedef(cap.sym.type, k.env)
        name = cxx_name(cap.name)
        if cap.how == "literal" and is_array(t):
            # A firstprivate array: passed by value, the kernel's own copy.
            value_t = f"ompgpu_by_value<{by_value_type(t, cap.name, k.coord)}>"
            params.append((f"{value_t} {name}__value", value_t, f"{name}__value"))
            if id(em.env.lookup(cap.name).decl) in em.escaping:
                promotions.append(render("promote.j2", type=type_string(t), name=name, array=True).strip())
            else:
                aliases.append(f"auto &{name} = {name}__value.v;")
        elif cap.how in ("literal", "pointer", "attach") or (cap.how == "private" and constant_dims(t) is None):
            pt = cap.sym.type if cap.how == "literal" else decay(t if isinstance(t, c_ast.ArrayDecl) else cap.sym.type)
            # A parameter that a parallel region shares by address moves onto the soft stack.
            promoted = id(em.env.lookup(cap.name).decl) in em.escaping
            pname = name + "__param" if promoted else name
            params.append((type_string(pt, pname), type_string(pt), pname))
            if promoted:
                promotions.append(render("promote.j2", type=type_string(pt), name=name, array=False).strip())
        else:
            pt = c_ast.PtrDecl([], cap.sym.type)
            params.append((type_string(pt, name + "__map"), type_string(pt), name + "__map"))
            aliases.append(f"auto &{name} = *{name}__map;")
    privates = [data_sharing.declare_private(em, s, k.construct.directive) for s in k.privates]
    text = em.stmt_text(body)
    if k.teams is not None and not _combined_with_parallel(k):
        reds = reductions.reduction_items(em, k.teams)
        if reds:
            text = em.render_with_ids("reduction_scope.j2", reds=reds, on_stack=em.on_master_stack(), body=text, barrier=False, team_size=em.team_size, whole_block=em.whole_block)
    bound = em.plan.max_threads
    packed = em.plan.packed_teams
    variants = [{"name": kname, "bounds": str(bound * packed),
                 "note": f"; {packed} teams of {bound} threads per block" if packed > 1 else ""}]
    # A grid loop of long iterations is latency-bound: a second instance asks ptxas for
    # DENSE_THREADS resident threads per SM (fewer registers, maybe a little spilled), and the
    # runtime launches it where it holds more teams without spilling much (target.cpp).
    dense_teams = DENSE_THREADS // bound
    if em.long_grid_loop and dense_teams >= 2 and packed == 1:
        variants.append({"name": f"{kname}__dense", "bounds": f"{bound}, {dense_teams}",
                         "note": f"; the instance for {dense_teams} resident teams per SM"})
    return {"name": kname, "coord": k.coord, "params": [p[:2] for p in params], "param_names": [p[2] for p in params],
            "region_function": region_function,
            # A persistent loop's regions share one kernel: data one writes is another's to read, so
            # none may reach it through the read-only cache that `restrict` lets nvcc use.
            "region_params": [re.sub(r"\brestrict\b\s*", "", p[0]) for p in params], "aliases": aliases, "promotions": promotions,
            "privates": privates, "body": text, "max_threads": bound, "plan": em.plan,
            "mode": em.plan.mode, "lean": em.plan.lean, "combined": em.plan.combined, "variants": variants,
            "packed": packed, "spread_bytes": spread_scratch_bytes(k) if em.plan.spread else 0,
            "combine": bool(em.plan.combine_atomics), "trailing": trailing_params(em.plan, packed)}


def trailing_params(plan: KernelPlan, packed: int) -> list[tuple[str, str, str]]:
    """(declaration, name, launch argument) of the parameters a kernel takes after its captures,
    in order: the league of packed teams, the scratch of inner loops spread across the grid and
    its epoch, the mask of combined atomic updates, a generic team's thread limit
    (runtime/host/image.cpp passes them in this order). A region's device function (a region a
    persistent loop calls, device.cu.j2) takes the same: its kernel passes its own, the loop the
    grid's league and its constant thread limit (codegen/device/persistent.py; a loop keeps no
    region that spreads inner loops or combines atomics)."""
    out = []
    if packed > 1:
        out.append(("unsigned __omp_league", "__omp_league", "cfg->num_teams"))
    if plan.spread:
        out += [("void *__omp_scratch", "__omp_scratch", "cfg->scratch"),
                ("unsigned __omp_scratch_epoch", "__omp_scratch_epoch", "cfg->scratch_epoch")]
    if plan.combine_atomics:
        out.append(("unsigned __omp_combine", "__omp_combine", "cfg->combine"))
    if plan.mode == "generic":
        out.append(("unsigned __omp_team_threads", "__omp_team_threads", "cfg->team_threads"))
    return out


def spread_scratch_bytes(k: Kernel) -> int:
    """Scratch bytes per team of a kernel whose inner loops are spread across the grid, the
    layout of runtime/device/spread.cuh: a job (32 bytes; the first holds the header), an
    arrival count (8), a cell (8) per reduction item, and cells for SPREAD_JOB_CHUNKS_PER_BLOCK
    (32) job chunks of a cell per reduction item."""
    items = sum(len(c.items) for c in spread_candidate(k)[2].directive.clauses_of("reduction"))
    return 32 + 8 + 8 * items + 32 * 8 * items


def mode_remark(kname: str, plan: KernelPlan, regions: int) -> str:
    if plan.mode == "spmd":
        text = f"kernel '{kname}' runs in SPMD mode; elided: {', '.join(plan.elided)}"
        if plan.team_shared_names:
            text += f"; serial locals shared with the parallel regions in shared memory: {', '.join(plan.team_shared_names)}"
        if plan.allreduced_names:
            text += (f"; reductions into {', '.join(repr(n) for n in plan.allreduced_names)} handed to every thread "
                     "(each keeps its own copy: no shared copy, no atomics)")
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
