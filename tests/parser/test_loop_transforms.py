"""The tile and unroll constructs (OpenMP 5.1): their pragmas, and the loops that
parser/loop_transforms.py writes in their place (run-and-check: tests/programs/loop_transforms.c)."""
from __future__ import annotations

import re

import pytest

from ompgpu.errors import OmpgpuError, OmpSemanticError, OmpSyntaxError, SourceCoord, UnsupportedError
from ompgpu.parser import parse_pragma
from ompgpu.parser.cfront import preprocess
from ompgpu.parser.directives import ExprClause, ExprListClause, FlagClause
from ompgpu.parser.loop_transforms import apply_loop_transforms

BASE = SourceCoord("t.c", 3, 9)


def test_tile_and_unroll_pragmas():
    d = parse_pragma("omp tile sizes(4, n * 2)", BASE)
    (sizes,) = d.clauses
    assert d.name == "tile" and isinstance(sizes, ExprListClause) and [e.text for e in sizes.exprs] == ["4", "n * 2"]
    assert parse_pragma("omp unroll", BASE).clauses == ()
    (full,) = parse_pragma("omp unroll full", BASE).clauses
    assert isinstance(full, FlagClause) and full.kind == "full"
    (partial,) = parse_pragma("omp unroll partial(8)", BASE).clauses
    assert isinstance(partial, ExprClause) and partial.expr.text == "8"
    assert parse_pragma("omp unroll partial", BASE).clauses[0].expr is None


@pytest.mark.parametrize("text,message", [
    ("omp tile", "expected 'sizes' after 'tile'"),
    ("omp tile sizes()", "expected expression"),
    ("omp tile sizes(4) collapse(2)", "clause 'collapse' is not allowed on 'tile'"),
    ("omp unroll partial(2) full", "'full' and 'partial' cannot both be on 'unroll'"),
    ("omp unroll full full", "cannot contain more than one 'full' clause"),
    ("omp unroll foo", "unknown clause 'foo' on directive 'unroll'"),
])
def test_bad_tile_and_unroll_pragmas(text, message):
    with pytest.raises(OmpgpuError) as e:
        parse_pragma(text, BASE)
    assert message in e.value.message


def transformed(tmp_path, body: str) -> str:
    src = tmp_path / "t.c"
    src.write_text("void f(int *a, int n) {\n" + body + "\n}\n")
    pre = preprocess(str(src))
    out = apply_loop_transforms(pre)
    assert out.text.count("\n") == pre.text.count("\n") and out.origins == pre.origins   # lines keep their place
    return out.text


def test_unroll_partial_becomes_blocks_of_iterations(tmp_path):
    text = transformed(tmp_path, "#pragma omp parallel for\n#pragma omp unroll partial(4)\n"
                                 "for (int i = n; i > 0; i -= 2)\n  a[i] = i;")
    assert "#pragma omp unroll" not in text
    assert re.search(r"#pragma omp parallel for\nfor \(long long (__omp_unroll\d+_floor0) = 0; \1 < .*; \1 \+= \(4\)\) "
                     r"for \(long long (__omp_unroll\d+_iv0) = \1; \2 < \1 \+ \(4\) && \2 < ", text), text
    assert re.search(r"\{ int i = \(n\) - __omp_unroll\d+_iv0 \* \(2\); \n\s*a\[i\] = i; \}", text), text


def test_tile_makes_floor_then_tile_loops(tmp_path):
    text = transformed(tmp_path, "#pragma omp tile sizes(8, 16)\nfor (int i = 0; i < n; i++) {\n"
                                 "  for (int j = 0; j <= 99; j++) {\n    a[i] += j;\n  }\n}")
    headers = re.findall(r"for \(long long (\w+) = (\w+);", text)
    assert [name.rsplit("_", 1)[1] for name, _ in headers] == ["floor0", "floor1", "iv0", "iv1"], headers
    assert headers[2][1] == headers[0][0] and headers[3][1] == headers[1][0]
    assert "int i = (0) + " in text and "int j = (0) + " in text
    assert "(long long)((99) - (0)) / (1) + 1" in text   # <=: one more iteration


def test_unroll_full_and_alone_leave_the_loop(tmp_path):
    for pragma in ("#pragma omp unroll full", "#pragma omp unroll"):
        text = transformed(tmp_path, pragma + "\nfor (int i = 0; i < 8; i++) a[i] = 0;")
        assert "#pragma omp unroll" not in text and "for (int i = 0; i < 8; i++) a[i] = 0;" in text


def test_iteration_variable_declared_outside_becomes_private(tmp_path):
    text = transformed(tmp_path, "int k;\n#pragma omp parallel for firstprivate(n)\n#pragma omp tile sizes(4)\n"
                                 "#pragma omp unroll partial(2)\nfor (k = 0; k != n; k++) a[k] = k;")
    assert "#pragma omp parallel for firstprivate(n) private(k)" in text
    assert re.search(r"\{ k = \(0\) \+ __omp_unroll\d+_iv0 \* \(1\);", text), text


@pytest.mark.parametrize("body,cls,message,line", [
    ("#pragma omp tile sizes(4, 4)\nfor (int i = 0; i < n; i++) a[i] = 0;", OmpSemanticError,
     "'#pragma omp tile' with 2 sizes needs 2 perfectly nested loops, but the loop nest has only 1", 2),
    ("#pragma omp tile sizes(4, 4)\nfor (int i = 0; i < n; i++)\n  for (int j = 0; j < i; j++) a[i] = j;",
     UnsupportedError, "'tile' of a loop nest that is not rectangular (this loop's bounds use 'i')", 4),
    ("#pragma omp tile sizes(2, 2)\nfor (int i = 0; i < n; i++) {\n  for (int j = 0; j < n; j++) a[j] = i;\n  a[i] = 0;\n}",
     OmpSemanticError, "needs 2 perfectly nested loops: nothing may stand between them", 3),
    ("#pragma omp unroll partial(0)\nfor (int i = 0; i < n; i++) a[i] = 0;", OmpSemanticError,
     "the unroll factor must be a positive integer, not '0'", 2),
    ("#pragma omp tile sizes(4, -1)\nfor (int i = 0; i < n; i++) for (int j = 0; j < n; j++) a[i] = 0;",
     OmpSemanticError, "a tile size must be a positive integer, not '-1'", 2),
    ("#pragma omp parallel for\n#pragma omp unroll full\nfor (int i = 0; i < 8; i++) a[i] = 0;", OmpSemanticError,
     "'#pragma omp parallel for' cannot apply to a loop that 'unroll full' replaces", 2),
    ("#pragma omp unroll full\nfor (int i = 0; i < n; i++) a[i] = 0;", OmpSemanticError,
     "'unroll full' needs a loop whose trip count is a compile-time constant", 3),
    ("#pragma omp unroll partial(2)\nwhile (n) n--;", OmpSyntaxError, "'#pragma omp unroll' must be followed by a for loop", 2),
    ("#pragma omp unroll partial(2)\nfor (int i = 0; i * i < n; i++) a[i] = 0;", UnsupportedError,
     "a loop transformation needs a canonical loop: 'i * i < n' does not compare 'i' with a bound", 3),
    ("#pragma omp unroll partial(2)\nfor (int i = 0; i < n; i *= 2) a[i] = 0;", UnsupportedError,
     "'i *= 2' is not an increment of 'i' by a loop-invariant step", 3),
    ("#pragma omp unroll partial(2)\nfor (int i = 0; i < n; i--) a[i] = 0;", UnsupportedError,
     "'i < n' with 'i--' does not run towards its bound", 3),
    ("#pragma omp parallel for collapse(2)\n#pragma omp unroll partial(2)\n"
     "for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) a[i] = 0;", UnsupportedError,
     "'collapse(2)' of '#pragma omp parallel for' reaches into the loops inside the ones that 'unroll' generates", 2),
    ("int i;\n#pragma omp parallel for lastprivate(i)\n#pragma omp unroll partial(2)\nfor (i = 0; i < n; i++) a[i] = 0;",
     UnsupportedError, "'i' in the lastprivate clause of '#pragma omp parallel for' is the iteration variable", 3),
])
def test_errors_name_the_construct_and_place(tmp_path, body, cls, message, line):
    with pytest.raises(cls) as e:
        transformed(tmp_path, body)
    assert message in e.value.message
    assert e.value.coord.file.endswith("t.c") and e.value.coord.line == line, e.value.coord


def test_file_without_transformations_is_left_alone(tmp_path):
    src = tmp_path / "t.c"
    src.write_text("int main(void) {\n#pragma omp parallel for\nfor (int i = 0; i < 4; i++) ;\n}\n")
    pre = preprocess(str(src))
    assert apply_loop_transforms(pre) is pre
