"""Symbols, types and the variables a region uses.

`Env` is a chain of scopes mapping names to `Symbol`s; `region_uses` walks a statement
(a target or parallel region body) and reports which outer variables it references,
which it may write, and whose address it takes: the facts the data-sharing rules need.
"""
from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field

from pycparser import c_ast, c_generator

from ompgpu.parser.bind import OmpConstruct, enumerators
from ompgpu.parser.clause_rules import int_constant
from ompgpu.parser.cfront import is_offsetof, offsetof_subscripts, param_decls, walk_nodes  # noqa: F401 - re-exported


@dataclass(frozen=True, eq=False)
class Symbol:
    name: str
    kind: str  # 'var' | 'func' | 'enumerator' | 'typedef'
    decl: c_ast.Node  # Decl / FuncDef / Enumerator / Typedef
    is_global: bool
    is_param: bool = False

    @property
    def type(self) -> c_ast.Node | None:
        """The declared type; an array of unknown size with an initializer (`char s[] = "abc"`,
        `int v[] = {1, 2}`) has the size its initializer gives it, as in C."""
        t = getattr(self.decl, "type", None)
        init = getattr(self.decl, "init", None)
        if isinstance(t, c_ast.ArrayDecl) and t.dim is None and init is not None:
            length = initializer_length(init, t.type)
            if length is not None:
                t = copy.copy(t)
                t.dim = c_ast.Constant("int", str(length), t.coord)
        return t


def initializer_length(init: c_ast.Node, element_type: c_ast.Node) -> int | None:
    """How many elements an initializer gives an array of unknown size, or None when that
    is not plain to see (designators that are not constants, brace elision)."""
    if isinstance(init, c_ast.Constant) and init.type == "string":
        return _string_literal_length(init.value)
    if not isinstance(init, c_ast.InitList):
        return None
    aggregate = isinstance(element_type, c_ast.ArrayDecl)
    position = length = 0
    for item in init.exprs:
        if isinstance(item, c_ast.NamedInitializer):
            first = item.name[0] if item.name else None
            if not (isinstance(first, c_ast.Constant) and first.type == "int"):
                return None
            position = int(first.value.rstrip("uUlL"), 0)
            item = item.expr
        if aggregate and not isinstance(item, c_ast.InitList) and not (
                isinstance(item, c_ast.Constant) and item.type == "string"):
            return None  # brace elision over sub-arrays: leave it to the C compilers
        position += 1
        length = max(length, position)
    return length


_STRING_PIECE_RE = re.compile(r'(?:u8|[uUL])?"((?:\\.|[^"\\])*)"')
_ESCAPE_RE = re.compile(r"\\(?:x[0-9a-fA-F]+|[0-7]{1,3}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)")


def _string_literal_length(literal: str) -> int:
    """Characters of a C string literal (adjacent pieces joined) plus the terminating NUL."""
    body = "".join(_STRING_PIECE_RE.findall(literal))
    return len(_ESCAPE_RE.sub("e", body)) + 1


class Env:
    """Lexical scopes: a list of dicts, innermost last."""

    def __init__(self, scopes: list[dict[str, Symbol]] | None = None):
        self.scopes = scopes if scopes is not None else [{}]

    def child(self) -> "Env":
        return Env(self.scopes + [{}])

    def copy(self) -> "Env":
        return Env([dict(s) for s in self.scopes])

    def add(self, sym: Symbol) -> None:
        self.scopes[-1][sym.name] = sym

    def lookup(self, name: str) -> Symbol | None:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return None

    @property
    def at_file_scope(self) -> bool:
        return len(self.scopes) == 1


def declare(env: Env, node: c_ast.Node, is_param: bool = False) -> None:
    """Add what `node` (a declaration) declares to the innermost scope."""
    glob = env.at_file_scope
    if isinstance(node, c_ast.FuncDef):
        env.add(Symbol(node.decl.name, "func", node, True))
    elif isinstance(node, c_ast.Typedef):
        _declare_tag(env, node.type)
        env.add(Symbol(node.name, "typedef", node, glob))
    elif isinstance(node, c_ast.Decl):
        _declare_enumerators(env, node.type)
        _declare_tag(env, node.type)
        if node.name:
            kind = "func" if isinstance(node.type, c_ast.FuncDecl) else "var"
            env.add(Symbol(node.name, kind, node, glob, is_param))
    elif isinstance(node, c_ast.DeclList):
        for d in node.decls:
            declare(env, d, is_param)


def _declare_tag(env: Env, t: c_ast.Node | None) -> None:
    """Struct and union definitions are found by tag: 'struct NAME' in the scope."""
    while t is not None and not isinstance(t, (c_ast.Struct, c_ast.Union)):
        t = getattr(t, "type", None)
    if isinstance(t, (c_ast.Struct, c_ast.Union)) and t.name and t.decls is not None:
        kw = "struct" if isinstance(t, c_ast.Struct) else "union"
        env.add(Symbol(f"{kw} {t.name}", "tag", t, env.at_file_scope))


def _declare_enumerators(env: Env, t: c_ast.Node | None) -> None:
    for e in enumerators(t):
        env.add(Symbol(e.name, "enumerator", e, True))


# ---------------------------------------------------------------------------
# Types

def decay(t: c_ast.Node) -> c_ast.Node:
    """Array type -> pointer to its element type."""
    if isinstance(t, c_ast.ArrayDecl):
        return c_ast.PtrDecl([], t.type)
    return t


def is_array(t: c_ast.Node | None) -> bool:
    return isinstance(t, c_ast.ArrayDecl)


def is_pointer(t: c_ast.Node | None) -> bool:
    return isinstance(t, c_ast.PtrDecl)


# The bytes of C's scalar type names on the host and the device (LP64), one table for every pass.
SCALAR_BYTES = {"char": 1, "_Bool": 1, "short": 2, "int": 4, "float": 4, "long": 8, "double": 8}


def array_bytes(t: c_ast.Node) -> int | None:
    """The size of an array type whose dimensions are constants and whose elements are scalars
    or pointers (a `long double` counts 16); None where it is not known that way."""
    dims = constant_dims(t)
    if dims is None:
        return None
    elem = t
    while isinstance(elem, c_ast.ArrayDecl):
        elem = elem.type
    if isinstance(elem, c_ast.PtrDecl):
        size = 8
    elif isinstance(elem, c_ast.TypeDecl) and isinstance(elem.type, c_ast.IdentifierType):
        names = elem.type.names
        sizes = [SCALAR_BYTES[n] for n in names if n in SCALAR_BYTES]
        if not sizes:
            return None
        size = 16 if names.count("long") == 1 and "double" in names else max(sizes)
    else:
        return None
    total = size
    for n in dims:
        total *= n
    return total


def constant_dims(t: c_ast.Node) -> list[int] | None:
    """The dimensions of an array type, outermost first, where each is a compile-time constant;
    None for a variable-length array (or a dimension left out)."""
    dims = []
    while isinstance(t, c_ast.ArrayDecl):
        n = int_constant(c_generator.CGenerator().visit(t.dim)) if t.dim is not None else None
        if n is None:
            return None
        dims.append(n)
        t = t.type
    return dims


def base_type_names(t: c_ast.Node | None) -> list[str]:
    """The identifier type words under declarators ('unsigned', 'int', ...)."""
    while t is not None and not isinstance(t, (c_ast.IdentifierType, c_ast.Struct, c_ast.Union, c_ast.Enum)):
        t = getattr(t, "type", None)
    if isinstance(t, c_ast.IdentifierType):
        return list(t.names)
    return []


def is_aggregate(t: c_ast.Node | None, env: Env | None = None) -> bool:
    """Struct/union value (not a pointer or array), following typedefs."""
    if not isinstance(t, c_ast.TypeDecl):
        return False
    inner = t.type
    if isinstance(inner, (c_ast.Struct, c_ast.Union)):
        return True
    if isinstance(inner, c_ast.IdentifierType) and env is not None and len(inner.names) == 1:
        sym = env.lookup(inner.names[0])
        if sym is not None and sym.kind == "typedef":
            return is_aggregate(sym.decl.type, env) or is_array(sym.decl.type)
    return False


def has_side_effect(expr: c_ast.Node | None, pure_calls) -> bool:
    """Whether evaluating expr may change anything: an assignment, ++/--, or a call of a
    function not in pure_calls."""
    for node in walk_nodes(expr) if expr is not None else ():
        if isinstance(node, c_ast.Assignment) or (isinstance(node, c_ast.UnaryOp) and node.op in ("++", "--", "p++", "p--")):
            return True
        if isinstance(node, c_ast.FuncCall):
            name = node.name.name if isinstance(node.name, c_ast.ID) else None
            if name not in pure_calls:
                return True
    return False


def resolve_typedef(t: c_ast.Node | None, env: Env) -> c_ast.Node | None:
    """Follow a typedef name one level at a time down to a declarator that is not a plain name."""
    seen = 0
    while isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.IdentifierType) and len(t.type.names) == 1 and seen < 32:
        sym = env.lookup(t.type.names[0])
        if sym is None or sym.kind != "typedef":
            break
        t = sym.decl.type
        seen += 1
    return t


# ---------------------------------------------------------------------------
# Walking statements with their scopes

class ScopedVisitor(c_ast.NodeVisitor):
    """A NodeVisitor that keeps `self.env` right: blocks and for-loops open scopes,
    declarations enter them (after their initializer is visited, as in C)."""

    def __init__(self, env: Env):
        self.env = env

    def visit_Compound(self, n: c_ast.Compound) -> None:
        saved, self.env = self.env, self.env.child()
        for item in n.block_items or []:
            self.visit(item)
        self.env = saved

    def visit_For(self, n: c_ast.For) -> None:
        saved, self.env = self.env, self.env.child()
        for part in (n.init, n.cond, n.next, n.stmt):
            if part is not None:
                self.visit(part)
        self.env = saved

    def visit_Decl(self, n: c_ast.Decl) -> None:
        if n.init is not None:
            self.visit(n.init)
        declare(self.env, n)

    def visit_Typedef(self, n: c_ast.Typedef) -> None:
        declare(self.env, n)


# ---------------------------------------------------------------------------
# What a region uses

@dataclass
class Uses:
    """Outer variables a statement uses, in first-use order."""

    order: list[Symbol] = field(default_factory=list)
    written: set[Symbol] = field(default_factory=set)
    address_taken: set[Symbol] = field(default_factory=set)
    calls: list[str] = field(default_factory=list)
    constructs: list[OmpConstruct] = field(default_factory=list)

    def add(self, sym: Symbol) -> None:
        if sym not in self.order:
            self.order.append(sym)


def region_uses(stmt: c_ast.Node, env: Env) -> Uses:
    """Variables declared outside `stmt` (in env) that `stmt` references."""
    u = Uses()
    _UseWalker(env.child(), u).visit(stmt)
    return u


def _lvalue_path(n: c_ast.Node) -> tuple[c_ast.ID | None, list[tuple[str, str]]]:
    """The variable an lvalue starts from and the steps from it to the lvalue, outermost first:
    ('[]', '') for a subscript, ('.', member) and ('->', member) for member accesses. None
    where the lvalue does not start from a variable (`*p`, a call's result)."""
    steps: list[tuple[str, str]] = []
    while True:
        if isinstance(n, c_ast.ArrayRef):
            steps.append(("[]", ""))
            n = n.name
        elif isinstance(n, c_ast.StructRef):
            steps.append((n.type, n.field.name))
            n = n.name
        else:
            break
    return (n if isinstance(n, c_ast.ID) else None), steps[::-1]


def _member_type(t: c_ast.Node | None, member: str, env: Env) -> c_ast.Node | None:
    """The declared type of `member` of the struct or union type t; None where unknown."""
    inner = t.type if isinstance(t, c_ast.TypeDecl) else None
    if not isinstance(inner, (c_ast.Struct, c_ast.Union)):
        return None
    decls = inner.decls
    if decls is None and inner.name:
        tag = env.lookup(f"{'struct' if isinstance(inner, c_ast.Struct) else 'union'} {inner.name}")
        decls = tag.decl.decls if tag is not None else None
    for d in decls or ():
        if d.name == member:
            return d.type
        if d.name is None:  # an anonymous struct or union member: its members are the outer one's
            found = _member_type(d.type, member, env)
            if found is not None:
                return found
    return None


def writes_variable(sym_type: c_ast.Node, steps: list[tuple[str, str]], env: Env) -> bool:
    """Whether writing the lvalue `v<steps>` of a variable of type sym_type changes the variable's
    own storage: every subscript indexes an array (not a pointer) and every member access is
    `.` (`s.rows[i][j]`, `a[i].x`), never through `->` or a pointer (`p[i]`, `s.p[i]`, which
    write what the pointer points to). Where a member's type is unknown, it counts as a write
    of the variable (sharing a variable by address is always right)."""
    t = resolve_typedef(sym_type, env)
    for kind, member in steps:
        if kind == "->":
            return False
        if kind == "[]":
            if not is_array(t):
                return not is_pointer(t) and t is None
            t = resolve_typedef(t.type, env)
            continue
        t = _member_type(t, member, env)
        if t is None:
            return True
        t = resolve_typedef(t, env)
    return True


class _UseWalker(ScopedVisitor):
    def __init__(self, env: Env, uses: Uses):
        super().__init__(env)
        self.outer = env.scopes[:-1]
        self.uses = uses

    def _outer_symbol(self, name: str) -> Symbol | None:
        sym = self.env.lookup(name)
        if sym is None or sym.kind != "var":
            return None
        for scope in self.outer:
            if scope.get(name) is sym:
                return sym
        return None

    def _note_write(self, target: c_ast.Node, address: bool = False) -> None:
        root, steps = _lvalue_path(target)
        if root is None:
            return
        sym = self._outer_symbol(root.name)
        if sym is None:
            return
        if not writes_variable(sym.type, steps, self.env):
            return  # p[i] = ..., s->x = ..., s.p[i] = ...: the pointee, not the variable
        (self.uses.address_taken if address else self.uses.written).add(sym)

    def visit_ID(self, n: c_ast.ID) -> None:
        sym = self._outer_symbol(n.name)
        if sym is not None:
            self.uses.add(sym)

    def visit_StructRef(self, n: c_ast.StructRef) -> None:
        self.visit(n.name)  # n.field is a member name, not a variable

    def visit_FuncCall(self, n: c_ast.FuncCall) -> None:
        if is_offsetof(n):   # offsetof(T, m[i]): only the subscripts are expressions
            for subscript in offsetof_subscripts(n):
                self.visit(subscript)
            return
        if isinstance(n.name, c_ast.ID):
            sym = self.env.lookup(n.name.name)
            if sym is None or sym.kind == "func":
                self.uses.calls.append(n.name.name)
            else:
                self.visit(n.name)
        else:
            self.visit(n.name)
        if n.args is not None:
            self.visit(n.args)

    def visit_Assignment(self, n: c_ast.Assignment) -> None:
        self._note_write(n.lvalue)
        self.visit(n.lvalue)
        self.visit(n.rvalue)

    def visit_UnaryOp(self, n: c_ast.UnaryOp) -> None:
        if n.op in ("++", "--", "p++", "p--"):
            self._note_write(n.expr)
        elif n.op == "&":
            self._note_write(n.expr, address=True)
        elif n.op == "sizeof":
            return  # sizeof does not evaluate its operand
        self.visit(n.expr)

    def visit_Decl(self, n: c_ast.Decl) -> None:
        self._visit_type_exprs(n.type)
        super().visit_Decl(n)

    def _visit_type_exprs(self, t: c_ast.Node | None) -> None:
        while t is not None:
            if isinstance(t, c_ast.ArrayDecl) and t.dim is not None:
                self.visit(t.dim)
            t = getattr(t, "type", None)

    def visit_Typename(self, n: c_ast.Typename) -> None:
        self._visit_type_exprs(n.type)

    def visit_OmpConstruct(self, n: OmpConstruct) -> None:
        self.uses.constructs.append(n)
        # Variables in clause expressions (num_threads(nt), if(parallel: c), schedule chunks)
        # may be evaluated on the device.
        for text in _clause_expression_texts(n.directive):
            for name in _IDENT_RE.findall(text):
                sym = self._outer_symbol(name)
                if sym is not None:
                    self.uses.add(sym)
        # Clause variables are uses too (e.g. reduction(+:sum) with sum only in the clause).
        for c in n.directive.clauses:
            for item in getattr(c, "items", ()) or ():
                sym = self._outer_symbol(item.name)
                if sym is not None:
                    self.uses.add(sym)
                    if c.kind in ("reduction", "lastprivate"):
                        self.uses.written.add(sym)
        if n.body is not None:
            self.visit(n.body)


_IDENT_RE = re.compile(r"(?<![\w.>])[A-Za-z_]\w*")


def _clause_expression_texts(d) -> list[str]:
    texts = []
    for c in d.clauses:
        for attr in ("expr", "chunk", "step", "alignment"):
            e = getattr(c, attr, None)
            if e is not None and hasattr(e, "text"):
                texts.append(e.text)
    return texts


def stored_lvalues(node: c_ast.Node):
    """The lvalues that code stores to: of its assignments (compound ones too) and its ++ and --."""
    for n in walk_nodes(node):
        if isinstance(n, c_ast.Assignment):
            yield n.lvalue
        elif isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--"):
            yield n.expr
