"""Target tasks: a target construct with nowait or depend runs in a host task (libgomp's),
with the variables it captures shared or firstprivate.
"""
from __future__ import annotations

from dataclasses import dataclass

from ompgpu.analysis.symbols import is_array, is_pointer, resolve_typedef
from ompgpu.outliner.outline import Kernel

from ompgpu.codegen.host.maps import MapEntry, host_item_text
from ompgpu.codegen.host.source_text import IDENT


@dataclass(frozen=True)
class TargetTask:
    """A host `#pragma omp task` around a construct with nowait or depend (OpenMP's
    target task): libgomp provides deferral, dependences and taskwait; the runtime runs
    each task's transfers and kernels on the stream of the host thread that executes it.
    `deferred` is False for depend without nowait (an undeferred task that still waits
    for its dependences). Variables whose address the construct uses are shared; values
    the construct captures (firstprivate scalars, pointer values, section bounds) are
    firstprivate, i.e. taken when the construct is encountered."""

    deferred: bool
    depends: tuple[tuple[str, str], ...]  # (dependence type, items as written)
    shared: tuple[str, ...]
    firstprivate: tuple[str, ...]
    # in_reduction(op: items) of the target construct (OpenMP 5.0): the task joins the
    # enclosing task reduction, so the construct maps the task's own copy of each item
    in_reductions: tuple[tuple[str, str], ...] = ()
    # depend on omp_all_memory: a taskwait first, then the task undeferred (see target_task)
    wait_for_siblings: bool = False


def _held_by_value(sym, env) -> bool:
    """A pointer, or an array parameter (a pointer too): the task copies its value."""
    if sym is None:
        return False
    t = resolve_typedef(sym.type, env)
    return is_pointer(t) or (sym.is_param and is_array(t))


def kernel_task_vars(k: Kernel) -> tuple[list[str], list[str]]:
    """(shared, firstprivate) variables of a target region's task: mapped objects by
    address, captured values (firstprivate scalars, pointers) by value."""
    shared, values = [], []
    for cap in k.captures:
        if cap.how in ("literal", "attach", "private") or _held_by_value(cap.sym, k.env):
            values.append(cap.name)
        else:
            shared.append(cap.name)
    for c in k.construct.directive.clauses:
        if c.kind == "map":
            for item in c.items:
                if not item.members and _held_by_value(k.env.lookup(item.name), k.env):
                    values.append(item.name)
                else:
                    shared.append(item.name)
    return shared, values


def data_task_vars(d, env) -> tuple[list[str], list[str]]:
    shared, values = [], []
    for c in d.clauses:
        if c.kind in ("map", "to", "from"):
            for item in c.items:
                if not item.members and _held_by_value(env.lookup(item.name), env):
                    values.append(item.name)
                else:
                    shared.append(item.name)
    return shared, values


def target_task(d, env, maps: list[MapEntry], exprs: tuple[str, ...], task_vars) -> TargetTask | None:
    nowait = d.has("nowait")
    # inoutset (5.1; gcc 12 lacks it) as inout: ordered among themselves too, never less ordered
    depends = tuple((_host_dep_type(c.dep_type) if c.iterators is None
                     else f"iterator({c.iterators.text}), {_host_dep_type(c.dep_type)}",
                     ", ".join(host_item_text(item) for item in c.items)) for c in d.clauses_of("depend"))
    all_memory = any(item.name == "omp_all_memory" for c in d.clauses_of("depend") for item in c.items)
    if all_memory:
        # depend(inout: omp_all_memory) (5.1; gcc 12 lacks it): the task waits for every
        # earlier sibling task and every later one waits for it. Waiting for all the child
        # tasks first and running this one at once orders it the same way.
        nowait, depends = False, ()
    in_reductions = tuple((c.op, ", ".join(item.text for item in c.items)) for c in d.clauses_of("in_reduction"))
    if not nowait and not depends and not in_reductions and not all_memory:
        return None
    reduced = {item.name for c in d.clauses_of("in_reduction") for item in c.items}
    shared, values = task_vars
    shared = [n for n in shared if n not in reduced]
    values = [n for n in values if n not in reduced]
    # Names in section bounds and clause expressions are read when the task runs: take
    # their values at the construct (firstprivate), unless the construct maps them.
    for text in [m.begin for m in maps] + [m.size for m in maps] + list(exprs):
        values += IDENT.findall(text)
    local = lambda n: (sym := env.lookup(n)) is not None and sym.kind == "var" and not sym.is_global
    shared_out = _unique(n for n in shared if local(n))
    first_out = _unique(n for n in values if local(n) and n not in shared_out and n not in reduced)
    return TargetTask(nowait, depends, tuple(shared_out), tuple(first_out), in_reductions, all_memory)


def _unique(names) -> list[str]:
    out = []
    for n in names:
        if n not in out:
            out.append(n)
    return out


def _host_dep_type(dep_type: str) -> str:
    return "inout" if dep_type == "inoutset" else dep_type
