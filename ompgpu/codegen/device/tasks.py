"""Tasks in device code (task, taskloop, taskgroup), run undeferred."""
from __future__ import annotations


from pycparser import c_ast

from ompgpu.analysis.symbols import is_array, region_uses, resolve_typedef
from ompgpu.parser.cfront import walk_nodes
from ompgpu.errors import UnsupportedError
from ompgpu.parser.bind import OmpConstruct, collapse_depth, loop_var_names
from ompgpu.codegen.device import data_sharing, reductions


def task(em, n: OmpConstruct) -> str:
    """Tasks in device code run undeferred: the encountering thread executes the task (or,
    for taskloop, every iteration in order) at once, which OpenMP allows (an included
    task); `depend` (with iterators and depend objects too) is then satisfied by program
    order, taskwait/taskgroup wait for nothing, and `affinity` (a hint) has nothing to say.
    The data environment is the task's: private and firstprivate copies, explicit or by
    OpenMP's default rules (a variable the task writes that is not shared in the enclosing
    context is firstprivate).

    Task reductions: a taskgroup's task_reduction items get one private copy for the thread
    that runs the taskgroup (its tasks all run on that thread), combined into the originals
    atomically at its end; a task's in_reduction items are that copy, or the private copy of
    an enclosing reduction(task, ...): the task updates the name it sees (shared)."""
    d = n.directive
    for c in d.clauses:
        if c.kind == "detach":
            raise UnsupportedError(f"'{c.kind}' on '#pragma omp {d.name}' in device code is not supported yet", c.coord)
    if d.leaves[0] == "taskgroup":
        text = em.stmt_text(n.body)
        reds = reductions.reduction_items(em, d, kinds=("task_reduction",))
        if reds:
            text = em.render_with_ids("reduction_scope.j2", reds=reds, on_stack=em.on_master_stack(), body=text,
                                      barrier=False, team_size="1u")
        return text
    # (a reduction item of taskloop is combined into the original: not copied here)
    explicit = {item.name: c.kind for c in d.clauses
                if c.kind in ("private", "firstprivate", "shared", "lastprivate", "reduction") for item in c.items}
    explicit.update({item.name: "shared" for c in d.clauses if c.kind == "in_reduction" for item in c.items})
    default = next((c.value for c in d.clauses if c.kind == "default"), None)
    loop_vars: tuple[str, ...] = ()
    if d.leaves[0] == "taskloop":
        loop_vars = loop_var_names(n.body, collapse_depth(d))
    uses = region_uses(n.body, em.env)
    copies = {name: "private" for name in loop_vars}
    for sym in uses.order:
        kind = explicit.get(sym.name)
        written = sym in uses.written or _writes_captured_array(em, n.body, sym.name)
        if kind in ("private", "firstprivate"):
            copies[sym.name] = kind
        elif kind is None and sym.name not in copies and written and not sym.is_global and \
                default != "shared" and sym.name not in em.task_shared:
            copies[sym.name] = "firstprivate"
    for item_name, kind in explicit.items():  # listed but not used in the body
        if kind in ("private", "firstprivate") and item_name not in copies and em.env.lookup(item_name) is not None:
            copies[item_name] = kind
    text = em.stmt_text(n.body)
    if d.leaves[0] == "taskloop":
        reds = reductions.reduction_items(em, d)
        if reds:  # every iteration on this thread: one private copy, combined atomically
            text = em.render_with_ids("reduction_scope.j2", reds=reds, on_stack=em.on_master_stack(), body=text, barrier=False, team_size="1u")
    return data_sharing.privatize_names(em, copies, text)


def _writes_captured_array(em, body, name: str) -> bool:
    """Whether the task writes an element of `name`, an array of the program that the kernel
    received as a pointer to its first element (its writes are then not writes of a pointer's
    target but of the array, which the task's firstprivate copy must take)."""
    sym = em.declared_symbol(name)
    if sym is None or not is_array(resolve_typedef(sym.type, em.env)):
        return False
    for node in walk_nodes(body):
        target = node.lvalue if isinstance(node, c_ast.Assignment) else \
            node.expr if isinstance(node, c_ast.UnaryOp) and node.op in ("++", "--", "p++", "p--", "&") else None
        while isinstance(target, (c_ast.ArrayRef, c_ast.StructRef)):
            target = target.name
        if isinstance(target, c_ast.ID) and target.name == name:
            return True
    return False
