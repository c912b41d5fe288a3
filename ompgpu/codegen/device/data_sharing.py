"""Data sharing and privatization: private/firstprivate/lastprivate copies, master
variables on the soft stack (escaping locals), team-shared locals of SPMD kernels and the
guarded serial code that initializes them, team-shared scalars held in registers."""
from __future__ import annotations

import copy
from typing import Callable

from pycparser import c_ast

from ompgpu.analysis.symbols import (Env, ScopedVisitor, Symbol, declare, is_array, region_uses, resolve_typedef,
                                     walk_nodes)
from ompgpu.codegen.render import render
from ompgpu.codegen.shared_scalars import written_names
from ompgpu.errors import OmpSemanticError
from ompgpu.outliner.outline import region_sharing
from ompgpu.parser.bind import OmpConstruct, collapse_depth, loop_binding, loop_var_names
from ompgpu.parser.directives import Directive
from ompgpu.codegen.device.cdecl import unqualified, cxx_name, type_string, strip_quals


def allocate_alignment(d: Directive, name: str) -> str | None:
    """The align(n) of an allocate clause of `d` (OpenMP 5.1) that names `name`, else None."""
    return next((c.align.text for c in d.clauses if c.kind == "allocate" and c.align is not None
                 for item in c.items if item.name == name), None)


def aligned(d: Directive | None, name: str, decl: str) -> str:
    """A private copy's declaration with the alignment its construct's allocate clause asks for."""
    align = allocate_alignment(d, name) if d is not None else None
    return decl if align is None else f"OMPGPU_ALIGN({align}) {decl}"


def privatize(em, d: Directive, text: str) -> str:
    """`text` (the code of a teams or distribute construct) in a scope where the construct's
    private and firstprivate variables are the team's own copies."""
    return privatize_names(em, {item.name: c.kind for c in d.clauses if c.kind in ("private", "firstprivate")
                                  for item in c.items if item.is_plain}, text, d)


def privatize_names(em, copies: dict[str, str], text: str, d: Directive | None = None) -> str:
    """`text` in a scope where each named variable is a private or firstprivate copy (aligned
    as the allocate clauses of `d` ask)."""
    decls = []
    for name_in_c, kind in copies.items():
        sym = em.declared_symbol(name_in_c)
        if sym is None:
            continue
        name = cxx_name(name_in_c)
        t = resolve_typedef(sym.type, em.env)
        own = unqualified(sym.type)  # the copy is written once, so it cannot be const
        decls.append(render("privatize.j2", kind=kind, name=name, type=type_string(own),
                            decl=aligned(d, name_in_c, type_string(own, name + "__priv")), array=is_array(t),
                            on_stack=em.on_master_stack(),
                            align=allocate_alignment(d, name_in_c) if d is not None else None))
    if not decls:
        return text
    return "{\n" + "".join(decls) + text + "}\n"


def lastprivate_item(em, name: str, conditional: bool = False) -> dict:
    """A lastprivate variable for loop.j2: an array's private copy has its declared type
    (a kernel sees the original as a pointer to its first element). A conditional one
    (OpenMP 5.0) records the iteration of its last store in `iv` (see printer.Emitter._conditional_store)."""
    sym = em.declared_symbol(name)
    array = sym is not None and is_array(resolve_typedef(sym.type, em.env))
    entry = {"name": cxx_name(name), "array": type_string(sym.type, cxx_name(name)) if array else None,
             "conditional": conditional, "iv": None}
    if conditional:
        if array:
            raise OmpSemanticError(f"a 'lastprivate(conditional: ...)' item must be a scalar variable, and "
                                   f"'{name}' is an array", sym.decl.coord if sym is not None else None)
        em.g.conditional_count += 1
        entry["iv"] = f"{cxx_name(name)}__cond{em.g.conditional_count}"
    return entry


def held_loop(em, n: c_ast.Node, print_loop: Callable[[c_ast.Node], str]) -> str:
    """A loop of a parallel region: the team-shared scalars that it updates and that may
    live in a register meanwhile are read into one before it (shared_scalars.py)."""
    names = []
    if em.in_region and em.task_shared:
        for name in sorted((written_names(n) & em.task_shared) - set(em.in_register)):
            sym = em.env.lookup(name)
            if sym is not None and id(sym.decl) in em.register_candidates:
                names.append((name, sym))
    if not names or not em.g.sync_free.code(n):
        return print_loop(n)
    loads = []
    for name, sym in names:
        em.g.register_count += 1
        reg = f"{cxx_name(name)}__reg{em.g.register_count}"
        em.in_register[name] = (sym, reg)
        loads.append(f"auto {reg} = {cxx_name(name)};")
    try:
        text = print_loop(n)
    finally:
        for name, _ in names:
            del em.in_register[name]
    return "{ " + " ".join(loads) + "  /* held in registers for the loop, written through */\n" + \
        em.indent() + text + "\n" + em.indent() + "}"


def declare_private(em, sym: Symbol, d: Directive | None = None) -> str:
    return aligned(d, sym.name, type_string(sym.type, cxx_name(sym.name))) + ";"


def compound_with_guards(em, items, guarded) -> str:
    """A block of SPMD serial code: each run of side-effect statements is executed by thread 0
    for the team, between two team barriers (before: every thread has done the reads that
    came earlier; after: the stores are visible). A team-shared local in a run is declared
    before it and initialized in it."""
    text = em.indent() + "{\n"
    em.indent_level += 2
    i = 0
    while i < len(items):
        if id(items[i]) not in guarded:
            text += em.statement(items[i])
            i += 1
            continue
        declared, run, seen_names, start = [], [], set(), i
        while i < len(items) and id(items[i]) in guarded:
            item = items[i]
            if isinstance(item, c_ast.Decl) and id(item) in em.plan.team_shared:
                if item.name in seen_names:
                    break  # an earlier statement of the run means another variable by that name
                declared.append(team_var(em, item, "declare"))
                run.append(team_var(em, item, "init"))
            else:
                run.append(em.statement(item))
            seen_names |= {x.name for x in walk_nodes(item) if isinstance(x, c_ast.ID)}
            i += 1
        # right after a region that ends on the team's barrier no thread has read anything since
        after_barrier = start > 0 and _ends_on_team_barrier(em, items[start - 1])
        text += "".join(declared) + em.render_with_ids("stmt.j2", kind="guarded", body="".join(run), block=em.block,
                                                       leading_barrier=not after_barrier)
    em.indent_level -= 2
    return text + em.indent() + "}\n"


def _ends_on_team_barrier(em, stmt: c_ast.Node) -> bool:
    """Whether a statement of SPMD serial code is a parallel region whose fork site ends on a
    barrier of the whole team (fork.j2: a region of the whole block or packed team, not the
    kernel's one combined region, not spread across the grid, whose tail runs after it)."""
    return (isinstance(stmt, OmpConstruct) and stmt.directive.leaves[0] == "parallel" and em.spmd
            and em.in_region == 0 and not em.plan.combined and not em.spread
            and stmt.directive.clause("num_threads") is None)


def team_var(em, n: c_ast.Decl, part: str = "both") -> str:
    """A serial local of an SPMD kernel that regions share: the team's one copy (team_var.j2);
    part "declare" is its storage and name, "init" thread 0's initialization (to run
    inside a guarded block)."""
    if part != "init":
        declare(em.env, n)
    name = cxx_name(n.name)
    init = None
    if n.init is not None and part != "declare":
        init = em.visit(n.init) if not isinstance(n.init, c_ast.InitList) else "{" + em.visit(n.init) + "}"
    # the declared type, completed from the initializer (`char s[] = "abc"`)
    sym = em.env.lookup(n.name)
    storage = copy.deepcopy(sym.type if sym is not None and sym.type is not None else n.type)
    strip_quals(storage)
    # packed teams: one copy per team of the block
    slots = f"[{em.plan.packed_teams}]" if em.ids.packed else ""
    return em.render_with_ids("team_var.j2", block=em.block, part=part, storage_decl=type_string(storage, name + "__team" + slots), name=name, init=init,
                  init_decl=type_string(n.type, name + "__init"),
                  is_array=is_array(n.type) or isinstance(n.init, c_ast.InitList))


def escaping_locals(body, env: Env) -> tuple[set[int], set[int]]:
    """id(decl) of master variables that a parallel region shares by address (or whose address
    is taken), and the subset that a region touches inside `critical`: those live in global
    memory, because a lock orders their accesses and compute-sanitizer's racecheck (which
    checks shared memory) cannot see that."""
    finder = _EscapeFinder(env)
    finder.visit(body)
    return finder.found, finder.in_critical


class _EscapeFinder(ScopedVisitor):
    def __init__(self, env: Env):
        super().__init__(env.child())
        self.found: set[int] = set()
        self.in_critical: set[int] = set()

    def visit_UnaryOp(self, n):
        if n.op == "&" and isinstance(n.expr, c_ast.ID):
            sym = self.env.lookup(n.expr.name)
            if sym is not None and sym.kind == "var" and not sym.is_global:
                self.found.add(id(sym.decl))
        self.visit(n.expr)

    def visit_OmpConstruct(self, n: OmpConstruct):
        d = n.directive
        leaves = d.leaves
        if "parallel" in leaves:
            idx = leaves.index("parallel")
            rest = leaves[idx + 1:]
            loop_vars = loop_var_names(n.body, collapse_depth(d)) if rest and rest[0] in ("for", "loop") else ()
            sharing = region_sharing(n, n.body, self.env, loop_vars=loop_vars)
            shared = {id(sym.decl) for sym in sharing.by_pointer if not sym.is_global}
            self.found |= shared
            self.in_critical |= shared & _names_in_critical(n.body, self.env)
            return  # code inside the region runs on workers: nothing there escapes
        if (leaves[0] == "loop" or (leaves[0] == "teams" and "loop" in leaves)) \
                and loop_binding(d, in_parallel=False) == "teams":
            sharing = region_sharing(n, n.body, self.env, loop_vars=loop_var_names(n.body, collapse_depth(d)))
            for sym in sharing.by_pointer:
                if not sym.is_global:
                    self.found.add(id(sym.decl))
            return
        if n.body is not None:
            self.visit(n.body)


def _names_in_critical(body, env: Env) -> set[int]:
    """id(decl) of the outer variables that `critical` constructs inside `body` use."""
    found: set[int] = set()

    class _Walk(ScopedVisitor):
        def visit_OmpConstruct(self, n: OmpConstruct):
            if n.directive.leaves[0] == "critical" and n.body is not None:
                found.update(id(sym.decl) for sym in region_uses(n.body, self.env).order if not sym.is_global)
            elif n.body is not None:
                self.visit(n.body)

    _Walk(env.child()).visit(body)
    return found
