"""Atomic updates combined per block (issue 34; the device side is runtime/device/combine.cuh).

streamcluster's teams add each point's cost to one of 32 totals with `#pragma omp atomic`:
65,536 global atomics a launch on 32 addresses, 0.38 of its 0.59 ms on an H200, where CUDA's
version sums them per block in shared memory (bench/results/issue34-h200-2026-11-27-s5-exp3-5-README.txt).

A location that the kernel only ever updates with relaxed atomic additions (or subtractions) is
read by nobody while the kernel runs, so when each addition reaches memory is nobody's concern
before the kernel ends: a block may sum them and add the sum once. "Nobody" must include other
names for the same storage. This pass allows a kernel only where every access to memory goes
through an array or pointer it receives (no pointer locals, casts to pointers, address-of, struct
members or globals, no calls but pure library functions), and names the received arrays and
pointers used only as the targets of `atomic` updates `x += e`, `x -= e`, `x++`, `x--` (relaxed,
no capture) of an arithmetic type the table holds. Whether another received pointer reaches the
same storage is known only at the launch: the host runtime sets a candidate's bit where its
mapping is no other pointer's (runtime/host/target.cpp combine_mask); the kernel receives the mask.
"""
from __future__ import annotations

from pycparser import c_ast

from ompgpu.analysis.library import PURE_LIBRARY
from ompgpu.analysis.symbols import resolve_typedef
from ompgpu.outliner.outline import Kernel
from ompgpu.parser.bind import OmpConstruct
from ompgpu.parser.cfront import sole_statement, walk_nodes

# Element types of the table (combine.cuh combine_kind), as pycparser spells them.
_TYPES = {("int",): "int", ("signed", "int"): "int", ("unsigned", "int"): "unsigned", ("unsigned",): "unsigned",
          ("long",): "long", ("long", "int"): "long", ("long", "long"): "long long", ("long", "long", "int"): "long long",
          ("unsigned", "long"): "unsigned long", ("unsigned", "long", "long"): "unsigned long long",
          ("float",): "float", ("double",): "double"}
_MEMORY_ORDERS = frozenset({"seq_cst", "acq_rel", "release", "acquire"})
# Kinds of capture whose target the host can find among its mappings (outliner/outline.py Capture)
_MAPPED = frozenset({"pointer", "object", "attach"})


def combined_atomics(k: Kernel, plan, default_order: str = "relaxed") -> tuple[str, ...]:
    """Names of the kernel's captured arrays and pointers whose atomic updates may be combined per
    block (in capture order), () where none may."""
    if plan.mode != "spmd" or not plan.lean or default_order != "relaxed":
        return ()
    body = k.body
    roots: dict[int, str] = {}   # id of an ID node at an update's target -> its name
    for node in walk_nodes(body):
        if isinstance(node, c_ast.StructRef) or _pointer_cast(node, k):
            return ()
        if isinstance(node, c_ast.UnaryOp) and node.op == "&":
            return ()
        if isinstance(node, c_ast.Decl) and isinstance(node.type, (c_ast.PtrDecl, c_ast.ArrayDecl)) \
                and not isinstance(node.type, c_ast.FuncDecl):
            return ()   # a local array or pointer: another name for memory
        if isinstance(node, c_ast.FuncCall):
            name = node.name.name if isinstance(node.name, c_ast.ID) else None
            if name not in PURE_LIBRARY:
                return ()
        if isinstance(node, OmpConstruct) and node.directive.name == "atomic":
            target = _update_target(node)
            if target is not None:
                roots[id(target)] = target.name
    captured = {cap.name: cap for cap in k.captures}
    locals_ = {n.name for n in walk_nodes(body) if isinstance(n, c_ast.Decl) and n.name}
    uses: dict[str, list[c_ast.ID]] = {}
    called = {id(n.name) for n in walk_nodes(body) if isinstance(n, c_ast.FuncCall)}
    for node in walk_nodes(body):
        if not isinstance(node, c_ast.ID) or id(node) in called:
            continue
        if node.name in captured:
            uses.setdefault(node.name, []).append(node)
        elif node.name not in locals_:
            sym = k.env.lookup(node.name)
            if sym is not None and sym.kind == "var" and sym.is_global:
                return ()   # a global: storage the host runtime does not see at the launch
    if any(_holds_pointers(cap, k) for cap in k.captures if cap.name in uses):
        return ()   # a pointer read from memory may point anywhere
    out = []
    for cap in k.captures:
        ids = uses.get(cap.name, [])
        if cap.how in _MAPPED and not cap.device_address and ids and all(id(n) in roots for n in ids) \
                and _element_type(cap, k) is not None:
            out.append(cap.name)
    return tuple(out)


def capture_roles(k: Kernel, combined: tuple[str, ...]) -> tuple[int, ...]:
    """Per kernel argument (capture order): k + 1 for the k-th combined name, -1 for an array or
    pointer whose mapping the runtime must find, -2 for one it cannot (its address is the
    device's: nothing is combined), 0 for a value."""
    roles = []
    for cap in k.captures:
        if cap.name in combined:
            roles.append(combined.index(cap.name) + 1)
        elif cap.device_address:
            roles.append(-2)
        elif cap.how in _MAPPED:
            roles.append(-1)
        else:
            roles.append(0)
    return tuple(roles)


def _update_target(n: OmpConstruct) -> c_ast.ID | None:
    """The root ID of the element a relaxed `atomic` update adds to or subtracts from; None for any
    other atomic construct."""
    d = n.directive
    if any(c.kind in ("read", "write", "capture", "compare") or c.kind in _MEMORY_ORDERS for c in d.clauses):
        return None
    return added_array(sole_statement(n.body))


def added_array(stmt: c_ast.Node | None) -> c_ast.ID | None:
    """The array or pointer under the element that an update statement adds to or subtracts from
    (x[i]... += e, -= e, ++, --), None for any other statement: the targets this pass combines,
    and codegen's test for them (codegen/device/sync.py)."""
    if isinstance(stmt, c_ast.UnaryOp) and stmt.op in ("++", "--", "p++", "p--"):
        target = stmt.expr
    elif isinstance(stmt, c_ast.Assignment) and stmt.op in ("+=", "-="):
        target = stmt.lvalue
    else:
        return None
    if not isinstance(target, c_ast.ArrayRef):
        return None
    while isinstance(target, c_ast.ArrayRef):
        target = target.name
    return target if isinstance(target, c_ast.ID) else None


def _element_type(cap, k: Kernel) -> str | None:
    t = resolve_typedef(cap.sym.type, k.env)
    while isinstance(t, (c_ast.PtrDecl, c_ast.ArrayDecl)):
        t = resolve_typedef(t.type, k.env)
    if not isinstance(t, c_ast.TypeDecl) or not isinstance(t.type, c_ast.IdentifierType) or "volatile" in (t.quals or []):
        return None
    names = tuple(n for n in t.type.names if n not in ("signed",) or len(t.type.names) == 1)
    return _TYPES.get(tuple(t.type.names)) or _TYPES.get(names)


def _holds_pointers(cap, k: Kernel) -> bool:
    """Whether reading the capture's elements (or members) may read a pointer: a pointer below
    its first level, or a struct or union."""
    t = resolve_typedef(cap.sym.type, k.env)
    first = True
    while isinstance(t, (c_ast.PtrDecl, c_ast.ArrayDecl)):
        if isinstance(t, c_ast.PtrDecl) and not first:
            return True
        first = False
        t = resolve_typedef(t.type, k.env)
    return not (isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.IdentifierType))


def _pointer_cast(node: c_ast.Node, k: Kernel) -> bool:
    return isinstance(node, c_ast.Cast) and isinstance(resolve_typedef(node.to_type.type, k.env), (c_ast.PtrDecl, c_ast.ArrayDecl))
