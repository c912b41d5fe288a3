"""What calls of the program's functions may do, for the planner: whether a user function is pure
(every thread that calls it with the same arguments gets the same value and changes nothing, so
SPMD serial code may call it), whether a call never reads the runtime's team or thread state, and
whether a parallel region's work function may read it (plan/mode.py decides the kernel's mode and
state from these)."""
from __future__ import annotations

from pycparser import c_ast

from ompgpu.analysis.library import DEVICE_LIBRARY, OMP_DEVICE_API, PURE_LIBRARY, SERIAL_API, STATE_API
from ompgpu.analysis.symbols import stored_lvalues
from ompgpu.outliner.outline import Program
from ompgpu.parser.bind import OmpConstruct, collapse_depth, loop_var_names
from ompgpu.parser.cfront import walk_nodes


def pure_function(program: Program, name: str, seen: frozenset[str] = frozenset()) -> bool:
    """Whether the user function `name` computes its result from its arguments and memory
    reads alone: it assigns only its own non-static locals and parameters (no store through a
    pointer, to a global or to a static), has no OpenMP construct and calls only such
    functions, pure library functions and the uniform omp_* queries. Every thread of a team
    calling it with the same arguments gets the same value and changes nothing."""
    if name in seen:
        return True
    fn = program.functions.get(name)
    if fn is None or fn.body is None:
        return False
    locals_: set[str] = set()
    arrays: set[str] = set()
    params = fn.decl.type.args.params if isinstance(fn.decl.type, c_ast.FuncDecl) and fn.decl.type.args else []
    for node in [*params, *walk_nodes(fn.body)]:
        if isinstance(node, c_ast.Decl) and node.name:
            if "static" in (node.storage or []) or "extern" in (node.storage or []):
                return False
            sym = program.globals_env.lookup(node.name)
            if sym is not None and sym.kind == "var":
                return False  # a local that shadows a global: keep the check simple
            locals_.add(node.name)
            if isinstance(node.type, c_ast.ArrayDecl) and node not in params:
                arrays.add(node.name)
    for node in walk_nodes(fn.body):
        if isinstance(node, OmpConstruct):
            return False
        target = None
        if isinstance(node, c_ast.Assignment):
            target = node.lvalue
        elif isinstance(node, c_ast.UnaryOp) and node.op in ("++", "--", "p++", "p--"):
            target = node.expr
        if target is not None:
            root = target
            while isinstance(root, c_ast.ArrayRef) and isinstance(root.name, (c_ast.ArrayRef, c_ast.ID)):
                root = root.name
            if not isinstance(root, c_ast.ID) or root.name not in locals_ or (root is not target and root.name not in arrays):
                return False
        if isinstance(node, c_ast.FuncCall):
            callee = node.name.name if isinstance(node.name, c_ast.ID) else None
            if callee is None:
                return False
            if callee in program.functions:
                if not pure_function(program, callee, seen | {name}):
                    return False
            elif callee not in PURE_LIBRARY and SERIAL_API.get(callee, True):
                return False
    return True


def stateless_call(program: Program, name: str, seen: frozenset[str] = frozenset()) -> bool:
    """Whether a call of `name` never reads the runtime's team or thread state: a device
    library function, an omp_* routine that needs no state, or a user function defined in
    this file whose body has no OpenMP construct and no call through a pointer and calls only
    such functions (a recursive cycle among them included). A function defined elsewhere
    (another file, a library) may do anything."""
    if name in STATE_API:
        return False
    if name not in program.functions:
        return name in DEVICE_LIBRARY or name in OMP_DEVICE_API
    if name in seen:
        return True
    fn = program.functions[name]
    return fn.body is not None and stateless_code(program, fn.body, seen | {name})


def stateless_code(program: Program, code: c_ast.Node, seen: frozenset[str] = frozenset()) -> bool:
    """Code with no OpenMP construct whose every call is a stateless_call (none through a pointer)."""
    for node in walk_nodes(code):
        if isinstance(node, OmpConstruct):
            return False
        if isinstance(node, c_ast.FuncCall):
            callee = node.name.name if isinstance(node.name, c_ast.ID) else None
            if callee is None or not stateless_call(program, callee, seen):
                return False
    return True


# Clauses of a `parallel` directive whose code in the work function reads no thread state:
# the data-sharing ones (copies made at the fork or in the work function's own locals) and
# the ones the fork site evaluates (if, num_threads, proc_bind).
_STATELESS_PARALLEL_CLAUSES = frozenset({"if", "num_threads", "proc_bind", "default", "shared", "private", "firstprivate"})


def region_reads_thread_state(program: Program, region: OmpConstruct) -> bool:
    """Whether the work function of a plain `parallel` region may read the runtime's per-thread
    state (its team size, nesting level, worksharing sequence). Conservatively true unless the
    directive is `parallel` alone with data-sharing clauses only, its body holds no OpenMP
    construct and every call in it is stateless (stateless_call: no omp_* state routine, no
    function defined elsewhere, no call through a pointer). A generic kernel whose regions are
    all of that kind leaves the per-fork store of the workers' state out
    (runtime/device/parallelism.cuh worker_wait)."""
    d = region.directive
    if list(d.leaves) != ["parallel"] or any(c.kind not in _STATELESS_PARALLEL_CLAUSES for c in d.clauses):
        return True
    return region.body is not None and not stateless_code(program, region.body)


# Clauses after which a region's code stores nothing outside its own copies (lastprivate, linear,
# copyin and reductions into a shared original do store)
_STORELESS_REGION_CLAUSES = frozenset({"num_threads", "proc_bind", "default", "shared", "private", "firstprivate",
                                       "collapse", "schedule", "nowait"})


def region_stores_nothing(program: Program, region: OmpConstruct, outer_names, own_reductions: set[str]) -> bool:
    """Whether a team-level parallel region stores nothing that another thread could read: its
    body has no OpenMP construct; each assignment and ++/-- names a local declared in the body,
    a private or firstprivate item of the directive or a loop variable it privatizes, or an item
    of `own_reductions` (reductions that combine into each thread's own copy); every call is to
    a pure function. A name the body declares that also names something outside (`outer_names`,
    a predicate) is not trusted to be the body's own. Other clauses (lastprivate, linear, a
    reduction into a shared original) store. Then no barrier needs to keep the region's stores
    from reads that slower threads still make before it (plan/mode.py)."""
    d = region.directive
    own = set(own_reductions)
    for c in d.clauses:
        if c.kind == "reduction":
            if any(item.name not in own_reductions for item in c.items):
                return False
        elif c.kind not in _STORELESS_REGION_CLAUSES:
            return False
        elif c.kind in ("private", "firstprivate"):
            own |= {item.name for item in c.items}
    body = region.body
    declared = set()
    for node in walk_nodes(body):
        if isinstance(node, OmpConstruct):
            return False
        if isinstance(node, c_ast.Decl) and node.name:
            if "static" in (node.storage or []) or "extern" in (node.storage or []):
                return False
            declared.add(node.name)
        elif isinstance(node, c_ast.FuncCall):
            callee = node.name.name if isinstance(node.name, c_ast.ID) else None
            if callee is None or not (callee in PURE_LIBRARY or
                                      (callee in program.functions and pure_function(program, callee))):
                return False
    if any(outer_names(name) for name in declared):
        return False
    own |= declared
    if list(d.leaves[1:2]) in (["for"], ["loop"]):
        own |= set(loop_var_names(body, collapse_depth(d)))
    return all(isinstance(target, c_ast.ID) and target.name in own for target in stored_lvalues(body))
