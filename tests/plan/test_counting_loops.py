"""Tier 1: team-level `parallel for` loops that count into a serial local every thread holds
(analysis/counting.py), counted by one barrier (templates/count_barrier.j2), and the loops left as
written. tests/programs/counting_loops.c checks the answers."""
from pathlib import Path

import pytest
from pycparser import c_ast, c_parser

from ompgpu.analysis.counting import counted_test
from ompgpu.codegen.cprint import CPrinter
from ompgpu.driver import translate
from ompgpu.options import Options

COUNTS = "one barrier counts the threads whose test held"


def body(statement: str) -> c_ast.Node:
    unit = c_parser.CParser().parse(f"void f(int *a, int x, int c, int i, int y) {{ {statement} }}")
    return unit.ext[0].body.block_items[0]


@pytest.mark.parametrize("statement, test", [
    ("c += a[i] < x;", "a[i] < x"),
    ("c = c + (a[i] == x && y);", "(a[i] == x) && y"),
    ("c = (a[i] != 0) + c;", "a[i] != 0"),
    ("c += !a[i];", "!a[i]"),
    ("c += a[i] > x ? 1 : 0;", "a[i] > x"),
    ("if (a[i] % 3) c++;", "a[i] % 3"),
    ("if (a[i]) { ++c; }", "a[i]"),
    ("if (a[i] > y) c += 1;", "a[i] > y"),
    ("if (a[i] > y) c = c + 1;", "a[i] > y"),
])
def test_counts(statement, test):
    found = counted_test(body(statement), "c")
    assert found is not None and CPrinter().visit(found) == test


@pytest.mark.parametrize("statement", [
    "c += a[i];",                      # adds the value, not its truth
    "c += 2 * (a[i] < x);",            # adds two
    "c -= a[i] < x;",
    "c += a[i] > x ? 2 : 0;",
    "if (a[i]) c += 2;",
    "if (a[i]) c++; else c--;",
    "if (c > 3) c++;",                 # the test reads the counter
    "c += c < x;",
    "y += a[i] < x;",                  # another variable
    "if (a[i]) { c++; y++; }",         # does more than count
    "c++;",                            # no test: every iteration counts (an ordinary sum)
])
def test_not_counts(statement):
    assert counted_test(body(statement), "c") is None


def remarks(tmp_path: Path, region: str, mode: str = "auto") -> tuple[str, ...]:
    src = tmp_path / "c.c"
    src.write_text(f"""int key[64 * 256], out[64];
int main(int argc, char **argv) {{
  const int n = argc * 200;
#pragma omp target teams distribute thread_limit(256) map(to: key) map(from: out)
  for (int q = 0; q < 64; q++) {{
    int c = 0;
    for (int pass = 0; pass < 2; pass++) {{   /* (a kernel of one region would spread it over blocks) */
{region}
    }}
    out[q] = c;
  }}
  return 0;
}}
""")
    return tuple(r for r in translate(str(src), Options(mode=mode)).remarks if COUNTS in r)


def test_a_counting_region_is_counted_by_one_barrier(tmp_path):
    region = "#pragma omp parallel for reduction(+: c)\n    for (int s = 0; s < n; s++) c += key[q * 256 + s] < 40;"
    (remark,) = remarks(tmp_path, region)
    assert "counts into 'c' where 'key[(q * 256) + s] < 40' holds" in remark
    assert remarks(tmp_path, region, mode="generic") == ()   # a generic team's master holds c alone


@pytest.mark.parametrize("region", [
    # a schedule that says which thread runs which iteration
    "#pragma omp parallel for reduction(+: c) schedule(static, 4)\n    for (int s = 0; s < n; s++) c += key[s] < 40;",
    # a region of a team's part (num_threads): not the whole block
    "#pragma omp parallel for reduction(+: c) num_threads(100)\n    for (int s = 0; s < n; s++) c += key[s] < 40;",
    # a floating-point counter
    "float f = 0;\n#pragma omp parallel for reduction(+: f)\n    for (int s = 0; s < n; s++) f += key[s] < 40;\n    c = (int)f;",
    # two reductions in one region
    "int d = 0;\n#pragma omp parallel for reduction(+: c, d)\n    for (int s = 0; s < n; s++) { c += key[s] < 40; }\n    c += d;",
    # a `for` inside a `parallel`: each thread's loop variable and locals are its own
    "#pragma omp parallel reduction(+: c)\n    {\n#pragma omp for\n    for (int s = 0; s < n; s++) c += key[s] < 40;\n    }",
])
def test_other_regions_are_left_as_written(tmp_path, region):
    assert remarks(tmp_path, region) == ()
