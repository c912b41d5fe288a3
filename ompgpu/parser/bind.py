"""Bind `#pragma omp` directives to the statements they govern.

pycparser leaves a pragma as a sibling of the statement that follows it. `bind_pragmas`
returns a new AST in which each directive and its statement are one `OmpConstruct` node
(standalone directives have no body), and runs the structural checks that need the C
around a directive: nesting, loops after loop directives, collapse depth, names in scope.
The AST it is given is not modified.
"""
from __future__ import annotations

import copy
import dataclasses
import re

from pycparser import c_ast

from ompgpu.errors import OmpgpuError, OmpSemanticError, OmpSyntaxError, SourceCoord, UnsupportedError
from ompgpu.parser.cfront import ParsedUnit, PreprocessedUnit, is_offsetof, offsetof_subscripts, param_decls, walk_nodes
from ompgpu.parser.context import select_metadirective
from ompgpu.parser.directives import Directive, error_directive_form
from ompgpu.parser.mappers import MapperTable
from ompgpu.parser.pragma import parse_pragma
from ompgpu.parser.bind_file_scope import FileScopeBinding
from ompgpu.parser.bind_loops import LoopNestBinding
# The bound IR lives in bound.py; passes import it from here, where binding makes it.
from ompgpu.parser.bound import (BoundUnit, CoordFixer, DeclaredVariant, LOOP_LEAVES, OmpConstruct, REGION_LEAVES, STANDALONE,
                                 WORKSHARING, canonical_for, collapse_depth, declared_names, enumerators,
                                 loop_binding, loop_header_names, loop_nest, loop_var_names)

__all__ = ["BoundUnit", "CoordFixer", "OmpConstruct", "bind_pragmas", "canonical_for", "collapse_depth", "default_mem_order", "enumerators",
           "loop_binding", "loop_header_names", "loop_nest", "loop_var_names"]


def default_mem_order(bound: BoundUnit) -> str:
    """The atomic_default_mem_order of the file's `requires` directive, else relaxed."""
    for node in bound.ast.ext:
        if isinstance(node, OmpConstruct) and node.directive.name == "requires":
            c = node.directive.clause("atomic_default_mem_order")
            if c is not None:
                return c.value
    return "relaxed"


def bind_pragmas(parsed: ParsedUnit, offload_arch: str = "sm_90") -> BoundUnit:
    """Pragmas attached to the statements they govern. offload_arch: the GPU that
    metadirectives in device code are resolved for."""
    binder = _Binder(parsed, offload_arch)
    ast = binder.bind_file(parsed.ast)
    return BoundUnit(parsed, ast, frozenset(binder.declare_target), binder.fixer, tuple(binder.host_variant_functions),
                     tuple(binder.host_only_variant_functions), tuple(binder.host_blank_lines),
                     tuple(binder.imperfect_collapses),
                     binder.mappers.default_types, indirect_functions=frozenset(binder.indirect_functions),
                     warnings=tuple(binder.warnings), block_variants=tuple(binder.block_variants),
                     host_renames=tuple(binder.host_renames))


class _Binder(FileScopeBinding, LoopNestBinding):
    def __init__(self, parsed: ParsedUnit, offload_arch: str = "sm_90"):
        self.parsed = parsed
        self.offload_arch = offload_arch
        self.host_variant_functions: list[tuple[str, SourceCoord]] = []
        self.host_only_variant_functions: list[tuple[str, SourceCoord]] = []
        self.host_blank_lines: list[tuple[int, int]] = []
        # Functions that user code defines in `begin declare variant` blocks kept for the host.
        self.variant_definitions: list[tuple[str, SourceCoord]] = []
        # Variants defined in `begin declare variant` blocks with construct traits, and the
        # names of their declarations in the host code (bound.BoundUnit.host_renames).
        self.block_variants: list[DeclaredVariant] = []
        self.host_renames: list[tuple[int, int, str, str]] = []
        self.imperfect_collapses: list[tuple[int, int, int]] = []
        self.function_name: str | None = None   # the function being bound
        self.pre = parsed.pre
        self.declare_target: set[str] = set()
        self.indirect_functions: set[str] = set()
        self.warnings: list[tuple[SourceCoord, str]] = []   # of the compile: error directives of severity warning
        self.fixer = CoordFixer()
        self._source_cache: dict[str, list[str] | None] = {}
        self.scopes: list[set[str]] = [set()]
        # For declare mapper: typedefs, and each scope's struct variables (name -> type key of a
        # struct value, type key of struct elements), parallel to scopes.
        self.mappers = MapperTable()
        self.typedefs: dict[str, c_ast.Node] = {}
        self.var_types: list[dict[str, tuple[str | None, str | None]]] = [{}]
        self.device_depth = 0  # > 0 while binding inside a target region
        self.in_declare_target = False  # binding a function of a declare target block

    # -- directives -------------------------------------------------------------
    def _compile_time_error(self, d: Directive) -> None:
        """The error directive (OpenMP 5.1) at(compilation), its default: a fatal one stops the
        compile with its message, a warning one is a warning of the compile (BoundUnit.warnings).
        at(execution) is a statement (its message printed where it runs)."""
        at, severity, message = error_directive_form(d)
        if at != "compilation":
            return
        text = (message or "").strip()
        if len(text) >= 2 and text[0] == text[-1] == '"':
            text = text[1:-1]
        said = f"error directive: {text}" if text else "error directive encountered"
        coord = self.fixer.fix(d.coord)
        if severity == "fatal":
            raise OmpSemanticError(said, coord)
        self.warnings.append((coord, said))

    def _directive(self, pragma: c_ast.Pragma) -> Directive | None:
        text = pragma.string or ""
        line, col = pragma.coord.line, pragma.coord.column or 1
        user = self.pre.user_coord(line, col)
        lines = self._source(user.file)
        base = SourceCoord(user.file, user.line, _pragma_text_col(lines, user.line, col))
        self.fixer.register(user.file, user.line, base.col, text, lines)
        try:
            d = parse_pragma(text, base)
        except UnsupportedError as exc:
            # Host-only OpenMP that ompgpu does not model passes through to the host compiler;
            # inside a target region it is an error.
            exc.coord = self.fixer.fix(exc.coord)
            if self.device_depth or _CHANGES_DEVICE_CODE.match(text):
                raise
            return None
        except (OmpSyntaxError, OmpSemanticError) as exc:
            exc.coord = self.fixer.fix(exc.coord)
            raise
        if d.name == "error":
            self._compile_time_error(d)
        if d.name != "metadirective":
            return d
        try:   # its errors are errors anywhere: ignoring a metadirective changes what code does
            return self._resolved(d)
        except OmpgpuError as exc:
            exc.coord = self.fixer.fix(exc.coord)
            raise

    def _resolved(self, d: Directive) -> Directive | None:
        """The directive variant of a metadirective that applies here (None: nothing). Device
        code (a target region, a declare target function) takes the GPU's variant, other code
        the host's; where the two differ in a function that target regions turn out to call,
        the device code generator names it (host_variant_functions)."""
        if self.function_name is None:
            raise OmpSemanticError("'#pragma omp metadirective' is an executable directive: it cannot stand "
                                   "outside a function", d.coord)
        device = select_metadirective(d, True, self.offload_arch)
        chosen = device
        if not (self.device_depth or self.in_declare_target):
            chosen = select_metadirective(d, False, self.offload_arch)
            if (chosen.variant if chosen else "") != (device.variant if device else ""):
                self.host_variant_functions.append((self.function_name, d.coord))
        if chosen is None or chosen.variant in ("", "nothing"):
            return None
        c = chosen.variant_coord
        return parse_pragma("omp " + chosen.variant, SourceCoord(c.file, c.line, c.col - 4))

    def _source(self, file: str) -> list[str] | None:
        if file not in self._source_cache:
            self._source_cache[file] = self.pre.source_lines(file)
        return self._source_cache[file]

    def _err(self, cls, msg: str, coord: SourceCoord):
        return cls(msg, self.fixer.fix(coord))


    def _bind_funcdef(self, fn: c_ast.FuncDef) -> c_ast.FuncDef:
        params = param_decls(fn)
        self._push_scope(p.name for p in params)
        for p in params:
            self._note_types(p)
        _UndeclaredChecker(self.scopes, self.pre).visit(fn.body)
        self.function_name = fn.decl.name
        try:
            body = self._stmt(fn.body, ctx=())
        finally:
            self.function_name = None
        self._pop_scope()
        if body is fn.body:
            return fn
        new = copy.copy(fn)
        new.body = body
        return new

    # -- statements -------------------------------------------------------------
    def _items(self, items: list[c_ast.Node], ctx: tuple[Directive, ...], end_coord) -> list[c_ast.Node]:
        out: list[c_ast.Node] = []
        i = 0
        while i < len(items):
            node = items[i]
            if isinstance(node, c_ast.Pragma):
                bound, i = self._pragma_at(items, i, ctx)
                out.append(bound)
                continue
            out.append(self._stmt(node, ctx))
            i += 1
        return out

    def _pragma_at(self, items, i, ctx) -> tuple[c_ast.Node, int]:
        pragma = items[i]
        d = self._directive(pragma)
        if d is None:
            return pragma, i + 1
        d = self._mapped(d)
        if d.name in STANDALONE or (d.name == "ordered" and d.has("depend")):
            self._check_nesting(d, ctx)
            self._check_names(d)
            return OmpConstruct(d, None, pragma.coord), i + 1
        if i + 1 >= len(items):
            raise self._err(OmpSyntaxError, f"expected a statement after '#pragma omp {d.name}'", d.coord)
        self._check_nesting(d, ctx)
        self._check_names(d)
        inner_ctx = ctx + (d,)
        nxt = items[i + 1]
        device = d.leaves[0] == "target" and d.name not in ("target data", "target update", "target enter data", "target exit data")
        self.device_depth += device
        try:
            if isinstance(nxt, c_ast.Pragma):
                body, j = self._pragma_at(items, i + 1, inner_ctx)
            else:
                body, j = self._stmt(nxt, inner_ctx), i + 2
        finally:
            self.device_depth -= device
        body = self._perfect_nest(d, body, pragma)
        self._check_loop(d, body)
        d = self._rectangular_collapse(d, body)
        if device:
            d = self._implicit_mapper_maps(d, body)
        return OmpConstruct(d, body, pragma.coord), j

    def _implicit_mapper_maps(self, d: Directive, body: c_ast.Node) -> Directive:
        """A struct variable that a target region uses without naming it in a clause is mapped
        tofrom implicitly, and OpenMP 5.0 has that map use its type's default mapper: such
        variables get an explicit map(tofrom: ...), which the mapper then expands."""
        defaults = self.mappers.default_types
        if not defaults or d.clause("defaultmap") is not None:
            return d
        named = {item.name for c in d.clauses for item in getattr(c, "items", ())}
        inner = {n.name for n in walk_nodes(body) if isinstance(n, c_ast.Decl) and n.name}
        used = []
        for n in walk_nodes(body):
            if isinstance(n, c_ast.ID) and n.name not in named and n.name not in inner and n.name not in used:
                value, _ = self._var_type(n.name)
                if value in defaults:
                    used.append(n.name)
        if not used:
            return d
        implicit = parse_pragma(f"omp target map(tofrom: {', '.join(used)})", d.coord).clauses
        return self._mapped(dataclasses.replace(d, clauses=d.clauses + implicit))

    def _stmt(self, node: c_ast.Node | None, ctx: tuple[Directive, ...]) -> c_ast.Node | None:
        if node is None:
            return None
        if isinstance(node, c_ast.Compound):
            self._push_scope()
            items = self._items(node.block_items or [], ctx, node.coord)
            self._pop_scope()
            if items == (node.block_items or []) and all(a is b for a, b in zip(items, node.block_items or [])):
                return node
            new = copy.copy(node)
            new.block_items = items
            return new
        if isinstance(node, c_ast.Pragma):
            return self._lone_pragma(node, ctx)
        if isinstance(node, c_ast.Decl):
            self.scopes[-1].add(node.name)
            self._note_types(node)
            return node
        if isinstance(node, c_ast.DeclList):
            for d in node.decls:
                self.scopes[-1].add(d.name)
            self._note_types(node)
            return node
        if isinstance(node, c_ast.Typedef):
            self._note_types(node)
            return node
        if isinstance(node, c_ast.For):
            self._push_scope()
            if node.init is not None:
                self._stmt(node.init, ctx)
            body = self._stmt(node.stmt, ctx)
            self._pop_scope()
            return _replace(node, stmt=body)
        if isinstance(node, (c_ast.While, c_ast.DoWhile)):
            return _replace(node, stmt=self._stmt(node.stmt, ctx))
        if isinstance(node, c_ast.If):
            return _replace(node, iftrue=self._stmt(node.iftrue, ctx), iffalse=self._stmt(node.iffalse, ctx))
        if isinstance(node, (c_ast.Label, c_ast.Case, c_ast.Default)):
            if isinstance(node, c_ast.Label):
                return _replace(node, stmt=self._stmt(node.stmt, ctx))
            new_stmts = self._items(node.stmts or [], ctx, node.coord)
            return _replace(node, stmts=new_stmts)
        if isinstance(node, c_ast.Switch):
            return _replace(node, stmt=self._stmt(node.stmt, ctx))
        return node

    def _lone_pragma(self, node: c_ast.Pragma, ctx) -> c_ast.Node:
        d = self._directive(node)
        if d is None:
            return node
        d = self._mapped(d)
        if d.name in STANDALONE:
            self._check_nesting(d, ctx)
            return OmpConstruct(d, None, node.coord)
        raise self._err(OmpSyntaxError, f"expected a statement after '#pragma omp {d.name}'", d.coord)


    def _check_nesting(self, d: Directive, ctx: tuple[Directive, ...]) -> None:
        leaves = d.leaves
        if d.name == "ordered":
            loop = next((o for o in reversed(ctx) if LOOP_LEAVES & set(o.leaves)), None)
            if loop is None or not loop.has("ordered"):
                raise self._err(OmpSemanticError, "'ordered' region must be closely nested in a loop region with an 'ordered' clause", d.coord)
            if d.has("depend") and any(o.leaves[0] == "target" for o in ctx):
                dep = d.clause("depend")
                raise self._err(UnsupportedError, f"'ordered depend({dep.dep_type}: ...)' (a doacross loop) is not supported on the device", dep.coord)
        parent = ctx[-1] if ctx else None
        if d.name == "scan" and not (parent is not None and any(c.kind == "reduction" and c.modifier == "inscan"
                                                                for c in parent.clauses)):
            raise self._err(OmpSemanticError, "'#pragma omp scan' must be closely nested in a loop construct with a "
                            "reduction with the inscan modifier", d.coord)
        if leaves and leaves[0] == "teams":
            # OpenMP 5.0: a teams region is strictly nested in a target region or in the implicit
            # parallel region of the host program (host teams: left to the host compiler)
            host_teams = parent is None and not self.device_depth and not self.in_declare_target
            if not host_teams and (parent is None or parent.leaves[-1] != "target"):
                raise self._err(OmpSemanticError, "'teams' construct must be closely nested in a 'target' construct "
                                "or be outside every other construct in host code", d.coord)
        if leaves and (leaves[0] in WORKSHARING or leaves[0] == "barrier" or d.name in ("barrier", "master", "single")):
            # Closest enclosing region: the innermost directive that is a worksharing or region construct.
            for outer in reversed(ctx):
                outer_leaves = set(outer.leaves)
                if outer_leaves & REGION_LEAVES and outer.leaves[-1] not in WORKSHARING:
                    break
                # `scope` is no worksharing region around others (OpenMP 5.1: its block is the
                # team's, a `for` in it is the team's loop; 5.2 listed it among the worksharing
                # constructs, which gcc and clang do not follow)
                if outer.leaves[-1] in WORKSHARING - {"scope"} \
                        or outer.leaves[-1] in ("critical", "ordered", "master", "masked"):
                    what = "barrier" if d.name == "barrier" else leaves[0]
                    raise self._err(OmpSemanticError,
                                    f"'{what}' region may not be closely nested inside a '{outer.leaves[-1]}' region",
                                    d.coord)
        if leaves and leaves[0] == "distribute":
            if parent is None or parent.leaves[-1] != "teams":
                if not any(o.leaves[-1] == "teams" for o in ctx):
                    raise self._err(OmpSemanticError, "'distribute' construct must be closely nested in a 'teams' region", d.coord)

    def _check_names(self, d: Directive) -> None:
        visible = set().union(*self.scopes)
        for c in d.clauses:
            its = getattr(c, "iterators", None)
            declared = visible | set(its.names) if its is not None else visible
            for item in getattr(c, "items", ()) or ():
                if item.name == "omp_all_memory" and c.kind == "depend" and not item.sections and not item.members:
                    if c.dep_type not in ("out", "inout"):
                        raise self._err(OmpSemanticError, "'omp_all_memory' may only appear in a depend clause of "
                                        f"type out or inout, not {c.dep_type}", item.coord)
                    continue  # OpenMP 5.1's reserved locator: every storage location
                if item.name not in declared:
                    raise self._err(OmpSemanticError, f"use of undeclared identifier '{item.name}' in clause '{c.kind}'", item.coord)
        for item in d.items:
            if item.name not in visible and d.name not in ("declare target", "critical"):
                raise self._err(OmpSemanticError, f"use of undeclared identifier '{item.name}'", item.coord)


def _replace(node: c_ast.Node, **fields) -> c_ast.Node:
    if all(getattr(node, k) is v for k, v in fields.items()):
        return node
    new = copy.copy(node)
    for k, v in fields.items():
        setattr(new, k, v)
    return new


_PRAGMA_RE = re.compile(r"^\s*#\s*pragma\s*")


def _pragma_text_col(lines: list[str] | None, line: int, fallback: int) -> int:
    """1-based column where the text after `#pragma` starts on the user's line."""
    if lines and 1 <= line <= len(lines):
        m = _PRAGMA_RE.match(lines[line - 1])
        if m:
            return m.end() + 1
    return fallback


# Unsupported directives that are an error anywhere, not only in target regions: passed to
# the host compiler they would change what the host does and leave the device code as if
# they were not there (a default mapper's maps, a begin declare variant's GPU functions).
# Target constructs are ompgpu's own on the host too: what it cannot do in one is an error there.
_CHANGES_DEVICE_CODE = re.compile(r"\s*omp\s+(declare\s+mapper|begin\s+declare\s+variant|end\s+declare\s+variant|target)\b")


# Names every C file may use without declaring them.
_PREDEFINED = frozenset({"__func__", "__FUNCTION__", "__PRETTY_FUNCTION__", "__ompgpu_generic"})


class _UndeclaredChecker(c_ast.NodeVisitor):
    """gcc rejects a use of an undeclared variable; pycparser does not, so we do."""

    def __init__(self, scopes: list[set[str]], pre: PreprocessedUnit):
        self.scopes = [set(s) for s in scopes]
        self.pre = pre

    def _known(self, name: str) -> bool:
        return name in _PREDEFINED or name.startswith("__builtin") or any(name in s for s in self.scopes)

    def visit_ID(self, n):
        if not self._known(n.name):
            coord = self.pre.user_coord(n.coord.line, n.coord.column) if n.coord else None
            raise OmpSemanticError(f"use of undeclared identifier '{n.name}'", coord)

    def visit_FuncCall(self, n):
        if not isinstance(n.name, c_ast.ID):
            self.visit(n.name)  # implicitly declared functions are gcc's business
        if is_offsetof(n):
            self.visit(n.args.exprs[0])
            for subscript in offsetof_subscripts(n):
                self.visit(subscript)   # offsetof(T, a[i].b): the member names are not variables; i is
            return
        if n.args is not None:
            self.visit(n.args)

    def visit_StructRef(self, n):
        self.visit(n.name)

    def visit_Goto(self, n):
        pass

    def visit_Compound(self, n):
        self.scopes.append(set())
        for item in n.block_items or []:
            self.visit(item)
        self.scopes.pop()

    def visit_For(self, n):
        self.scopes.append(set())
        for part in (n.init, n.cond, n.next, n.stmt):
            if part is not None:
                self.visit(part)
        self.scopes.pop()

    def visit_Decl(self, n):
        for name in declared_names(n):
            self.scopes[-1].add(name)
        if n.init is not None:
            self.visit(n.init)
        t = n.type
        while t is not None:
            if isinstance(t, c_ast.ArrayDecl) and t.dim is not None:
                self.visit(t.dim)
            t = getattr(t, "type", None)

    def visit_Typedef(self, n):
        self.scopes[-1].add(n.name)

    def visit_NamedInitializer(self, n):
        self.visit(n.expr)  # designators name members, not variables

    def visit_Typename(self, n):
        pass

    def visit_FuncDecl(self, n):
        pass
