"""C scalar types as the Python API sees them: NumPy dtypes and ctypes types of the same representation.

The data model is LP64 (x86-64 Linux, what nvcc and the host compiler use): `long` and
pointers are 64 bits, plain `char` is signed.
"""
from __future__ import annotations

from pycparser import c_ast

from ompgpu.analysis.symbols import Env, resolve_typedef
from ompgpu.python_api.model import (BOOL, CHAR, DOUBLE, FLOAT, INT, LLONG, LONG, SCHAR, SHORT, UCHAR, UINT, ULLONG,
                                     ULONG, USHORT, ScalarType)


# Type-specifier words (order-insensitive, 'int' and 'signed' implied where C implies them).
_BY_WORDS = {
    ("_Bool",): BOOL, ("char",): CHAR, ("char", "signed"): SCHAR, ("char", "unsigned"): UCHAR,
    ("short",): SHORT, ("short", "unsigned"): USHORT, ("int",): INT, ("unsigned",): UINT,
    ("long",): LONG, ("long", "unsigned"): ULONG, ("long", "long"): LLONG, ("long", "long", "unsigned"): ULLONG,
    ("float",): FLOAT, ("double",): DOUBLE,
}


def scalar_from_words(words: list[str]) -> ScalarType | None:
    w = [x for x in words if x not in ("const", "volatile", "restrict", "register", "static", "extern", "auto")]
    if w == ["bool"]:
        return BOOL
    if w == ["signed"]:
        return INT
    if "char" not in w:
        w = [x for x in w if x != "signed"]
    if "int" in w and len(w) > 1:
        w = [x for x in w if x != "int"]
    return _BY_WORDS.get(tuple(sorted(w)))


def scalar_type(t: c_ast.Node | None, env: Env) -> ScalarType | None:
    """The arithmetic type that declarator `t` names (typedefs and enums followed), else None."""
    t = resolve_typedef(t, env)
    if not isinstance(t, c_ast.TypeDecl):
        return None
    inner = t.type
    if isinstance(inner, c_ast.Enum):
        return INT
    if isinstance(inner, c_ast.IdentifierType):
        return scalar_from_words(list(inner.names))
    return None


def pointee_type(t: c_ast.Node | None, env: Env) -> tuple[str, ScalarType | None]:
    """('pointer', element type) for a pointer or array to an arithmetic type (element type
    None for `void *`); ('other', None) for anything else."""
    t = resolve_typedef(t, env)
    if isinstance(t, (c_ast.PtrDecl, c_ast.ArrayDecl)):
        inner = resolve_typedef(t.type, env)
        if isinstance(inner, c_ast.TypeDecl) and isinstance(inner.type, c_ast.IdentifierType) and \
                [n for n in inner.type.names if n not in ("const", "volatile")] == ["void"]:
            return "pointer", None
        st = scalar_type(inner, env)
        if st is not None:
            return "pointer", st
    return "other", None


def is_void(t: c_ast.Node | None, env: Env) -> bool:
    t = resolve_typedef(t, env)
    return isinstance(t, c_ast.TypeDecl) and isinstance(t.type, c_ast.IdentifierType) and t.type.names == ["void"]
