"""C declarations and types as device code spells them: the C printer that defines types
(CGen), type strings, C++-safe names, integer-type tests."""
from __future__ import annotations

import copy

from pycparser import c_ast

from ompgpu.analysis.symbols import Env, resolve_typedef, walk_nodes
from ompgpu.codegen.cprint import CPrinter
from ompgpu.errors import SourceCoord, UnsupportedError
from ompgpu.parser.cfront import set_declname
from ompgpu.parser.clause_rules import int_constant


CXX_KEYWORDS = frozenset("""
new delete class this template typename namespace using operator private public protected virtual friend
try catch throw explicit mutable export bool true false nullptr decltype constexpr noexcept static_cast
dynamic_cast reinterpret_cast const_cast typeid wchar_t char16_t char32_t alignof concept requires co_await
""".split())


class CGen(CPrinter):
    """Prints C that is also valid C++ for nvcc: names that C++ reserves are respelled.

    Struct, union and enum definitions are printed only where the device code defines its
    types (define_types=True, at namespace scope); everywhere else a type with a body is
    named by its tag (an anonymous one gets a tag made from its source position), so that a
    kernel parameter or a local variable of such a type refers to that one definition."""

    def __init__(self, define_types: bool = False):
        super().__init__()
        self.define_types = define_types

    def visit_Struct(self, n):
        return self._tagged(n, "struct", super().visit_Struct)

    def visit_Union(self, n):
        return self._tagged(n, "union", super().visit_Union)

    def visit_Enum(self, n):
        return self._tagged(n, "enum", super().visit_Enum)

    def _tagged(self, n, keyword: str, define) -> str:
        if not has_body(n):
            return define(n)
        if self.define_types:
            if n.name is None:
                n = copy.copy(n)
                n.name = anonymous_tag(n)
            return define(n)
        # C++ names a class without its keyword: an anonymous type's made-up tag can then also
        # be a typedef of another (identical definitions in two functions are one type).
        return f"{keyword} {n.name}" if n.name else anonymous_tag(n)

    def visit_ID(self, n):
        return cxx_name(n.name)

    def visit_Constant(self, n):
        return n.value

    def declared_name(self, name: str) -> str:
        return cxx_name(name)


def by_value_type(t: c_ast.Node, name: str, coord: SourceCoord) -> str:
    """The type of an array passed by value; its size must be a compile-time constant."""
    dims = []
    elem = t
    while isinstance(elem, c_ast.ArrayDecl):
        dims.append(elem.dim)
        elem = elem.type
    if any(d is None or int_constant(CGen().visit(d)) is None for d in dims):
        raise UnsupportedError(f"firstprivate array '{name}' of variable size is not supported yet", coord)
    return type_string(t)


def unqualified(t: c_ast.Node) -> c_ast.Node:
    """t without const/volatile on the object itself (an array's elements included; what a
    pointer points to keeps its qualifiers)."""
    t = copy.deepcopy(t)
    node = t
    while isinstance(node, c_ast.ArrayDecl):
        node = node.type
    if isinstance(node, (c_ast.PtrDecl, c_ast.TypeDecl)):
        node.quals = [q for q in node.quals if q not in ("const", "volatile")]
    return t


def has_body(n: c_ast.Node) -> bool:
    return (n.values if isinstance(n, c_ast.Enum) else n.decls) is not None


def anonymous_tag(n: c_ast.Node) -> str:
    c = n.coord
    return f"__ompgpu_anon_l{c.line}_c{c.column}" if c is not None else f"__ompgpu_anon_{id(n)}"


def base_type(t: c_ast.Node) -> c_ast.Node:
    """The specifier under a declarator: `struct S {...}` of `struct S {...} *p[3]`."""
    while isinstance(t, (c_ast.PtrDecl, c_ast.ArrayDecl, c_ast.FuncDecl, c_ast.TypeDecl, c_ast.Typename)):
        t = t.type
    return t


def tag_keys(t: c_ast.Node) -> list[str]:
    """What a type definition declares: its tag (if it defines one) and an enum's constants."""
    if not isinstance(t, (c_ast.Struct, c_ast.Union, c_ast.Enum)) or not has_body(t):
        return []
    keys = [f"{type(t).__name__.lower()} {t.name}"] if t.name else []
    if isinstance(t, c_ast.Enum):
        keys += [f"enumerator {e.name}" for e in t.values.enumerators]
    return keys


def variably_modified(t: c_ast.Node) -> bool:
    """An array type whose size is not a constant (`typedef double row[n]`)."""
    while isinstance(t, (c_ast.PtrDecl, c_ast.ArrayDecl, c_ast.TypeDecl)):
        if isinstance(t, c_ast.ArrayDecl) and t.dim is not None and not isinstance(t.dim, c_ast.Constant):
            return any(isinstance(x, c_ast.ID) for x in walk_nodes(t.dim))
        t = t.type
    return False


def local_declarations(body: c_ast.Node):
    """Declarations anywhere in a function body (nested blocks and constructs included), in order."""
    todo = [body]
    while todo:
        node = todo.pop()
        if isinstance(node, (c_ast.Typedef, c_ast.Decl)):
            yield node
            continue
        todo.extend(reversed([child for _, child in node.children()]))


def cxx_name(name: str) -> str:
    return f"{name}__c" if name in CXX_KEYWORDS else name


def named(t: c_ast.Node, name: str | None) -> c_ast.Node:
    """A copy of type t whose declarator names `name` (abstract when None)."""
    t = copy.deepcopy(t)
    set_declname(t, name)
    return t


def type_string(t: c_ast.Node, name: str | None = None) -> str:
    """C declarator text for type t declaring `name` (abstract when name is None)."""
    return CGen().declaration(t, name)


def strip_quals(t: c_ast.Node) -> None:
    """Drop const/volatile from a declarator's innermost type (shared-memory storage takes no
    initializer, so it is written after its declaration)."""
    while isinstance(t, (c_ast.ArrayDecl, c_ast.PtrDecl)):
        t = t.type
    if isinstance(t, c_ast.TypeDecl):
        t.quals = [q for q in t.quals or [] if q not in ("const", "volatile")]


def integer_words(t: c_ast.Node | None, env: Env) -> frozenset[str] | None:
    """The words of an integer type named by t (typedefs followed) without signed/unsigned
    ({'int'}, {'long', 'long'} as {'long'}, the empty set for a plain `unsigned`); None for
    any other type, an enum and `_Bool` included."""
    t = resolve_typedef(t, env)
    if not (isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.IdentifierType)):
        return None
    words = frozenset(t.type.names) - {"signed", "unsigned"}
    return words if words <= {"int", "short", "char", "long"} else None


def is_narrow_integer(t: c_ast.Node | None, env: Env) -> bool:
    """Whether t is an integer type of at most 32 bits: char, short, int, with or without
    signed/unsigned (`long` and `_Bool` are not)."""
    words = integer_words(t, env)
    return words is not None and "long" not in words


def is_integer_type(t: c_ast.Node | None, env: Env) -> bool:
    """Whether t (typedefs followed) is an integer type (an enum counts; _Bool does not)."""
    resolved = resolve_typedef(t, env)
    return integer_words(t, env) is not None or (isinstance(resolved, c_ast.TypeDecl) and isinstance(resolved.type, c_ast.Enum))
