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
from dataclasses import dataclass, field

from pycparser import c_ast

from ompgpu.errors import OmpgpuError, OmpSemanticError, OmpSyntaxError, SourceCoord, UnsupportedError
from ompgpu.parser.cfront import ParsedUnit, PreprocessedUnit, is_offsetof, offsetof_subscripts, param_decls, walk_nodes
from ompgpu.parser.context import device_matches, host_matches, select_metadirective
from ompgpu.parser.clause_rules import int_constant
from ompgpu.parser.directives import Directive, ExprClause, MatchClause
from ompgpu.parser.mappers import MapperTable, element_type_key, type_key
from ompgpu.parser.pragma import parse_pragma

STANDALONE = frozenset({
    "barrier", "taskwait", "taskyield", "flush", "target update", "target enter data",
    "target exit data", "cancel", "cancellation point", "threadprivate", "requires",
    "declare target", "end declare target", "begin declare target", "declare simd",
    "declare reduction", "declare variant", "begin declare variant", "end declare variant", "declare mapper", "scan", "allocate", "depobj",
})
LOOP_LEAVES = frozenset({"for", "simd", "distribute", "loop", "taskloop"})
WORKSHARING = frozenset({"for", "sections", "single", "loop", "scope"})
# Leaves that start a new region in which a worksharing construct may nest again.
REGION_LEAVES = frozenset({"parallel", "target", "teams", "task", "taskloop"})


class OmpConstruct(c_ast.Node):
    """A directive with the statement it governs (None for standalone directives).

    `coord` is pycparser's coordinate of the pragma in the preprocessed text (used to
    splice host code); `directive.coord` is the position in the user's file.
    """

    __slots__ = ("directive", "body", "coord", "__weakref__")
    attr_names = ()

    def __init__(self, directive: Directive, body: c_ast.Node | None, coord=None):
        self.directive = directive
        self.body = body
        self.coord = coord

    def children(self):
        return (("body", self.body),) if self.body is not None else ()

    def __iter__(self):
        if self.body is not None:
            yield self.body


@dataclass(frozen=True)
class BoundUnit:
    """The result of binding: the new AST and what the file declares for the device."""

    parsed: ParsedUnit
    ast: c_ast.FileAST
    declare_target: frozenset[str]
    # Pragma lines of the preprocessed text -> how their columns map to the user's file.
    coord_fixer: "CoordFixer"
    # Functions outside target regions whose metadirectives took the host's variant where the
    # GPU's differs, with where: an error if device code turns out to call one.
    host_variant_functions: tuple[tuple[str, SourceCoord], ...] = ()
    # Functions defined in `begin declare variant` blocks whose selector matches the host but
    # not the GPU, with the block's directive: an error if device code calls one.
    host_only_variant_functions: tuple[tuple[str, SourceCoord], ...] = ()
    # Line ranges (first, last; 1-based, of the preprocessed text) that the host code leaves
    # blank: `begin/end declare variant` lines, and blocks whose selector the host does not match.
    host_blank_lines: tuple[tuple[int, int], ...] = ()
    # Loop directives whose collapse(n) nest was imperfect (OpenMP 5.0): (line of the pragma in
    # the preprocessed text, n, the depth of the perfect nest). The bound AST has the
    # declarations between the loops moved into the innermost body; the host compiler (gcc 12
    # rejects imperfect nests) gets collapse of the perfect depth.
    imperfect_collapses: tuple[tuple[int, int, int], ...] = ()
    # Type keys (mappers.type_key) of the struct types that have a default declare mapper: an
    # implicit map of such a variable would have to use it.
    default_mapper_types: frozenset[str] = frozenset()

    @property
    def pre(self) -> PreprocessedUnit:
        return self.parsed.pre


@dataclass
class CoordFixer:
    """Maps coordinates inside pragma text to true user positions.

    The parser numbers columns as offsets into the (joined, macro-expanded) pragma text.
    When the user's line is a plain `#pragma` line (possibly continued with backslashes),
    aligning the non-blank characters of both texts recovers the real line and column.
    """

    tables: dict[tuple[str, int], tuple[int, list[tuple[int, int]]]] = field(default_factory=dict)

    def register(self, file: str, line: int, base_col: int, text: str, source_lines: list[str] | None) -> None:
        if not source_lines or line > len(source_lines):
            return
        logical: list[tuple[str, int, int]] = []  # (char, line, col) of the user's pragma
        ln = line
        raw = source_lines[ln - 1]
        start = raw.find("pragma")
        if start < 0:
            return
        pos = start + len("pragma")
        while True:
            chunk = raw[pos:]
            cont = chunk.rstrip().endswith("\\")
            body = chunk.rstrip()[:-1] if cont else chunk
            for i, ch in enumerate(body):
                if not ch.isspace():
                    logical.append((ch, ln, pos + i + 1))
            if not cont or ln >= len(source_lines):
                break
            ln += 1
            raw, pos = source_lines[ln - 1], 0
        positions = []
        k = 0
        for ch in text:
            if ch.isspace():
                positions.append(None)
                continue
            if k < len(logical) and logical[k][0] == ch:
                positions.append((logical[k][1], logical[k][2]))
                k += 1
            else:
                return  # texts differ (macro expansion, comments): keep the parser's columns
        table = []
        last = (line, base_col)
        for p in positions:
            last = p or last
            table.append(last)
        self.tables[(file, line)] = (base_col, table)

    def fix(self, coord: SourceCoord | None) -> SourceCoord | None:
        if coord is None:
            return None
        entry = self.tables.get((coord.file, coord.line))
        if entry is None:
            return coord
        base_col, table = entry
        off = coord.col - base_col
        if 0 <= off < len(table):
            ln, col = table[off]
            return SourceCoord(coord.file, ln, col)
        return coord


def bind_pragmas(parsed: ParsedUnit, offload_arch: str = "sm_90") -> BoundUnit:
    """Pragmas attached to the statements they govern. offload_arch: the GPU that
    metadirectives in device code are resolved for."""
    binder = _Binder(parsed, offload_arch)
    ast = binder.bind_file(parsed.ast)
    return BoundUnit(parsed, ast, frozenset(binder.declare_target), binder.fixer, tuple(binder.host_variant_functions),
                     tuple(binder.host_only_variant_functions), tuple(binder.host_blank_lines),
                     tuple(binder.imperfect_collapses),
                     binder.mappers.default_types)


def loop_nest(stmt: c_ast.Node, depth: int) -> list[c_ast.For]:
    """The `depth` perfectly nested for loops starting at stmt (fewer if the nest is shallower)."""
    loops: list[c_ast.For] = []
    cur = stmt
    while len(loops) < depth:
        # Inner loops of a collapsed nest may sit in braces; the outermost must follow directly.
        while loops and isinstance(cur, c_ast.Compound) and cur.block_items and len(cur.block_items) == 1:
            cur = cur.block_items[0]
        if not isinstance(cur, c_ast.For):
            break
        loops.append(cur)
        cur = cur.stmt
    return loops


def _for_vars(f: c_ast.For) -> list[str]:
    """The variables a for loop's init declares or assigns."""
    if isinstance(f.init, c_ast.DeclList):
        return [d.name for d in f.init.decls]
    if isinstance(f.init, c_ast.Assignment) and isinstance(f.init.lvalue, c_ast.ID):
        return [f.init.lvalue.name]
    return []


_REVERSED_COMPARISON = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "!=": "!="}


def canonical_for(f: c_ast.For) -> tuple[str, c_ast.Node, c_ast.Node, c_ast.Node, str] | None:
    """(variable, lower bound, bound, step, comparison of the variable with the bound) of a `for` in
    OpenMP's canonical form, as expressions (a bound written first is turned around; a
    decrement is a step of -1, `v -= e` a step of -(long long)(e)); None otherwise."""
    if isinstance(f.init, c_ast.DeclList) and len(f.init.decls) == 1 and f.init.decls[0].init is not None:
        var, lb = f.init.decls[0].name, f.init.decls[0].init
    elif isinstance(f.init, c_ast.Assignment) and f.init.op == "=" and isinstance(f.init.lvalue, c_ast.ID):
        var, lb = f.init.lvalue.name, f.init.rvalue
    else:
        return None
    cond = f.cond
    if not isinstance(cond, c_ast.BinaryOp) or cond.op not in _REVERSED_COMPARISON:
        return None
    if isinstance(cond.left, c_ast.ID) and cond.left.name == var:
        op, ub = cond.op, cond.right
    elif isinstance(cond.right, c_ast.ID) and cond.right.name == var:
        op, ub = _REVERSED_COMPARISON[cond.op], cond.left
    else:
        return None
    nxt = f.next
    if isinstance(nxt, c_ast.UnaryOp) and isinstance(nxt.expr, c_ast.ID) and nxt.expr.name == var and nxt.op in ("++", "p++", "--", "p--"):
        step = c_ast.Constant("int", "1" if "+" in nxt.op else "-1")
    elif isinstance(nxt, c_ast.Assignment) and isinstance(nxt.lvalue, c_ast.ID) and nxt.lvalue.name == var and nxt.op in ("+=", "-="):
        # a subtracted step is negated after its conversion to 64 bits (as the device does)
        step = nxt.rvalue if nxt.op == "+=" else c_ast.UnaryOp("-", c_ast.Cast(
            c_ast.Typename(None, [], None, c_ast.TypeDecl(None, [], None, c_ast.IdentifierType(["long", "long"]))), nxt.rvalue))
    else:
        return None
    return var, lb, ub, step, op


def loop_header_names(f: c_ast.For) -> set[str]:
    """The names a for loop's init, condition and increment use."""
    return {n.name for part in (f.init, f.cond, f.next) if part is not None
            for n in walk_nodes(part) if isinstance(n, c_ast.ID)}


def loop_var_names(body: c_ast.Node, depth: int) -> tuple[str, ...]:
    """Names of the loop variables of the `depth` loops of the nest at `body` (private to a loop construct)."""
    return tuple(name for f in loop_nest(body, depth) for name in _for_vars(f))


def collapse_depth(d: Directive) -> int:
    c = d.clause("collapse")
    if isinstance(c, ExprClause) and c.expr is not None:
        return int_constant(c.expr.text) or 1
    return 1


class _Binder:
    def __init__(self, parsed: ParsedUnit, offload_arch: str = "sm_90"):
        self.parsed = parsed
        self.offload_arch = offload_arch
        self.host_variant_functions: list[tuple[str, SourceCoord]] = []
        self.host_only_variant_functions: list[tuple[str, SourceCoord]] = []
        self.host_blank_lines: list[tuple[int, int]] = []
        # Functions that user code defines in `begin declare variant` blocks kept for the host.
        self.variant_definitions: list[tuple[str, SourceCoord]] = []
        self.imperfect_collapses: list[tuple[int, int, int]] = []
        self.function_name: str | None = None   # the function being bound
        self.pre = parsed.pre
        self.declare_target: set[str] = set()
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

    # -- file scope -------------------------------------------------------------
    def bind_file(self, ast: c_ast.FileAST) -> c_ast.FileAST:
        ext = []
        open_blocks: list[Directive] = []
        # Open `begin declare variant` blocks: (directive, matches the host, matches the GPU, line).
        variant_blocks: list[tuple[Directive, bool, bool, int]] = []
        for node in ast.ext:
            if isinstance(node, c_ast.Pragma):
                d = self._directive(node)
                if d is not None and d.name in ("begin declare variant", "end declare variant"):
                    self._variant_block(d, node.coord.line, variant_blocks, self._in_system_header(node))
                    continue
                if variant_blocks and not self._keep_in_variant_block(node, variant_blocks):
                    continue
                if d is None:
                    ext.append(node)
                    continue
                if d.name in ("declare target", "begin declare target") and not d.items and not d.clauses:
                    open_blocks.append(d)
                elif d.name == "begin declare target":
                    open_blocks.append(d)
                elif d.name == "end declare target":
                    if not open_blocks:
                        raise self._err(OmpSemanticError, "'#pragma omp end declare target' without a matching 'declare target'", d.coord)
                    open_blocks.pop()
                elif d.name == "requires":
                    for c in d.clauses:
                        if c.kind in _UNMET_REQUIREMENTS:
                            raise self._err(UnsupportedError, f"'requires {c.kind}' is not supported yet: "
                                            f"{_UNMET_REQUIREMENTS[c.kind]}", c.coord)
                elif d.name == "declare mapper":
                    self._mapped(d)
                elif d.name == "declare target":
                    for item in d.items:
                        self.declare_target.add(item.name)
                    for c in d.clauses:
                        for item in getattr(c, "items", ()):
                            self.declare_target.add(item.name)
                ext.append(OmpConstruct(d, None, node.coord))
                continue
            if variant_blocks and not self._keep_in_variant_block(node, variant_blocks):
                continue
            self._declare_names(node)
            if open_blocks:
                for name in _declared_names(node):
                    self.declare_target.add(name)
            if isinstance(node, c_ast.FuncDef):
                self.in_declare_target = bool(open_blocks) or node.decl.name in self.declare_target
                node = self._bind_funcdef(node)
                self.in_declare_target = False
            ext.append(node)
        if open_blocks:
            d = open_blocks[-1]
            raise self._err(OmpSemanticError, "'#pragma omp declare target' without a matching 'end declare target'", d.coord)
        if variant_blocks:
            d = variant_blocks[-1][0]
            raise self._err(OmpSemanticError, "'#pragma omp begin declare variant' without a matching "
                            "'end declare variant'", d.coord)
        self._check_variant_definitions(ext)
        self._declare_initializer_references(ast)
        new = copy.copy(ast)
        new.ext = ext
        return new

    def _check_variant_definitions(self, ext: list[c_ast.Node]) -> None:
        """A function that a kept `begin declare variant` block defines is the only one of its
        name: a variant of a base function declared outside the block (which calls would
        resolve to by context) is not supported yet, and must not become a redefinition."""
        if not self.variant_definitions:
            return
        inside = {name for name, _ in self.variant_definitions}
        counts: dict[str, int] = {}
        for node in ext:
            names = _defined_functions(node) or ([node.name] if isinstance(node, c_ast.Decl) and
                                                  isinstance(node.type, c_ast.FuncDecl) else [])
            for name in names:
                if name in inside:
                    counts[name] = counts.get(name, 0) + 1
        for name, coord in self.variant_definitions:
            if counts.get(name, 0) > 1:
                raise self._err(UnsupportedError, f"'{name}' is declared outside the 'begin declare variant' block that "
                                "defines it: variants of a base function in such blocks are not supported yet", coord)

    def _in_system_header(self, node: c_ast.Node) -> bool:
        return node.coord is not None and self.pre.user_coord(node.coord.line).file in self.pre.system_files

    def _variant_block(self, d: Directive, line: int, blocks: list[tuple[Directive, bool, bool, int]],
                       in_system_header: bool) -> None:
        """Opens or closes a `begin declare variant` block (its pragma on `line` of the
        preprocessed text), with whether its context selector matches the host and the GPU
        (OpenMP 5.1, 7.2). The host code loses the pragma lines of a block that the host
        matches and the whole of one it does not (host_blank_lines), except in a system
        header: that one is the host compiler's own (clang's <omp.h>), which it understands."""
        if d.name == "end declare variant":
            if not blocks:
                raise self._err(OmpSemanticError, "'#pragma omp end declare variant' without a matching "
                                "'begin declare variant'", d.coord)
            begin_line = blocks[-1][3]
            if in_system_header:
                pass
            elif all(h for _, h, _, _ in blocks):
                self.host_blank_lines.extend([(begin_line, begin_line), (line, line)])
            else:
                self.host_blank_lines.append((begin_line, line))
            blocks.pop()
            return
        match = d.clause("match")
        if not isinstance(match, MatchClause):
            raise self._err(OmpSemanticError, "'#pragma omp begin declare variant' needs a match clause", d.coord)
        try:
            on_host = host_matches(match.traits, self.offload_arch)
            on_device = device_matches(match.traits, self.offload_arch)
        except OmpgpuError as exc:
            exc.coord = self.fixer.fix(exc.coord)
            raise
        blocks.append((d, on_host, on_device, line))

    def _keep_in_variant_block(self, node: c_ast.Node, blocks: list[tuple[Directive, bool, bool, int]]) -> bool:
        """Whether a file-scope node inside open `begin declare variant` blocks stays in the
        unit. The unit serves the host code and the device code: what only the host's context
        matches stays (a function of it that device code calls is an error, see
        host_only_variant_functions); what matches neither goes; what matches only the GPU is
        not supported yet, except in a system header (clang's <omp.h> defines
        omp_is_initial_device so: the device runtime has its own)."""
        on_host = all(h for _, h, _, _ in blocks)
        on_device = all(g for _, _, g, _ in blocks)
        if on_host:
            if not on_device:
                self.host_only_variant_functions.extend((name, blocks[-1][0].coord) for name in _defined_functions(node))
            if not self._in_system_header(node):
                self.variant_definitions.extend((name, blocks[-1][0].coord) for name in _defined_functions(node))
            return True
        if on_device and not self._in_system_header(node):
            raise self._err(UnsupportedError, "a 'begin declare variant' block whose context selector matches the GPU "
                            "but not the host is not supported yet", blocks[-1][0].coord)
        return False

    def _declare_initializer_references(self, ast: c_ast.FileAST) -> None:
        """A function or global variable that the initializer of a declare target variable
        names is declare target too (OpenMP 5.0), so that the device copy of
        `int (*op)(int) = twice;` points at a device function and that of `int *p = &x;` at the
        device's x. Repeated until nothing is added (x's own initializer may name another)."""
        names = {n.decl.name for n in ast.ext if isinstance(n, c_ast.FuncDef)}
        names |= {n.name for n in ast.ext if isinstance(n, c_ast.Decl) and n.name and
                  not (n.storage and "typedef" in n.storage)}
        changed = True
        while changed:
            changed = False
            for n in ast.ext:
                if isinstance(n, c_ast.Decl) and n.name in self.declare_target and n.init is not None:
                    for ref in walk_nodes(n.init):
                        if isinstance(ref, c_ast.ID) and ref.name in names and ref.name not in self.declare_target:
                            self.declare_target.add(ref.name)
                            changed = True

    def _declare_names(self, node: c_ast.Node) -> None:
        for name in _declared_names(node):
            self.scopes[-1].add(name)
        self._note_types(node)

    def _note_types(self, node: c_ast.Node) -> None:
        """Typedefs and struct variables, for declare mapper (mappers.type_key)."""
        if isinstance(node, c_ast.Typedef):
            self.typedefs[node.name] = node.type
        elif isinstance(node, c_ast.Decl) and node.name and not isinstance(node.type, c_ast.FuncDecl):
            self.var_types[-1][node.name] = (type_key(node.type, self.typedefs), element_type_key(node.type, self.typedefs))
        elif isinstance(node, c_ast.DeclList):
            for d in node.decls:
                self._note_types(d)

    def _var_type(self, name: str) -> tuple[str | None, str | None]:
        for scope in reversed(self.var_types):
            if name in scope:
                return scope[name]
        return (None, None)

    def _push_scope(self, names=()) -> None:
        self.scopes.append(set(names))
        self.var_types.append({})

    def _pop_scope(self) -> None:
        self.scopes.pop()
        self.var_types.pop()

    def _mapped(self, d: Directive) -> Directive:
        """d with declare mappers applied to its map clauses; a declare mapper is recorded."""
        if d.name == "declare mapper":
            self.mappers.declare(d, self.typedefs)
            return d
        try:
            return self.mappers.apply(d, self._var_type)
        except OmpgpuError as exc:
            raise self._err(type(exc), exc.message, exc.coord)

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

    # -- imperfectly nested collapse (OpenMP 5.0) ------------------------------------
    def _perfect_nest(self, d: Directive, body: c_ast.Node, pragma: c_ast.Pragma) -> c_ast.Node:
        """A collapsed loop nest whose loops have declarations between them, made perfect by
        moving those declarations into the innermost body: OpenMP 5.0 lets such intervening
        code run any number of times per iteration, and a declaration there runs before the
        body that uses it, in the same iteration. Other nests come back unchanged (and
        _check_loop reports one that is too shallow)."""
        depth = collapse_depth(d)
        if depth < 2 or not (LOOP_LEAVES & set(d.leaves)) or not isinstance(body, c_ast.For):
            return body
        perfect = len(loop_nest(body, depth))
        if perfect >= depth:
            return body
        made = self._sink_declarations(body, depth, d)
        if made is None:
            return body
        self.imperfect_collapses.append((pragma.coord.line, depth, perfect))
        return made

    def _sink_declarations(self, f: c_ast.For, depth: int, d: Directive) -> c_ast.For | None:
        if depth == 1:
            return f
        inner, decls = f.stmt, []
        if isinstance(inner, c_ast.Compound):
            items = [x for x in (inner.block_items or []) if not isinstance(x, c_ast.EmptyStatement)]
            loops = [x for x in items if isinstance(x, c_ast.For)]
            if len(loops) != 1 or items[-1] is not loops[0]:
                return None
            decls = items[:-1]
            inner = loops[0]
        if not isinstance(inner, c_ast.For):
            return None
        for x in decls:
            if not isinstance(x, c_ast.Decl) or x.storage or isinstance(x.type, c_ast.FuncDecl):
                what = "a declaration with a storage class" if isinstance(x, c_ast.Decl) else "a statement"
                where = self.pre.user_coord(x.coord.line, x.coord.column) if x.coord else None
                clause = d.clause("collapse")
                raise self._err(UnsupportedError, f"collapse of an imperfectly nested loop nest with {what} between the "
                                f"loops{f' (line {where.line})' if where else ''} is not supported yet (only "
                                "declarations may stand before the inner loop)", clause.coord if clause else d.coord)
        names = {x.name for x in decls} & loop_header_names(inner)
        if names:
            name = sorted(names)[0]
            where = d.clause("collapse")
            raise self._err(UnsupportedError, f"collapse of a loop nest whose inner loop's bounds use '{name}', declared "
                            "between the loops, is not supported yet", where.coord if where is not None else d.coord)
        made = self._sink_declarations(inner, depth - 1, d)
        if made is None:
            return None
        if decls:
            made = self._with_leading(made, depth - 1, decls)
        new = copy.copy(f)
        new.stmt = made
        return new

    @staticmethod
    def _with_leading(f: c_ast.For, depth: int, decls: list) -> c_ast.For:
        """f (a perfect nest of depth loops) with decls first in its innermost body."""
        new = copy.copy(f)
        if depth == 1:
            new.stmt = c_ast.Compound(list(decls) + [f.stmt], f.stmt.coord if f.stmt is not None else f.coord)
            return new
        inner = f.stmt
        while isinstance(inner, c_ast.Compound) and inner.block_items and len(inner.block_items) == 1:
            inner = inner.block_items[0]
        new.stmt = _Binder._with_leading(inner, depth - 1, decls)
        return new

    def _rectangular_collapse(self, d: Directive, body: c_ast.Node) -> Directive:
        """A collapsed nest whose inner bounds depend on an outer loop's variable (OpenMP 5.0
        non-rectangular loops) is collapsed down to its rectangular outer loops; the inner
        loops run whole inside each of their iterations. Which thread runs an iteration is
        the implementation's to choose, so the program computes the same; it loses only the
        inner loops' parallelism. Their variables stay private, as a collapsed loop's are."""
        depth = collapse_depth(d)
        if depth < 2 or not (LOOP_LEAVES & set(d.leaves)):
            return d
        nest = loop_nest(body, depth)
        outer: set[str] = set()
        keep = len(nest)
        for k, f in enumerate(nest):
            if loop_header_names(f) & outer:
                keep = k
                break
            outer |= set(_for_vars(f))
        if keep >= len(nest) or keep == 0:
            return d
        listed = {item.name for c in d.clauses for item in getattr(c, "items", ())}
        inner_vars = [v for f in nest[keep:] if not isinstance(f.init, c_ast.DeclList) for v in _for_vars(f)
                      if v not in listed]
        clauses = tuple(dataclasses.replace(c, expr=dataclasses.replace(c.expr, text=str(keep))) if c.kind == "collapse" else c
                        for c in d.clauses)
        if inner_vars:
            clauses += parse_pragma(f"omp for private({', '.join(inner_vars)})", d.coord).clauses
        return dataclasses.replace(d, clauses=clauses)

    # -- checks -----------------------------------------------------------------
    def _check_loop(self, d: Directive, body: c_ast.Node) -> None:
        if not (LOOP_LEAVES & set(d.leaves)):
            return
        if isinstance(body, OmpConstruct):
            raise self._err(OmpSyntaxError, f"'#pragma omp {d.name}' must be followed by a for loop", d.coord)
        depth = collapse_depth(d)
        nest = loop_nest(body, depth)
        if not nest:
            raise self._err(OmpSyntaxError, f"'#pragma omp {d.name}' must be followed by a for loop", d.coord)
        if len(nest) < depth:
            c = d.clause("collapse")
            raise self._err(OmpSemanticError,
                            f"'collapse({depth})' needs {depth} perfectly nested loops, but the loop nest has only {len(nest)}",
                            c.coord if c is not None else d.coord)
        if "loop" in d.leaves:
            # OpenMP 5.0: the lastprivate items of a loop construct are loop iteration variables
            loop_vars = {v for f in nest for v in _for_vars(f)}
            for c in d.clauses_of("lastprivate"):
                for item in c.items:
                    if item.name not in loop_vars:
                        raise self._err(OmpSemanticError, f"'lastprivate' on a 'loop' construct may list only loop "
                                        f"iteration variables, and '{item.name}' is not one", item.coord)

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
                if outer.leaves[-1] in WORKSHARING or outer.leaves[-1] in ("critical", "ordered", "master", "masked") \
                        or outer.leaves[-1] == "sections":
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


def _defined_functions(node: c_ast.Node) -> list[str]:
    """The function a file-scope node defines (a declaration defines none)."""
    return [node.decl.name] if isinstance(node, c_ast.FuncDef) else []


def _declared_names(node: c_ast.Node) -> list[str]:
    if isinstance(node, c_ast.FuncDef):
        return [node.decl.name]
    if isinstance(node, (c_ast.Decl, c_ast.Typedef)):
        names = [node.name] if node.name else []
        return names + [e.name for e in enumerators(node.type)]
    return []


def enumerators(t: c_ast.Node | None) -> list[c_ast.Enumerator]:
    """Enumeration constants defined anywhere in a type (C gives them the enclosing scope)."""
    found: list[c_ast.Enumerator] = []
    stack = [t]
    while stack:
        n = stack.pop()
        if n is None:
            continue
        if isinstance(n, c_ast.Enum) and n.values is not None:
            found += n.values.enumerators
        elif isinstance(n, (c_ast.Struct, c_ast.Union)):
            stack += [d.type for d in n.decls or []]
        elif isinstance(n, c_ast.FuncDecl):
            stack.append(n.type)
        else:
            stack.append(getattr(n, "type", None))
    return found


_PRAGMA_RE = re.compile(r"^\s*#\s*pragma\s*")


def _pragma_text_col(lines: list[str] | None, line: int, fallback: int) -> int:
    """1-based column where the text after `#pragma` starts on the user's line."""
    if lines and 1 <= line <= len(lines):
        m = _PRAGMA_RE.match(lines[line - 1])
        if m:
            return m.end() + 1
    return fallback


# What a `requires` clause asks that ompgpu cannot promise (OpenMP: an implementation that
# does not support a requirement must reject the program at compile time). unified_address
# holds (CUDA's unified virtual addressing); dynamic_allocators and atomic_default_mem_order
# are honoured; unified_shared_memory is the runtime's to check: only devices that can access
# pageable host memory are available to such a program.
_UNMET_REQUIREMENTS = {
    "reverse_offload": "target regions cannot run host code (device(ancestor: 1))",
}


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
        for name in _declared_names(n):
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
