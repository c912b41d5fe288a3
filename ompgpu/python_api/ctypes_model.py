"""C scalar types as the Python API sees them: NumPy dtypes, sizes and C's conversion rules.

The data model is LP64 (x86-64 Linux, what nvcc and the host compiler use): `long` and
pointers are 64 bits, plain `char` is signed.
"""
from __future__ import annotations

from dataclasses import dataclass

from pycparser import c_ast

from ompgpu.analysis.symbols import Env, resolve_typedef


@dataclass(frozen=True)
class ScalarType:
    """An arithmetic C type."""

    c_name: str  # canonical spelling: 'int', 'unsigned long', 'double', ...
    dtype: str  # the NumPy dtype with the same representation
    size: int
    is_float: bool
    signed: bool
    rank: int  # integer conversion rank (bool 0 < char < short < int < long = long long); floats 10, 11

    @property
    def bits(self) -> int:
        return 8 * self.size


def _t(c_name, dtype, size, is_float, signed, rank) -> ScalarType:
    return ScalarType(c_name, dtype, size, is_float, signed, rank)


BOOL = _t("_Bool", "bool", 1, False, False, 0)
CHAR = _t("char", "int8", 1, False, True, 1)
SCHAR = _t("signed char", "int8", 1, False, True, 1)
UCHAR = _t("unsigned char", "uint8", 1, False, False, 1)
SHORT = _t("short", "int16", 2, False, True, 2)
USHORT = _t("unsigned short", "uint16", 2, False, False, 2)
INT = _t("int", "int32", 4, False, True, 3)
UINT = _t("unsigned int", "uint32", 4, False, False, 3)
LONG = _t("long", "int64", 8, False, True, 4)
ULONG = _t("unsigned long", "uint64", 8, False, False, 4)
LLONG = _t("long long", "int64", 8, False, True, 5)
ULLONG = _t("unsigned long long", "uint64", 8, False, False, 5)
FLOAT = _t("float", "float32", 4, True, True, 10)
DOUBLE = _t("double", "float64", 8, True, True, 11)

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


# ---------------------------------------------------------------------------- C arithmetic

def wrap(value, t: ScalarType):
    """`value` converted to type t the way C converts (integers wrap modulo 2^bits; floats round)."""
    if t.is_float:
        v = float(value)
        if t is FLOAT or t.size == 4:
            import numpy as np

            return float(np.float32(v))
        return v
    if t is BOOL:
        return 1 if value else 0
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise ArithmeticError(f"conversion of {value} to '{t.c_name}' is undefined in C")
        value = int(value)  # truncation toward zero
    mask = (1 << t.bits) - 1
    v = int(value) & mask
    if t.signed and v >> (t.bits - 1):
        v -= 1 << t.bits
    return v


def promote(t: ScalarType) -> ScalarType:
    """Integer promotion: types below int become int."""
    return INT if not t.is_float and t.rank < INT.rank else t


def common_type(a: ScalarType, b: ScalarType) -> ScalarType:
    """C's usual arithmetic conversions."""
    if a.is_float or b.is_float:
        return max((x for x in (a, b) if x.is_float), key=lambda x: x.rank)
    a, b = promote(a), promote(b)
    if a == b:
        return a
    if a.signed == b.signed:
        return a if a.rank >= b.rank else b
    u, s = (a, b) if not a.signed else (b, a)
    if u.rank >= s.rank:
        return u
    if s.size > u.size:
        return s
    return _UNSIGNED_OF[s.c_name]


_UNSIGNED_OF = {"int": UINT, "long": ULONG, "long long": ULLONG}
