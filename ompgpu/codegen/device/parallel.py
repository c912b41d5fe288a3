"""Parallel regions: outlining into work functions (their argument packs), the fork site,
the team size a region runs with."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from pycparser import c_ast

from ompgpu.analysis.counting import counted_test
from ompgpu.analysis.symbols import array_bytes, decay, is_array, resolve_typedef
from ompgpu.codegen.cprint import CPrinter
from ompgpu.codegen.render import render
from ompgpu.errors import UnsupportedError
from ompgpu.outliner.outline import Sharing, region_sharing
from ompgpu.parser.bind import OmpConstruct, collapse_depth, loop_var_names
from ompgpu.parser.directives import Directive
from ompgpu.plan.call_effects import region_reads_thread_state
from ompgpu.plan.mode import same_expression
from ompgpu.codegen.device import data_sharing, reductions
from ompgpu.codegen.device.cdecl import by_value_type, cxx_name, is_integer_type, type_string

# A firstprivate array of a parallel region travels in the region's argument pack, which
# ompgpu_by_value caps (runtime/device/ompgpu_compiler_support.cuh).
PACK_ARRAY_BYTES = 4096


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
    # The body may read the worker's per-thread state (plan.call_effects.region_reads_thread_state):
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


def _region_tail(body: c_ast.Node) -> int | None:
    """id() of the `for`/`loop` construct that is the last statement of a parallel region's
    body, if any."""
    while isinstance(body, c_ast.Compound) and body.block_items:
        body = body.block_items[-1]
    if isinstance(body, OmpConstruct) and body.directive.leaves[0] in ("for", "loop"):
        return id(body)
    return None


def _shared_names(d: Directive, sharing: Sharing) -> set[str]:
    """The outer variables that are shared in the region: a task in it shares them too (OpenMP's
    rule for a variable shared in the enclosing context), so its writes reach them. Those passed
    by address, and those passed by value that are shared but read-only, such as a mapped array
    that arrives as a pointer to its first element (the region writes its elements, not the
    pointer) - not the firstprivate ones."""
    listed_shared = {item.name for c in d.clauses if c.kind == "shared" for item in c.items}
    firstprivate = {item.name for c in d.clauses if c.kind == "firstprivate" for item in c.items}
    default = next((c.value for c in d.clauses if c.kind == "default"), None)
    by_value = {sym.name for sym in sharing.by_value
                if sym.name in listed_shared or (sym.name not in firstprivate and default not in ("firstprivate", "private"))}
    return {sym.name for sym in sharing.by_pointer} | by_value


def parallel(em, n: OmpConstruct) -> str:
    d = n.directive
    rest = d.leaves[1:]
    body = n.body
    loop_vars: tuple[str, ...] = ()
    if rest and rest[0] in ("for", "loop"):
        loop_vars = loop_var_names(body, collapse_depth(d))
    elif rest and rest[0] not in ("for", "sections", "simd", "master", "masked", "loop"):
        raise UnsupportedError(f"'#pragma omp {d.name}' is not supported yet", d.coord)
    sharing = region_sharing(n, body, em.env, loop_vars=loop_vars)
    return outline(em, n, sharing, inner=(dataclasses.replace(d, name=" ".join(rest)) if rest else None))


def outline(em, n: OmpConstruct, sharing: Sharing, inner: Directive | None,
             extra_values: tuple[tuple[str, str, str], ...] = (), range_from: tuple[str, str] | None = None,
             grid_loop: bool = False, grid_tile_bytes: int | None = None) -> str:
    """Outline a parallel region into a work function; return the fork site."""
    d = n.directive
    em.g.next_workfn_id += 1
    wid = em.g.next_workfn_id
    line = d.coord.line
    wname = f"__omp_outlined_{em.owner.replace('__omp_offloading_', '')}_l{line}_{wid}"
    pack = f"{wname}_args"
    fields, field_names, inits, unpack = [], [], [], []
    spmd_site = em.spmd and em.in_region == 0
    nt = num_threads_clause(em, d, spmd_site)
    if nt is None and d.clause("num_threads") is not None and spmd_site:
        em.g.remarks.append((d.clause("num_threads").coord, "num_threads of the parallel region is the kernel's "
                               "thread_limit: its team is the whole block"))
    if spmd_site and nt is not None:
        # An SPMD region with num_threads: the team is the first __ts threads of the block;
        # the work function learns its size from the pack.
        extra_values = extra_values + (("unsigned", "__team_size", f"__ts{wid}"),)
    for sym in sharing.by_pointer:
        name = cxx_name(sym.name)
        fields.append(type_string(c_ast.PtrDecl([], sym.type), name) + ";")
        field_names.append(name)
        inits.append(f"&{name}")
        unpack.append(f"auto &{name} = *__pack->{name};")
    param_fields = set()
    for sym in sharing.by_value:
        name = cxx_name(sym.name)
        field_names.append(name)
        t = resolve_typedef(sym.type, em.env)
        if not spmd_site and em.in_region == 0 and em.plan is not None and id(sym.decl) in em.unchanged_params \
                and id(sym.decl) not in em.escaping:
            param_fields.add(name)
        if is_array(t):  # firstprivate array: each thread copies it from the pack
            size = array_bytes(t)
            if size is not None and size > PACK_ARRAY_BYTES:
                raise UnsupportedError(f"firstprivate array '{sym.name}' of {size} bytes on a parallel region is not "
                                       f"supported yet (each thread's copy comes from the region's arguments: at most "
                                       f"{PACK_ARRAY_BYTES} bytes)", d.coord)
            value_t = f"ompgpu_by_value<{by_value_type(t, sym.name, d.coord)}>"
            fields.append(f"{value_t} {name};")
            inits.append(f"ompgpu_by_value_of({name})")
            unpack.append(f"auto {name}__value = __pack->{name}; auto &{name} = {name}__value.v;")
            continue
        fields.append(type_string(decay(sym.type), name) + ";")
        inits.append(name)
        unpack.append(data_sharing.aligned(d, sym.name, f"auto {name} = __pack->{name};"))
    for ftype, fname, fvalue in extra_values:
        fields.append(f"{ftype} {fname};")
        field_names.append(fname)
        inits.append(fvalue)
        unpack.append(f"const {ftype} {fname} = __pack->{fname};")
    privates = [data_sharing.declare_private(em, s, d) for s in sharing.private
                if s.name not in loop_var_names(n.body, collapse_depth(d))]
    # Body of the work function: a fresh emitter context where captured names are locals.
    sub = em.region_emitter()
    sub.in_region = 1
    sub.team_size = known_team_size(em, d)
    # SPMD team-level region: without num_threads its team is the block; with it, the fork
    # site picks the work function's whole-block instance when the team came out whole.
    templated = spmd_site and nt is not None and sub.team_size is not None
    # (packed teams: a team is never the whole block)
    sub.whole_block = ("__whole_block" if templated else "true") \
        if spmd_site and sub.team_size is not None and not em.ids.packed else None
    # the region of a kernel whose inner loops are spread across the grid (KernelPlan.spread)
    spread = em.spread and spmd_site and em.in_region == 0
    sub.spread = spread
    sub.thread_num_known = sub.team_size is not None or (em.plan is not None and em.in_region == 0 and d.if_clause("parallel") is None)
    sub.task_shared = _shared_names(d, sharing)
    sub.register_candidates = em.register_candidates
    sub.grid_loop = grid_loop
    sub.grid_tile_bytes = grid_tile_bytes
    sub.region_tail = _region_tail(n.body) if inner is None else None
    sub.called = em.called
    if inner is not None:
        body_text = sub.inner_construct(OmpConstruct(inner, n.body, n.coord), range_from)
    else:
        body_text = sub.stmt_text(n.body)
    reds = reductions.reduction_items(em, d) if sharing.reductions else []
    closed_inside = False   # the region's body ends on the team's barrier (count_barrier.j2)
    if spmd_site:
        _mark_allreduced(em, d, reds, nt is None and not spread and (sub.whole_block == "true" or em.ids.packed))
    if reds:
        body_text = em.render_with_ids("reduction_scope.j2", reds=reds, on_stack=sub.on_master_stack(), body=body_text, barrier=False, team_size=sub.team_size, whole_block=sub.whole_block)
        counting = _counting_loop(em, sub, d, n, reds) if sub.whole_block == "true" and not spread else None
        if counting is not None:
            # a lean kernel's fork site closes the region with a bare block barrier: the body's own
            # (run 1: btree 0.140-0.146 ms without the second barrier, 0.159 with it in run 2)
            closed_inside = em.lean
            body_text = em.render_with_ids("count_barrier.j2", plain=body_text, team_size=sub.team_size,
                                           closes=closed_inside, **counting)
    wf_body = render("workfn_body.j2", pack=pack, unpack=unpack, privates=privates, body=body_text)
    # Two instances only where a barrier of the body tells them apart: the test at the fork
    # site cost EPCC's barrier-free `parallel` 0.023 us per region on an H100
    # (epcc-h100-80gb-hbm3-2026-11-25-1149.csv against -1126).
    templated = templated and "__whole_block" in wf_body
    em.g.workfns.append(WorkFunction(wid, wname, pack, fields, wf_body, em.owner, templated,
                                       tuple(field_names), frozenset(param_fields),
                                       reads_state=region_reads_thread_state(em.g.p, n)))
    em.g.regions_of.setdefault(em.owner, set()).add(wid)
    ifc = d.if_clause("parallel")
    combined = em.plan is not None and em.plan.combined
    # Only a team-level region is run by the whole block in SPMD mode; a region nested in
    # another takes the generic fork site, which serializes it (no master to fork from).
    return em.render_with_ids("fork.j2", block=em.block, id=wid, wname=wname, pack=pack, inits=inits, mode="spmd" if spmd_site else "generic",
                  pack_from_params=em.g.workfns[-1].pack_from_params,
                  templated=templated,
                  stateful=spmd_site and not em.lean, combined=combined,
                  always_forks=not spmd_site and em.plan is not None and em.in_region == 0,
                  entry_barrier=spmd_site and not combined and em.plan.entry_barrier
                  and id(n.body) not in em.plan.storeless_regions,
                  num_threads=nt.expr.text if nt else "0", if_cond=ifc.expr.text if ifc else None,
                  closed_inside=closed_inside,
                  spread={"reds": reds} if spread else None)


def _mark_allreduced(em, d: Directive, reds: list[dict], whole_team: bool) -> None:
    """Mark the reduction items of an SPMD kernel's team-level region whose original is a serial
    local that every thread holds (KernelPlan.allreduced): each thread gets the team's total.
    The plan allows that only for regions whose team is the whole block or a packed team."""
    ordinal = 0
    for r in reds:
        if r["kind"] == "scalar" and r["decl"] in em.plan.allreduced:
            if not whole_team:
                raise AssertionError(f"the plan all-reduces '{r['name']}' at {d.coord}, whose team is not the "
                                     "whole block or a packed team")
            # the item's place among the region's all-reduces: a block team's take the runtime's
            # slot sets in turn (reduction.cuh allreduce_block)
            r.update(allreduce=True, item=ordinal)
            ordinal += 1


# Clauses a counting `parallel for` may have (besides its one reduction): none changes which
# thread runs which iteration or what an iteration does beyond its test.
_COUNTING_CLAUSES = frozenset({"reduction", "shared", "default", "firstprivate", "proc_bind"})


def _counting_loop(em, sub, d: Directive, n: OmpConstruct, reds: list[dict]) -> dict | None:
    """What count_barrier.j2 needs for a team-level `parallel for` of a whole-block SPMD team that
    counts into a serial local every thread holds (analysis/counting.py), or None. `sub` is the
    region's emitter (its names)."""
    if list(d.leaves) != ["parallel", "for"] or collapse_depth(d) != 1 or len(reds) != 1 \
            or any(c.kind not in _COUNTING_CLAUSES for c in d.clauses) or not isinstance(n.body, c_ast.For):
        return None
    r = reds[0]
    sym = em.env.lookup(r["name"])
    if r["kind"] != "scalar" or not r["allreduce"] or r["op"] != "RED_ADD" or sym is None \
            or not is_integer_type(sym.type, em.env):
        return None
    test = counted_test(n.body.stmt, r["name"])
    if test is None:
        return None
    # worksharing.py outlines the regions of combined constructs through this module: the import
    # is at call time, so the modules load in one order (as reductions.scan_loop's)
    from ompgpu.codegen.device import worksharing
    with sub.child_scope():
        loop = worksharing.canonical_loop(sub, n.body, d)
        worksharing.declare_loop_var(sub, n.body)
        test_text = sub.visit(test)
    em.g.remarks.append((d.coord, f"'#pragma omp {d.name}' counts into '{r['name']}' where "
                                    f"'{CPrinter().visit(test)}' holds: where the team has a thread for each "
                                    f"iteration, one barrier counts the threads whose test held (bar.red.popc) "
                                    f"instead of an all-reduce"))
    return {"name": cxx_name(r["name"]), "lb": loop.lb, "step": loop.step, "trip_count": loop.trip_count,
            "var": loop.var, "var_type": loop.var_type, "test": test_text}


def num_threads_clause(em, d: Directive, spmd_site: bool):
    """The num_threads clause that sizes a region's team, None when the team is the whole
    block: in an SPMD kernel's own code a num_threads written like the kernel's thread_limit
    asks for the block (KernelPlan.block_expr), so the region is forked as one without."""
    nt = d.clause("num_threads")
    if nt is not None and spmd_site and d.if_clause("parallel") is None and em.plan.block_expr is not None and \
            same_expression(nt.expr.text, em.plan.block_expr):
        return None
    return nt


def known_team_size(em, d: Directive) -> str | None:
    """The team of a region forked here, when known at compile time: a team-level region of a
    kernel (not of a device function, which any context may call) runs on the whole block
    (SPMD) or on the team's thread limit of workers (generic, when neither num_threads nor if
    can shrink it; the host always launches at least one worker warp, so such a region always
    forks; the workers are whole warps, the limit may leave some of them out)."""
    if em.plan is None or em.in_region != 0:
        return None
    if em.spmd:
        return "__team_size" if num_threads_clause(em, d, True) is not None else em.block
    if d.clause("num_threads") is not None or d.if_clause("parallel") is not None:
        return None
    return "ompgpu::generic_team_threads()"
