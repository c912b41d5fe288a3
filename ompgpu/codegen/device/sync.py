"""Synchronization: atomic (read, write, update, capture, compare) with memory orders,
barrier, flush, critical, single, master/masked."""
from __future__ import annotations

from pycparser import c_ast

from ompgpu.errors import UnsupportedError
from ompgpu.parser.directives import error_directive_form
from ompgpu.parser.bind import OmpConstruct
from ompgpu.codegen.device import data_sharing
from ompgpu.plan.combine import added_array


ATOMIC_OPS = {"+": "ATOMIC_ADD", "-": "ATOMIC_SUB", "*": "ATOMIC_MUL", "/": "ATOMIC_DIV", "&": "ATOMIC_BAND",
              "|": "ATOMIC_BOR", "^": "ATOMIC_BXOR", "<<": "ATOMIC_SHL", ">>": "ATOMIC_SHR"}


_MEMORY_ORDERS = ("seq_cst", "acq_rel", "release", "acquire", "relaxed")


def atomic(em, n: OmpConstruct) -> str:
    text = atomic_operation(em, n)
    # The memory order (the clause, else `requires atomic_default_mem_order`, else relaxed):
    # CUDA's atomics are relaxed, so release and acquire become fences around the operation
    # (OpenMP: a seq_cst atomic implies a flush before and after it).
    order = next((c.kind for c in n.directive.clauses if c.kind in _MEMORY_ORDERS), em.g.default_mem_order)
    before = "__threadfence();\n" if order in ("seq_cst", "acq_rel", "release") else ""
    after = "__threadfence();\n" if order in ("seq_cst", "acq_rel", "acquire") else ""
    return before + text + after


def atomic_compare(em, stmt: c_ast.Node | None) -> str | None:
    """The device code of an OpenMP 5.1 `atomic compare` statement (no capture): the
    conditional-update forms with < or > (a minimum or maximum) and with == (a
    compare-and-swap); None for any other statement."""
    if isinstance(stmt, c_ast.Assignment) and stmt.op == "=" and isinstance(stmt.rvalue, c_ast.TernaryOp):
        # x = cond ? e : x
        x, t = em.visit(stmt.lvalue), stmt.rvalue
        if em.visit(t.iffalse) != x:
            return None
        cond, new = t.cond, t.iftrue
    elif isinstance(stmt, c_ast.If) and stmt.iffalse is None and isinstance(stmt.iftrue, c_ast.Compound):
        # if (cond) { x = e; }  (the braces are part of the form)
        then = stmt.iftrue.block_items
        if not (len(then or []) == 1 and isinstance(then[0], c_ast.Assignment) and then[0].op == "="):
            return None
        x, cond, new = em.visit(then[0].lvalue), stmt.cond, then[0].rvalue
    else:
        return None
    if not (isinstance(cond, c_ast.BinaryOp) and cond.op in ("<", ">", "==")):
        return None
    left, right, e = em.visit(cond.left), em.visit(cond.right), em.visit(new)
    if left == x and right != x:
        other, x_first = right, True
    elif right == x and left != x:
        other, x_first = left, False
    else:
        return None
    if cond.op == "==":
        # x == other ? d : x  /  if (x == other) x = d
        return f"ompgpu_atomic_compare_exchange(&({x}), {other}, {e});\n"
    if e != other:
        return None   # x = e < x ? f : x with f not e: not a form of OpenMP 5.1
    # e < x (or x > e) replaces x by a smaller value: a minimum; the other way a maximum.
    smaller = (cond.op == "<") != x_first
    return f"ompgpu_atomic_update(ompgpu::{'ATOMIC_MIN' if smaller else 'ATOMIC_MAX'}, &({x}), {e});\n"


def atomic_operation(em, n: OmpConstruct) -> str:
    d = n.directive
    kinds = [c.kind for c in d.clauses if c.kind in ("read", "write", "update", "capture", "compare")]
    kind = kinds[0] if kinds else "update"
    body = n.body
    stmts = body.block_items if isinstance(body, c_ast.Compound) else [body]
    stmts = [s for s in (stmts or []) if not isinstance(s, c_ast.EmptyStatement)]
    if "compare" in kinds:
        if "capture" in kinds:
            raise UnsupportedError("'atomic compare capture' is not supported yet", d.coord)
        text = atomic_compare(em, stmts[0] if len(stmts) == 1 else None)
        if text is None:
            raise UnsupportedError("statement form of 'atomic compare' is not recognised (expected "
                                   "'x = e < x ? e : x;', 'x = x == e ? d : x;', 'if (e < x) { x = e; }', "
                                   "'if (x == e) { x = d; }' or the same with > or the operands swapped)", d.coord)
        return text
    err = UnsupportedError(f"statement form of 'atomic {kind}' is not recognised", d.coord)
    if kind == "read":
        s = stmts[0] if len(stmts) == 1 else None
        if not (isinstance(s, c_ast.Assignment) and s.op == "="):
            raise err
        return f"{em.visit(s.lvalue)} = ompgpu_atomic_read(&({em.visit(s.rvalue)}));\n"
    if kind == "write":
        s = stmts[0] if len(stmts) == 1 else None
        if not (isinstance(s, c_ast.Assignment) and s.op == "="):
            raise err
        return f"ompgpu_atomic_write(&({em.visit(s.lvalue)}), {em.visit(s.rvalue)});\n"
    if kind == "update":
        if len(stmts) != 1:
            raise err
        upd = update_expr(em, stmts[0])
        if upd is None:
            raise err
        x, op, e, _ = upd
        combined = em.plan.combine_atomics if em.plan is not None else ()
        root = added_array(stmts[0])
        if root is not None and root.name in combined:   # plan/combine.py
            return f"ompgpu::combine_update(ompgpu::{op}, &({x}), {e}, {combined.index(root.name)}u);\n"
        return f"ompgpu_atomic_update(ompgpu::{op}, &({x}), {e});\n"
    # capture
    if len(stmts) == 1:
        s = stmts[0]
        if not (isinstance(s, c_ast.Assignment) and s.op == "="):
            raise err
        v = em.visit(s.lvalue)
        upd = update_expr(em, s.rvalue)
        if upd is None:
            raise err
        x, op, e, new = upd
        fn = "ompgpu_atomic_update_new" if new else "ompgpu_atomic_update"
        return f"{v} = {fn}(ompgpu::{op}, &({x}), {e});\n"
    if len(stmts) == 2:
        a, b = stmts
        if isinstance(a, c_ast.Assignment) and a.op == "=" and update_expr(em, b) is not None:
            x, op, e, _ = update_expr(em, b)
            if em.visit(a.rvalue) == x:
                return f"{em.visit(a.lvalue)} = ompgpu_atomic_update(ompgpu::{op}, &({x}), {e});\n"
        if isinstance(b, c_ast.Assignment) and b.op == "=" and update_expr(em, a) is not None:
            x, op, e, _ = update_expr(em, a)
            if em.visit(b.rvalue) == x:
                return f"{em.visit(b.lvalue)} = ompgpu_atomic_update_new(ompgpu::{op}, &({x}), {e});\n"
        if isinstance(a, c_ast.Assignment) and a.op == "=" and isinstance(b, c_ast.Assignment) and b.op == "=" \
                and em.visit(a.rvalue) == em.visit(b.lvalue):
            # { v = x; x = e; }: atomic exchange
            x = em.visit(b.lvalue)
            return f"{em.visit(a.lvalue)} = ompgpu_atomic_update(ompgpu::ATOMIC_ASSIGN, &({x}), {em.visit(b.rvalue)});\n"
    raise err


def update_expr(em, s) -> tuple[str, str, str, bool] | None:
    """(x, op, e, yields_new) for x++, ++x, x--, --x, x op= e, x = x op e."""
    if isinstance(s, c_ast.UnaryOp) and s.op in ("++", "--", "p++", "p--"):
        op = "ATOMIC_ADD" if "+" in s.op else "ATOMIC_SUB"
        return em.visit(s.expr), op, "1", not s.op.startswith("p")
    if isinstance(s, c_ast.Assignment):
        x = em.visit(s.lvalue)
        if s.op != "=" and s.op[:-1] in ATOMIC_OPS:
            return x, ATOMIC_OPS[s.op[:-1]], em.visit(s.rvalue), True
        if s.op == "=" and isinstance(s.rvalue, c_ast.BinaryOp) and s.rvalue.op in ATOMIC_OPS:
            if em.visit(s.rvalue.left) == x:
                return x, ATOMIC_OPS[s.rvalue.op], em.visit(s.rvalue.right), True
            if em.visit(s.rvalue.right) == x and s.rvalue.op in ("+", "*", "&", "|", "^"):
                return x, ATOMIC_OPS[s.rvalue.op], em.visit(s.rvalue.left), True
    return None


def barrier(em) -> str:
    """`#pragma omp barrier`: the team's barrier (synchronization.cuh picks the PTX form)."""
    return em.render_with_ids("stmt.j2", kind="barrier", team_size=em.team_size, aligned=em.aligned(), whole_block=em.whole_block)


def flush(em) -> str:
    return em.render_with_ids("stmt.j2", kind="flush")


def single(em, n: OmpConstruct) -> str:
    d = n.directive
    if d.clause("copyprivate") is not None:
        raise UnsupportedError("'copyprivate' on '#pragma omp single' in device code is not supported yet",
                               d.clause("copyprivate").coord or d.coord)
    # With the team known, thread 0 runs the block (any one thread may): no team state
    return em.render_with_ids("stmt.j2", kind="single", body=data_sharing.privatize(em, d, em.stmt_text(n.body)), nowait=d.has("nowait"),
                  team_size=em.team_size, thread_num_known=em.thread_num_known, aligned=em.aligned(),
                  whole_block=em.whole_block)


def master(em, n: OmpConstruct) -> str:
    """`master`, and `masked` with its filter thread."""
    c = n.directive.clause("filter")
    return em.render_with_ids("stmt.j2", kind="master", body=em.stmt_text(n.body), filter=c.expr.text if c else "0",
                  thread_num_known=em.thread_num_known)


def critical(em, n: OmpConstruct) -> str:
    name = n.directive.critical_name or "unnamed"
    em.g.critical_names.add(name)
    return em.render_with_ids("stmt.j2", kind="critical", name=name, body=em.stmt_text(n.body))


def error_directive(em, d) -> str:
    """An error directive at(execution) (OpenMP 5.1) in device code (at(compilation) stopped or
    warned the compile in the binder): the thread that meets it prints its message on the
    device's printf stream; a fatal one then stops the kernel."""
    _, severity, message = error_directive_form(d)
    text = message if message is not None else '""'
    where = f"{d.coord.file}:{d.coord.line}".replace("\\", "\\\\").replace('"', '\\"').replace("%", "%%")
    if severity == "fatal":
        return f'OMPGPU_FAIL("{where}: error directive: %s\\n", (const char *)({text}));'
    return f'printf("{where}: warning directive: %s\\n", (const char *)({text}));'
