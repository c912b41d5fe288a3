"""C semantics of the expressions the Python side evaluates (clause arguments, initialisers)."""
import pytest
from pycparser.c_parser import CParser

from ompgpu.analysis.symbols import Env, declare
from ompgpu.errors import SourceCoord, UnsupportedError
from ompgpu.python_api import cexpr
from ompgpu.python_api.ctypes_model import INT, LONG, UINT, ULONG, common_type

DECLS = "int i; unsigned u; long l; unsigned long ul; double d; float f; char c; short s; double *p;"


def value(text: str, **vars):
    ast = CParser().parse(f"{DECLS} void g(void) {{ ({text}); }}")
    env = Env()
    for node in ast.ext[:-1]:
        declare(env, node)
    env = env.child()  # the variables above act as locals (globals are rejected)
    for node in ast.ext[:-1]:
        declare(env, node)
    e = cexpr.build(ast.ext[-1].body.block_items[0], env, SourceCoord("<t>", 1, 1), "test")
    return cexpr.evaluate(e, lambda n: vars[n]), e


@pytest.mark.parametrize("text,want", [
    ("7 / 2", 3), ("-7 / 2", -3), ("7 / -2", -3), ("-7 % 3", -1), ("7 % -3", 1),  # truncation toward zero
    ("1 << 4", 16), ("-1 >> 1", -1), ("0x10 + 010", 24), ("'a'", 97), ("3 > 2 && 2 > 1", 1), ("!5", 0),
    ("2147483647 + 1", -2147483648),  # int wraps (what the device computes)
    ("4294967295u + 1", 0), ("-1 < 0u", 0),  # -1 converts to unsigned
    ("-1 < 0ul", 0), ("-1L < 0u", 1),  # long can hold every unsigned int
    ("(char)300", 44), ("(unsigned char)-1", 255), ("(int)3.9", 3), ("(int)-3.9", -3),
    ("sizeof(double)", 8), ("sizeof(int) * 3", 12), ("sizeof *p", 8), ("sizeof p[0]", 8), ("sizeof(p)", 8),
    ("1 ? 2 : 3.0", 2.0), ("10 / 4.0", 2.5), ("1.5f * 2", 3.0),
])
def test_constant_expressions(text, want):
    v, _ = value(text)
    assert v == want and type(v) is type(want)


def test_variables_and_conversions():
    assert value("i * 2 + 1", i=20)[0] == 41
    assert value("u - 1", u=0)[0] == 4294967295
    assert value("l / i", l=-9, i=2)[0] == -4
    assert value("d / i", d=1.0, i=4)[0] == 0.25
    assert value("f + 0.1f", f=0.2)[0] == pytest.approx(0.3, rel=1e-6)
    assert value("c + s", c=100, s=1000)[1].type == INT  # promotion


def test_usual_arithmetic_conversions():
    assert common_type(INT, UINT) == UINT
    assert common_type(LONG, UINT) == LONG
    assert common_type(LONG, ULONG) == ULONG


@pytest.mark.parametrize("text", ["g()", "p", "i = 3", "p + 1", "*p", "i++", "d % 2"])
def test_rejected(text):
    with pytest.raises(UnsupportedError):
        value(text)


def test_division_by_zero_is_an_error():
    with pytest.raises(cexpr.EvalError):
        value("i / 0", i=1)
