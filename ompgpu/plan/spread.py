"""Inner loops spread across the grid: which SPMD kernels may run one `distribute` iteration on
several blocks (issue 34, item 2; the device side is runtime/device/spread.cuh).

backprop's forward kernel is a `teams distribute` over 16 hidden units whose `parallel for
reduction` sums a million products: one block per unit, 16 of a 132-SM GPU's blocks busy. Where
the distribute has fewer iterations than half the grid's blocks, the kernel splits each
iteration over gridDim.x / n blocks. That is legal for a kernel of this shape only:

- lean SPMD, a team per block or packed teams of one warp (runtime/device/spread.cuh keeps
  each warp team's state), its body one `distribute` loop (no num_teams: the
  runtime sizes the grid; no dist_schedule, collapse or lastprivate);
- the loop's body: serial code that only reads memory and computes locals (every block of the
  iteration runs it), then one `parallel for` (collapse allowed; no schedule, num_threads, if,
  lastprivate, linear, ordered or nowait; no construct inside but `atomic`) whose reduction
  items are scalars of at most 8 bytes declared in that serial code, and which writes neither
  storage the team holds a copy of (the loop body's locals, team privates, by-value captures:
  each block would have its own) nor, where the serial code before it reads memory, memory
  (the blocks of an iteration do not wait for each other), then serial code (atomics and
  flushes allowed), which the iteration's last block runs alone once the partials are combined;
- no omp_* routine anywhere (a team's number and the team count would tell the split).

The same conditions let a long distribute share out its long iterations (sparserows' power-law
rows): a block whose region's loop holds at least four chunks of 16 iterations per thread and
eight times its earlier iterations' loops on average publishes the iteration as a job, runs
chunk 0 and goes on; blocks that have run their own iterations take the other chunks (nobody
waits for another block).

The cost rule (runtime/device/spread.cuh; each part measured on an H200, 2026-11-27): splitting
costs each chunk one fence and one atomic and the serial code before the region again, and the
iteration's last chunk combines the partials. An iteration is split at the launch only where the
grid holds at least two blocks per iteration, and on the way only where its loop is long enough
for four chunks and far longer than the block's others (iterations of equal loops gain nothing
from sharing: publishing all of them made particlefilter and haccmk 3-4x slower), so a kernel of
short or even iterations runs as before.
"""
from __future__ import annotations

from pycparser import c_ast

from ompgpu.analysis.library import PURE_LIBRARY, first_omp_call
from ompgpu.analysis.loop_counts import constant_trip_count
from ompgpu.analysis.symbols import has_side_effect, resolve_typedef, stored_lvalues
from ompgpu.outliner.outline import Kernel
from ompgpu.parser.bind import OmpConstruct, collapse_depth
from ompgpu.parser.bound import canonical_for
from ompgpu.parser.cfront import walk_nodes

# Clauses of the region that keep its loop a plain split of its iterations.
_REGION_CLAUSES = frozenset({"reduction", "private", "firstprivate", "shared", "default", "proc_bind", "collapse"})
# Constructs the serial code after the region may hold: the iteration's last block runs it alone.
_AFTER_CONSTRUCTS = frozenset({"atomic", "flush"})
_ARITHMETIC = frozenset({"char", "short", "int", "long", "signed", "unsigned", "float", "double", "_Bool"})


# A team shares out a loop of at least SPREAD_PUBLISH_CHUNKS (4) chunks of SPREAD_CHUNK_PER_THREAD
# (16) iterations a thread (runtime/device/spread.cuh).
SHARED_LOOP_ITERATIONS_PER_THREAD = 4 * 16


def spread_candidate(k: Kernel) -> tuple[c_ast.For, list, OmpConstruct, list] | None:
    """(distribute loop, serial code before the region, the region, serial code after) of a
    kernel that is one distribute loop with one parallel region directly in its body; None for
    any other kernel (not a candidate: no remark)."""
    body = k.body
    if not isinstance(body, OmpConstruct) or [leaf for leaf in body.directive.leaves if leaf != "teams"] != ["distribute"]:
        return None
    loop = body.body
    if not isinstance(loop, c_ast.For) or not isinstance(loop.stmt, c_ast.Compound):
        return None
    items = list(loop.stmt.block_items or [])
    regions = [i for i, s in enumerate(items) if isinstance(s, OmpConstruct) and s.directive.leaves[:1] == ("parallel",)]
    if len(regions) != 1:
        return None
    at = regions[0]
    return loop, items[:at], items[at], items[at + 1:]


def spread_blocker(k: Kernel, plan, candidate: tuple[c_ast.For, list, OmpConstruct, list]) -> str | None:
    """Why kernel k's inner loops may not be spread across the grid (None: they may);
    `candidate` is its spread_candidate."""
    _, before, region, after = candidate
    if plan.mode != "spmd" or not plan.lean:
        return "the kernel is not lean SPMD"
    if plan.packed_teams > 1 and plan.exact_threads != 32:
        return "its teams are packed below a warp"
    dist = k.body.directive
    if k.teams is not None and k.teams.clause("num_teams") is not None or dist.clause("num_teams") is not None:
        return "num_teams sizes the league"
    for kind in ("dist_schedule", "lastprivate", "reduction"):
        if dist.clause(kind) is not None:
            return f"the distribute loop has a '{kind}' clause"
    if collapse_depth(dist) != 1:
        return "the distribute loop is collapsed"
    d = region.directive
    if d.name != "parallel for":
        return f"the region is '{d.name}', not 'parallel for'"
    # a shorter constant loop is never shared out: the spreading's bookkeeping would be all it got
    trip = constant_trip_count(region)
    if trip is not None and trip < SHARED_LOOP_ITERATIONS_PER_THREAD * plan.max_threads:
        return f"the region's loop runs {trip} iterations, too few for another block to share"
    other = sorted({c.kind for c in d.clauses} - _REGION_CLAUSES)
    if other:
        return f"the region has a '{other[0]}' clause"
    for node in walk_nodes(region.body):
        if isinstance(node, OmpConstruct) and node.directive.name != "atomic":
            return f"the region holds '{node.directive.name}'"
    for stmt in before:
        for node in walk_nodes(stmt):
            if isinstance(node, OmpConstruct):
                return f"the serial code before the region holds '{node.directive.name}'"
    for stmt in after:
        for node in walk_nodes(stmt):
            if isinstance(node, OmpConstruct) and node.directive.name not in _AFTER_CONSTRUCTS:
                return f"the serial code after the region holds '{node.directive.name}'"
    called = first_omp_call(k.body)
    if called is not None:
        return f"the kernel calls {called}"
    locals_before: dict[str, c_ast.Decl] = {}
    for stmt in before:
        why = _side_effect_before(stmt, locals_before)
        if why is not None:
            return why
    for c in d.clauses_of("reduction"):
        for item in c.items:
            decl = locals_before.get(item.name)
            if decl is None or item.sections or item.members:
                return f"the reduction item '{item.text}' is not a scalar declared before the region in the loop's body"
            if not _small_arithmetic(decl.type, k):
                return f"the reduction item '{item.name}' is not an arithmetic scalar of at most 8 bytes"
    private = {item.name for kind in ("reduction", "private", "firstprivate") for c in d.clauses_of(kind) for item in c.items}
    # what the team holds a copy of: the serial code's locals, the team's private and
    # firstprivate items and the scalars the kernel receives by value (firstprivate to the target)
    team_copies = dict(locals_before)
    for directive in (k.construct.directive, k.teams, dist):
        for kind in ("private", "firstprivate"):
            for c in directive.clauses_of(kind) if directive is not None else ():
                team_copies.update({item.name: None for item in c.items})
    team_copies.update({cap.name: None for cap in k.captures if cap.how == "literal"})
    written = _shared_local_written(region.body, {n: dcl for n, dcl in team_copies.items() if n not in private})
    if written is not None:
        return f"the region writes '{written}', a local of the loop's body that each block would have its own copy of"
    # A team's threads all read before any writes (the barrier at the region's start); the
    # blocks of one split iteration do not wait for each other.
    if any(reads_memory(stmt) for stmt in before) and _writes_memory(region.body, private):
        return "the serial code before the region reads memory and the region writes memory"
    return None


def reads_memory(node: c_ast.Node) -> bool:
    """Whether evaluating the code may read memory: an element, a member through a pointer or a
    dereference (a plain name is a local or a by-value capture: registers)."""
    return any(isinstance(n, (c_ast.ArrayRef,)) or isinstance(n, c_ast.StructRef) and n.type == "->"
               or isinstance(n, c_ast.UnaryOp) and n.op == "*" for n in walk_nodes(node))


def _writes_memory(body: c_ast.Node, private: set[str]) -> bool:
    """Whether the region's code may store to memory: anything but its own locals and the
    region's private and reduction items."""
    own = set(private)
    for n in walk_nodes(body):
        if isinstance(n, c_ast.Decl) and n.name:
            own.add(n.name)
        elif isinstance(n, c_ast.For):
            parts = canonical_for(n)
            if parts is not None:
                own.add(parts[0])
    return any(not (isinstance(target, c_ast.ID) and target.name in own) for target in stored_lvalues(body))


def _shared_local_written(body: c_ast.Node, shared: dict[str, c_ast.Decl | None]) -> str | None:
    """A variable of `shared` (of which the team holds its own copy: one per block once split)
    that the region assigns, increments or takes the address of, or an element or member of one
    that is not a pointer; None where there is none. Writes through a pointer reach memory outside
    the team and are allowed where the pointer's declaration is known (None: it is not)."""
    def root(lvalue: c_ast.Node) -> str | None:
        node, through_pointer = lvalue, False
        while isinstance(node, (c_ast.ArrayRef, c_ast.StructRef)):
            if isinstance(node, c_ast.StructRef) and node.type == "->":
                through_pointer = True
            node = node.name
        if not isinstance(node, c_ast.ID) or node.name not in shared:
            return None
        decl = shared[node.name]
        if node is not lvalue and (through_pointer or decl is not None and isinstance(decl.type, c_ast.PtrDecl)):
            return None   # an element through a pointer: memory outside the team
        return node.name
    for node in walk_nodes(body):
        target = None
        if isinstance(node, c_ast.Assignment):
            target = node.lvalue
        elif isinstance(node, c_ast.UnaryOp) and node.op in ("++", "--", "p++", "p--", "&"):
            target = node.expr
        name = root(target) if target is not None else None
        if name is not None:
            return name
    return None


def _side_effect_before(stmt: c_ast.Node, locals_before: dict[str, c_ast.Decl]) -> str | None:
    """Serial code before the region runs in every block of an iteration: declarations and
    assignments of the loop body's own locals, nothing that writes memory or calls."""
    if isinstance(stmt, c_ast.Decl) and not isinstance(stmt.type, c_ast.FuncDecl):
        if stmt.init is not None and has_side_effect(stmt.init, PURE_LIBRARY):
            return f"the declaration of '{stmt.name}' before the region has a side effect"
        if stmt.name:
            locals_before[stmt.name] = stmt
        return None
    if isinstance(stmt, c_ast.DeclList):
        for decl in stmt.decls:
            why = _side_effect_before(decl, locals_before)
            if why is not None:
                return why
        return None
    if isinstance(stmt, c_ast.Assignment) and isinstance(stmt.lvalue, c_ast.ID) and stmt.lvalue.name in locals_before \
            and not has_side_effect(stmt.rvalue, PURE_LIBRARY):
        return None
    return "the serial code before the region writes memory or calls a function"


def _small_arithmetic(t: c_ast.Node, k: Kernel) -> bool:
    t = resolve_typedef(t, k.env)
    if not isinstance(t, c_ast.TypeDecl) or not isinstance(t.type, c_ast.IdentifierType):
        return False
    names = t.type.names
    return set(names) <= _ARITHMETIC and not ("long" in names and "double" in names)
