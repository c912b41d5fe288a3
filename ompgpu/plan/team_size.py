"""Team size from the parallel loops' trip counts (issue 34, item 1).

A team's size has been its thread_limit whatever its loops run. streamcluster's teams of 128
threads each sum 128 coordinates: one iteration per thread, then a reduction across four warps
(shared-memory atomics and four block barriers per point). OpenMP lets a parallel region
without num_threads have fewer threads than thread_limit, and omp_get_num_threads is the only
way a program could tell (a kernel that calls no omp_* routine cannot).

The cost rule: where every parallel region of a lean SPMD kernel is a `parallel for` of short
iterations (no loop, no call of the file's functions) whose trip count is a constant of at most
ITERATIONS_PER_THREAD x 32, a team of one warp runs each loop in at most that many iterations
per thread with no block barrier and a shuffle reduction, and its teams are packed several to a
block (plan/mode.py, PACKED_TEAMS). Loops of at most 16 (8) iterations get teams of 16 (8)
lanes, several to a warp, a lane per iteration (team_lanes). Only where a constant thread_limit
sizes every launch (the packed kernel is compiled for its team size; the runtime launches the
clause's count clamped to the kernel's bound, which becomes the team's size).

Irregular loops (irregular_team_size): where the one parallel loop of each distribute iteration
has a trip count that the iteration reads from memory (sparserows' row lengths: most rows a
nonzero or two, a few a million), no size fits every iteration, and a big team costs every
short one its barriers and a block-wide reduction: on an H200 (2026-11-27,
bench/results/issue34-h200-2026-11-27-s5-shapes.txt) a million rows of about one nonzero took
0.98 ms on teams of 256 threads, 0.13 on warp teams, 8 to a block. So the team is one warp,
packed, and an iteration far longer than its team's others is shared out in chunks to the teams
that are done (plan/spread.py): the long rows cost what they would on big teams. Only for
kernels whose inner loops may be spread so (mode.py drops the shape otherwise).
"""
from __future__ import annotations

from pycparser import c_ast

from ompgpu.analysis.library import first_omp_call
from ompgpu.analysis.footprint import short_iteration
from ompgpu.analysis.loop_counts import constant_trip_count
from ompgpu.outliner.outline import Kernel
from ompgpu.parser.bind import OmpConstruct, collapse_depth, loop_nest
from ompgpu.parser.bound import canonical_for
from ompgpu.parser.cfront import walk_nodes
from ompgpu.plan.spread import reads_memory, spread_candidate

# Iterations each thread of a one-warp team may run before a bigger team is worth its barriers.
ITERATIONS_PER_THREAD = 4
WARP = 32
MIN_LANES = 8   # the smallest packed team: a 32-byte sector of 4-byte elements per access
# Constructs a kernel shaped to its loops may hold besides its distribute and parallel loops.
_ALLOWED = frozenset({"atomic"})


def loop_team_size(k: Kernel, plan, functions: dict[str, c_ast.FuncDef]) -> tuple[int, str] | None:
    """(threads, why) of kernel k's team sized to its loops where that is fewer than thread_limit's
    exact_threads (the remark's words), else None. `functions`: the file's own (a call of one
    makes an iteration long)."""
    if plan.mode != "spmd" or not plan.lean or plan.combined or plan.exact_threads <= MIN_LANES:
        return None
    if k.construct.directive.clause("num_threads") is not None or first_omp_call(k.body) is not None:
        return None
    trips = []
    for node in walk_nodes(k.body):
        if not isinstance(node, OmpConstruct) or node is k.body:
            continue
        d = node.directive
        if d.leaves[:1] == ("parallel",):
            if d.name != "parallel for" or d.clause("num_threads") is not None:
                return None
            trip = constant_trip_count(node)
            nest = loop_nest(node.body, collapse_depth(d))
            # long iterations (a loop, a call of the file's own functions) keep their threads:
            # lavamd's teams of 128 each run 100 particles' interactions with their neighbours
            if trip is None or not short_iteration(nest[-1].stmt, functions):
                return None
            trips.append(trip)
        elif d.name not in _ALLOWED and not set(d.leaves) <= {"teams", "distribute"}:
            return None
    if not trips or max(trips) > ITERATIONS_PER_THREAD * WARP:
        return None
    lanes = team_lanes(max(trips))
    if lanes >= plan.exact_threads:
        return None
    each = -(-max(trips) // lanes)
    return lanes, (f"its parallel loops run at most {max(trips)} iterations: a team of {lanes} threads "
                   f"(at most {each} iteration{'s' if each > 1 else ''} each), not thread_limit's {plan.exact_threads}")


def irregular_team_size(k: Kernel, plan, functions: dict[str, c_ast.FuncDef]) -> tuple[int, str] | None:
    """(WARP, why) for a kernel whose teams run one parallel loop per distribute iteration with
    a trip count read from memory in that iteration and short iterations (see the module's
    docstring), where thread_limit gives more than a warp; None otherwise."""
    if plan.mode != "spmd" or not plan.lean or plan.combined or plan.exact_threads <= WARP:
        return None
    if k.construct.directive.clause("num_threads") is not None or first_omp_call(k.body) is not None:
        return None
    candidate = spread_candidate(k)
    if candidate is None:
        return None
    _, before, region, _ = candidate
    if region.directive.name != "parallel for" or constant_trip_count(region) is not None:
        return None
    nest = loop_nest(region.body, collapse_depth(region.directive))
    if len(nest) != 1 or not short_iteration(nest[0].stmt, functions):
        return None
    parts = canonical_for(nest[0])
    if parts is None:
        return None
    from_memory = _locals_read_from_memory(before)
    if not any(_from_memory(bound, from_memory) for bound in (parts[1], parts[2])):
        return None
    return WARP, (f"its parallel loop's trip count is read from memory at each distribute iteration: teams of "
                  f"one warp, not thread_limit's {plan.exact_threads} (an iteration far longer than its team's "
                  f"others is shared out to the teams that are done)")


def _locals_read_from_memory(before: list) -> set[str]:
    """Names of the locals that serial code declares with a value read from memory, directly or
    through another such local."""
    names: set[str] = set()
    for stmt in before:
        if isinstance(stmt, c_ast.Decl) and stmt.name and stmt.init is not None and _from_memory(stmt.init, names):
            names.add(stmt.name)
    return names


def _from_memory(e: c_ast.Node, locals_from_memory: set[str]) -> bool:
    """Whether the expression reads memory, or a local whose value was read from it."""
    return reads_memory(e) or any(isinstance(n, c_ast.ID) and n.name in locals_from_memory for n in walk_nodes(e))


def team_lanes(trip: int) -> int:
    """Threads of a team whose longest parallel loop runs `trip` (at most ITERATIONS_PER_THREAD x
    WARP) iterations: a lane per iteration up to a warp, in groups of MIN_LANES or 16 lanes
    (aligned groups several to a warp: backprop's 16 weights a team leave no lane idle, and a
    group's loads of consecutive elements fill whole cache sectors); past a warp, a warp."""
    lanes = MIN_LANES
    while lanes < min(trip, WARP):
        lanes *= 2
    return lanes
