"""Integer and floating-point C expressions that the Python side evaluates.

Clause arguments (`a[lo:len]`, `num_teams(n / 64)`, `if(n > 1000)`), local initialisers and
`return` expressions run in Python, not on the device. They are converted once, at compile
time, into this small frozen IR (constants, variables, operators, casts; `sizeof` already
folded), and evaluated with C's rules: usual arithmetic conversions, integer wrap-around,
division truncating toward zero. Anything else (calls, pointers, assignments) is rejected
when the function is compiled, with the expression's position.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Union

from pycparser import c_ast

from ompgpu.analysis.symbols import Env
from ompgpu.errors import SourceCoord, UnsupportedError
from ompgpu.python_api.ctypes_model import (DOUBLE, FLOAT, INT, LLONG, LONG, UINT, ULLONG, ULONG, ScalarType,
                                            common_type, promote, scalar_from_words, scalar_type, pointee_type, wrap)


@dataclass(frozen=True)
class Const:
    value: int | float
    type: ScalarType


@dataclass(frozen=True)
class Var:
    name: str
    type: ScalarType


@dataclass(frozen=True)
class Unary:
    op: str  # '-', '+', '~', '!'
    operand: "Expr"
    type: ScalarType


@dataclass(frozen=True)
class Binary:
    op: str
    left: "Expr"
    right: "Expr"
    type: ScalarType  # type of the result
    operand_type: ScalarType  # type both operands are converted to (arithmetic and comparisons)


@dataclass(frozen=True)
class Cond:
    test: "Expr"
    then: "Expr"
    other: "Expr"
    type: ScalarType


@dataclass(frozen=True)
class Cast:
    operand: "Expr"
    type: ScalarType


Expr = Union[Const, Var, Unary, Binary, Cond, Cast]

_ARITH = {"+", "-", "*", "/", "%", "&", "|", "^"}
_SHIFT = {"<<", ">>"}
_COMPARE = {"<", "<=", ">", ">=", "==", "!="}
_LOGICAL = {"&&", "||"}


class EvalError(Exception):
    """A clause expression has no defined value (division by zero, ...)."""


# ---------------------------------------------------------------------------- building

def build(node: c_ast.Node, env: Env, coord: SourceCoord, what: str) -> Expr:
    """Convert a pycparser expression; `env` gives the types of the names it uses."""
    return _Builder(env, coord, what).visit(node)


class _Builder:
    def __init__(self, env: Env, coord: SourceCoord, what: str):
        self.env, self.coord, self.what = env, coord, what

    def fail(self, why: str) -> UnsupportedError:
        return UnsupportedError(f"{self.what}: {why}; ompgpu.compile evaluates it in Python, where only arithmetic on "
                                "the function's scalar parameters and locals is available", self.coord)

    def visit(self, n: c_ast.Node) -> Expr:
        m = getattr(self, "visit_" + type(n).__name__, None)
        if m is None:
            raise self.fail(f"'{type(n).__name__}' expressions are not supported")
        return m(n)

    def visit_Constant(self, n: c_ast.Constant) -> Expr:
        return parse_constant(n.type, n.value, self.fail)

    def visit_ID(self, n: c_ast.ID) -> Expr:
        sym = self.env.lookup(n.name)
        if sym is None:
            raise self.fail(f"'{n.name}' is not declared")
        if sym.kind == "enumerator":
            raise self.fail(f"enumerator '{n.name}' is not supported")
        if sym.kind != "var":
            raise self.fail(f"'{n.name}' is not a variable")
        if sym.is_global:
            raise self.fail(f"global variable '{n.name}' has no value on the Python side")
        t = scalar_type(sym.type, self.env)
        if t is None:
            raise self.fail(f"'{n.name}' is not of an arithmetic type")
        return Var(n.name, t)

    def visit_Cast(self, n: c_ast.Cast) -> Expr:
        t = scalar_type(n.to_type.type, self.env)
        if t is None:
            raise self.fail("a cast to a type that is not arithmetic")
        return Cast(self.visit(n.expr), t)

    def visit_UnaryOp(self, n: c_ast.UnaryOp) -> Expr:
        if n.op == "sizeof":
            return Const(self._sizeof(n.expr), ULONG)
        if n.op not in ("-", "+", "~", "!"):
            raise self.fail(f"operator '{n.op}' is not supported")
        e = self.visit(n.expr)
        t = INT if n.op == "!" else promote(e.type)
        if n.op == "~" and t.is_float:
            raise self.fail("'~' of a floating-point value")
        return Unary(n.op, e, t)

    def visit_BinaryOp(self, n: c_ast.BinaryOp) -> Expr:
        a, b = self.visit(n.left), self.visit(n.right)
        op = n.op
        if op in _ARITH or op in _COMPARE:
            ct = common_type(a.type, b.type)
            if op in ("%", "&", "|", "^") and ct.is_float:
                raise self.fail(f"'{op}' of a floating-point value")
            return Binary(op, a, b, INT if op in _COMPARE else ct, ct)
        if op in _SHIFT:
            if a.type.is_float or b.type.is_float:
                raise self.fail(f"'{op}' of a floating-point value")
            return Binary(op, a, b, promote(a.type), promote(a.type))
        if op in _LOGICAL:
            return Binary(op, a, b, INT, INT)
        raise self.fail(f"operator '{op}' is not supported")

    def visit_TernaryOp(self, n: c_ast.TernaryOp) -> Expr:
        a, b = self.visit(n.iftrue), self.visit(n.iffalse)
        return Cond(self.visit(n.cond), a, b, common_type(a.type, b.type))

    def _sizeof(self, e: c_ast.Node) -> int:
        if isinstance(e, c_ast.Typename):
            t = scalar_type(e.type, self.env)
            if t is not None:
                return t.size
            if isinstance(e.type, c_ast.PtrDecl):
                return 8
            raise self.fail("sizeof of a type that is not arithmetic or a pointer")
        # sizeof *p, sizeof p[i]: the element size of a pointer variable
        base = e.expr if isinstance(e, c_ast.UnaryOp) and e.op == "*" else e.name if isinstance(e, c_ast.ArrayRef) else None
        if isinstance(base, c_ast.ID):
            sym = self.env.lookup(base.name)
            kind, elem = pointee_type(sym.type if sym else None, self.env)
            if kind == "pointer" and elem is not None:
                return elem.size
        if isinstance(e, c_ast.ID):
            sym = self.env.lookup(e.name)
            if sym is not None and pointee_type(sym.type, self.env)[0] == "pointer":
                return 8
        return self.visit(e).type.size


_INT_RE = re.compile(r"^(0[xX][0-9a-fA-F]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)([uUlL]*)$")


def parse_constant(kind: str, text: str, fail: Callable[[str], Exception]) -> Const:
    if kind == "char":
        body = text[1:-1]
        escapes = {"\\n": 10, "\\t": 9, "\\0": 0, "\\\\": 92, "\\'": 39, '\\"': 34, "\\r": 13}
        if len(body) == 1:
            return Const(ord(body), INT)
        if body in escapes:
            return Const(escapes[body], INT)
        raise fail(f"character constant {text} is not supported")
    if kind in ("float", "double"):
        t = FLOAT if text[-1] in "fF" else DOUBLE
        s = text.rstrip("fFlL")
        if text[-1] in "lL":
            raise fail("long double constants are not supported")
        value = float.fromhex(s) if s.lower().startswith("0x") else float(s)
        return Const(wrap(value, t), t)
    m = _INT_RE.match(text)
    if not m:
        raise fail(f"constant '{text}' is not supported")
    digits, suffix = m.group(1), m.group(2).lower()
    if digits.lower().startswith("0b"):
        value = int(digits[2:], 2)
    elif digits.lower().startswith("0x"):
        value = int(digits, 16)
    elif digits.startswith("0") and len(digits) > 1:
        value = int(digits, 8)
    else:
        value = int(digits)
    decimal = not digits.startswith("0") or digits == "0"
    unsigned = "u" in suffix
    longs = suffix.count("l")
    # The first type of C's list (C11 6.4.4.1) that can represent the value.
    if unsigned:
        candidates = [UINT, ULONG, ULLONG][min(longs, 2):]
    elif decimal:
        candidates = [INT, LONG, LLONG][min(longs, 2):]
    else:
        candidates = [INT, UINT, LONG, ULONG, LLONG, ULLONG][2 * min(longs, 2):]
    for t in candidates:
        lo, hi = (-(1 << (t.bits - 1)), (1 << (t.bits - 1)) - 1) if t.signed else (0, (1 << t.bits) - 1)
        if lo <= value <= hi:
            return Const(value, t)
    raise fail(f"integer constant '{text}' is too large")


# ---------------------------------------------------------------------------- evaluating

def evaluate(e: Expr, lookup: Callable[[str], int | float]) -> int | float:
    """The value of `e`; `lookup(name)` gives a variable's current value (already of its type)."""
    if isinstance(e, Const):
        return e.value
    if isinstance(e, Var):
        return wrap(lookup(e.name), e.type)
    if isinstance(e, Cast):
        return wrap(evaluate(e.operand, lookup), e.type)
    if isinstance(e, Unary):
        v = wrap(evaluate(e.operand, lookup), e.type) if e.op != "!" else evaluate(e.operand, lookup)
        if e.op == "-":
            return wrap(-v, e.type)
        if e.op == "+":
            return v
        if e.op == "~":
            return wrap(~v, e.type)
        return int(not v)
    if isinstance(e, Cond):
        pick = e.then if evaluate(e.test, lookup) else e.other
        return wrap(evaluate(pick, lookup), e.type)
    assert isinstance(e, Binary)
    op = e.op
    if op == "&&":
        return int(bool(evaluate(e.left, lookup)) and bool(evaluate(e.right, lookup)))
    if op == "||":
        return int(bool(evaluate(e.left, lookup)) or bool(evaluate(e.right, lookup)))
    ct = e.operand_type
    a = wrap(evaluate(e.left, lookup), ct)
    b = evaluate(e.right, lookup)
    if op in _SHIFT:
        b = int(b)
        if b < 0 or b >= ct.bits:
            raise EvalError(f"shift by {b} bits of a {ct.bits}-bit value is undefined in C")
        return wrap(a << b if op == "<<" else a >> b, ct)
    b = wrap(b, ct)
    if op in _COMPARE:
        return int({"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "==": a == b, "!=": a != b}[op])
    if op in ("/", "%"):
        if not ct.is_float and b == 0:
            raise EvalError("integer division by zero")
        if ct.is_float:
            if op == "/":
                return wrap(a / b if b != 0 else (float("nan") if a == 0 or a != a else float("inf") * (1 if a > 0 else -1)), ct)
        q = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)  # C truncates toward zero
        return wrap(q if op == "/" else a - q * b, ct)
    r = {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b,
         "&": lambda: a & b, "|": lambda: a | b, "^": lambda: a ^ b}[op]()
    return wrap(r, ct)


def variables(e: Expr) -> set[str]:
    """Names of the variables `e` reads."""
    if isinstance(e, Var):
        return {e.name}
    if isinstance(e, Const):
        return set()
    if isinstance(e, (Unary, Cast)):
        return variables(e.operand)
    if isinstance(e, Cond):
        return variables(e.test) | variables(e.then) | variables(e.other)
    return variables(e.left) | variables(e.right)


__all__ = ["Const", "Var", "Unary", "Binary", "Cond", "Cast", "Expr", "EvalError", "build", "evaluate", "variables",
           "parse_constant", "LLONG", "UINT"]
