"""A host loop run as one persistent kernel (plan/persistent_loops.py): the parts of its kernel
for persistent_loop.j2. The loop's host statements are the user's, printed for the device; each
thread runs them on its own copies of the loop's scalars."""
from __future__ import annotations

from pycparser import c_ast

from ompgpu.analysis.symbols import Symbol, resolve_typedef
from ompgpu.codegen.device.cdecl import cxx_name, type_string
from ompgpu.plan.mode import constant_thread_limit
from ompgpu.plan.persistent_loops import BarrierStep, CarryStep, CopyStep, HostStep, PersistentLoop, RegionStep


def scalar_type(sym: Symbol, env) -> str:
    """The C type words of one of a loop's scalars (PersistentLoop.state: arithmetic types only),
    as both the host's C and the device's C++ spell them alike."""
    t = resolve_typedef(sym.type, env)
    return " ".join(t.type.names)


def emit_loop(em, loop: PersistentLoop, kernel_parts: dict[int, dict]) -> dict:
    """`em`: an Emitter for the loop's kernel; kernel_parts: what kernel.emit_kernel gave for each
    region, by id of its Kernel (its name, its parameters as (declaration, type))."""
    state = [{"name": cxx_name(s.name), "type": device_type(scalar_type(s, loop.env)),
              "written": s.name in loop.written} for s in loop.state]
    cell_types = {i: device_type(scalar_type(it.sym, loop.env)) for i, it in enumerate(loop.items) if it.cell}
    steps = []
    for step in loop.steps:
        if isinstance(step, HostStep):
            steps.append({"kind": "host", "text": em.statement(step.stmt)})
        elif isinstance(step, BarrierStep):
            steps.append({"kind": "barrier"})
        elif isinstance(step, CarryStep):
            skip = dict(step.skip_when)
            steps.append({"kind": "carry", "cells": [
                {"item": i, "type": cell_types[i],
                 # copied over only where the iteration does not write it whole first
                 "only": {"present": f"!ompgpu::loop_item_present(__loop_present, {i}u)",
                          "absent": f"ompgpu::loop_item_present(__loop_present, {i}u)"}.get(skip.get(i))}
                for i in cell_types]})
        elif isinstance(step, RegionStep):
            kt = kernel_parts[id(step.kernel)]
            args = []
            for cap, item, (_, ptype) in zip(step.kernel.captures, step.items, kt["params"]):
                if item is None:
                    source = cxx_name(cap.name)
                elif loop.items[item].cell:
                    source = f"ompgpu::loop_cell(__loop_items, {item}u, __loop_parity)"
                else:
                    source = f"__loop_items[{item}]"
                args.append(f"({ptype})({source})")
            if kt["packed"] > 1:   # every team of the grid (the loop's block holds kt["packed"])
                args.append(f"ompgpu::packed_league({kt['packed']}u)")
            if kt["mode"] == "generic":
                args.append(f"{constant_thread_limit(step.kernel)}u")
            steps.append({"kind": "region", "function": f"{kt['name']}__region", "args": args})
        elif isinstance(step, CopyStep):
            name = cxx_name(loop.items[step.item].name)
            storage = f"*({cell_types[step.item]} *)ompgpu::loop_cell(__loop_items, {step.item}u, __loop_parity)"
            steps.append({"kind": "copy", "item": step.item, "when_present": step.when_present,
                          "to_device": step.to_device,
                          "assign": f"{storage} = {name}" if step.to_device else f"{name} = {storage}"})
    cells = [{"item": i, "type": t} for i, t in cell_types.items()]
    pointers = [{"name": cxx_name(p.name), "decl": type_string(p.type, cxx_name(p.name)), "type": type_string(p.type),
                 "item": item, "written": p.name in loop.written} for p, item in loop.pointers]
    return {"name": loop.name, "coord": loop.coord, "threads": loop.team_threads, "state": state, "pointers": pointers,
            "cells": cells,
            "header": _header(em, loop.loop), "footer": _footer(em, loop.loop), "steps": steps,
            "top_barrier": loop.top_barrier}


def device_type(words: str) -> str:
    return " ".join("bool" if w == "_Bool" else w for w in words.split())


def _header(em, n: c_ast.Node) -> str:
    if isinstance(n, c_ast.For):
        parts = [em.visit(p) if p is not None else "" for p in (n.init, n.cond, n.next)]
        return f"for ({parts[0]}; {parts[1]}; {parts[2]})"
    if isinstance(n, c_ast.While):
        return f"while ({em.visit(n.cond)})"
    return "do"


def _footer(em, n: c_ast.Node) -> str:
    return f" while ({em.visit(n.cond)});" if isinstance(n, c_ast.DoWhile) else ""
