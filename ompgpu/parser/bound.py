"""The bound IR that binding produces and every later pass reads: OmpConstruct (a directive
with the statement it governs), BoundUnit (the file after binding), CoordFixer, and the
shape of canonical loop nests (loop_nest, canonical_for, collapse_depth, ...).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from pycparser import c_ast

from ompgpu.errors import SourceCoord
from ompgpu.parser.cfront import ParsedUnit, PreprocessedUnit, walk_nodes
from ompgpu.parser.clause_rules import int_constant
from ompgpu.parser.directives import Directive, ExprClause, TraitSelector


STANDALONE = frozenset({
    "barrier", "taskwait", "taskyield", "flush", "target update", "target enter data",
    "target exit data", "cancel", "cancellation point", "threadprivate", "requires",
    "declare target", "end declare target", "begin declare target", "declare simd",
    "declare reduction", "declare variant", "begin declare variant", "end declare variant", "declare mapper", "scan", "allocate", "depobj",
    "interop", "nothing", "error", "assumes", "begin assumes", "end assumes",
})


LOOP_LEAVES = frozenset({"for", "simd", "distribute", "loop", "taskloop"})
WORKSHARING = frozenset({"for", "sections", "single", "loop", "scope"})


def loop_binding(d, in_parallel: bool) -> str:
    """The region a `loop` construct binds to (OpenMP 5.0, 2.9.5): its bind clause's
    ("thread": each thread that meets it runs every iteration; "parallel": the threads of the
    innermost parallel region share them; "teams": the teams share them), else the parallel
    region it is nested in, else the teams region."""
    c = d.clause("bind")
    if c is not None:
        return c.value
    return "parallel" if in_parallel else "teams"


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
class DeclaredVariant:
    """One declare variant: its base function, its variant, the traits of its match clause, and
    the directive (adjust_args, append_args; `begin declare variant` for a function defined in
    such a block, which the binder renamed to `variant`)."""

    base: str
    variant: str
    traits: tuple[TraitSelector, ...]
    directive: Directive

    @property
    def for_dispatch(self) -> bool:
        """Whether it applies only at the call of a dispatch construct (construct={dispatch})."""
        return any(t.trait_set == "construct" and t.name == "dispatch" for t in self.traits)


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
    # Row lengths of variably modified variables (parser/declarators.py): the hidden name that
    # holds one -> the C expression that computes it on the host from the variable's own type.
    vla_sizes: tuple[tuple[str, str], ...] = ()
    # Functions of `declare target ... indirect` (OpenMP 5.1): device code may call them through
    # a pointer that holds their host address (runtime/device/indirect.cuh translates it).
    indirect_functions: frozenset[str] = frozenset()
    # Warnings of the compile, (where, message): error directives with severity(warning).
    warnings: tuple[tuple[SourceCoord, str], ...] = ()
    # Functions defined in `begin declare variant` blocks whose selector has construct traits:
    # each a variant of the base function of its name, renamed, chosen where each call stands.
    block_variants: tuple[DeclaredVariant, ...] = ()
    # Names the host code renames, (line, column of the preprocessed text, old, new): those
    # block variants' declarations, and the calls that take a variant chosen where they stand
    # (parser/variants.py); the host compiler never sees those variants' directives.
    host_renames: tuple[tuple[int, int, str, str], ...] = ()

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


def for_vars(f: c_ast.For) -> list[str]:
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
    return tuple(name for f in loop_nest(body, depth) for name in for_vars(f))


def collapse_depth(d: Directive) -> int:
    c = d.clause("collapse")
    if isinstance(c, ExprClause) and c.expr is not None:
        return int_constant(c.expr.text) or 1
    return 1


def defined_functions(node: c_ast.Node) -> list[str]:
    """The function a file-scope node defines (a declaration defines none)."""
    return [node.decl.name] if isinstance(node, c_ast.FuncDef) else []


def declared_names(node: c_ast.Node) -> list[str]:
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
