"""Tier 1: the dot-product nests that are staged through shared memory (analysis/operand_tiles.py,
templates/dot_tile.j2) and the ones left as written. tests/programs/dot_product_tiles.c checks
the answers."""
from pathlib import Path

import pytest

from ompgpu.driver import translate
from ompgpu.options import Options

STAGED = "is staged through shared memory"


def remarks(tmp_path: Path, iteration: str, clauses: str = "") -> tuple[str, ...]:
    src = tmp_path / "d.c"
    src.write_text(f"""#include <omp.h>
double a[64][64], b[64][64], c[64][64];
int idx[64];
double f(double x) {{ return x; }}
#pragma omp declare target to(f)
int main(int argc, char **argv) {{
  int n = argc * 64;
#pragma omp target teams distribute parallel for collapse(2) {clauses}
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {{
{iteration}
    }}
  return 0;
}}
""")
    return translate(str(src), Options()).remarks


@pytest.mark.parametrize("iteration", [
    "double s = 0; for (int k = 0; k < n; k++) s += a[i][k] * b[k][j]; c[i][j] = s;",
    "double s = c[i][j]; for (int k = 0; k < n; k++) s = s + b[k][j] * a[i][k]; c[i][j] = s;",   # Y * X, acc = acc + ...
    "float s = 1; for (long k = 2; k < n - 1; k++) s += a[i][k] * b[k][j]; c[i][j] = s * 2; c[j][i] = s;",
    "double s = 0; for (int k = 0; k < n; k++) s += a[i][idx[k]] * b[k][j]; c[i][j] = s;",       # an invariant index array
])
def test_dot_products_are_staged(tmp_path, iteration):
    found = [r for r in remarks(tmp_path, iteration) if STAGED in r]
    assert len(found) == 1 and "4 outputs per thread" in found[0]


@pytest.mark.parametrize("iteration", [
    # an operand the nest writes
    "double s = 0; for (int k = 0; k < n; k++) s += a[i][k] * b[k][j]; a[i][j] = s;",
    # k's bounds depend on i (triangular)
    "double s = 0; for (int k = 0; k < i; k++) s += a[i][k] * b[k][j]; c[i][j] = s;",
    # an operand that reads (i, j, k) together, or neither row nor column
    "double s = 0; for (int k = 0; k < n; k++) s += a[i][k + j] * b[k][j]; c[i][j] = s;",
    "double s = 0; for (int k = 0; k < n; k++) s += a[i][k] * b[i][j]; c[i][j] = s;",
    # an operand that is not an array's element, something else in the loop, a step of 2, another operator
    "double s = 0; for (int k = 0; k < n; k++) s += a[i][k] * (b[k][j] + 1); c[i][j] = s;",
    "double s = 0; for (int k = 0; k < n; k++) { s += a[i][k] * b[k][j]; c[i][j] = s; }",
    "double s = 0; for (int k = 0; k < n; k += 2) s += a[i][k] * b[k][j]; c[i][j] = s;",
    "double s = 0; for (int k = 0; k < n; k++) s -= a[i][k] * b[k][j]; c[i][j] = s;",
    # the accumulator through a pointer, a loop variable declared outside the loop
    "double s = 0, *p = &s; for (int k = 0; k < n; k++) s += a[i][k] * b[k][j]; c[i][j] = *p;",
    "int k; double s = 0; for (k = 0; k < n; k++) s += a[i][k] * b[k][j]; c[i][j] = s;",
])
def test_other_nests_are_left_as_written(tmp_path, iteration):
    assert not any(STAGED in r for r in remarks(tmp_path, iteration))


def test_an_explicit_schedule_keeps_the_loop_as_written(tmp_path):
    iteration = "double s = 0; for (int k = 0; k < n; k++) s += a[i][k] * b[k][j]; c[i][j] = s;"
    assert not any(STAGED in r for r in remarks(tmp_path, iteration, "schedule(static, 4)"))


TRANSPOSED = "staged through shared memory in tiles"


@pytest.mark.parametrize("iteration, staged", [
    ("c[j][i] = a[i][j];", "'c[j][i]' runs along 'i'"),
    ("c[j][i] += 2 * a[i][j] + b[i][j];", "'c[j][i]' runs along 'i'"),
    ("b[i][j] += a[j][i]; a[j][i] += 1.0;", "'a[j][i]' runs along 'i'"),          # the PRK transpose
    ("c[j][i] = a[j][i] * 2; b[j][i] = 1;", "the accesses 'a[j][i]', 'c[j][i]', 'b[j][i]' run along 'i'"),
])
def test_transposing_nests_are_staged(tmp_path, iteration, staged):
    found = [r for r in remarks(tmp_path, iteration) if TRANSPOSED in r]
    assert len(found) == 1 and staged in found[0], found


@pytest.mark.parametrize("iteration", [
    "c[i][j] = a[i][j];",                              # nothing runs along i
    "c[j][i] = a[i][j]; a[j][i] = 0;",                 # 'a' reached through two subscripts
    "c[j][i] = f(a[i][j]);",                           # a call
    "if (i < j) c[j][i] = a[i][j];",                   # control flow
    "n = 1; c[j][i] = a[i][j];",                       # a scalar stored to
    "c[j][i] = a[i][j]; c[j][i] = idx[i] ? 1 : 2;",    # a conditional expression
])
def test_other_bodies_keep_their_mapping(tmp_path, iteration):
    assert not any(TRANSPOSED in r for r in remarks(tmp_path, iteration))


@pytest.mark.parametrize("clauses, staged", [("schedule(static, 1)", True), ("schedule(static)", True),
                                             ("schedule(dynamic)", False), ("schedule(static, 2)", False)])
def test_schedules_whose_order_a_tile_keeps_are_staged(tmp_path, clauses, staged):
    # static, 1: a team's threads take its iterations round-robin in their order, a tile's too
    for iteration in ("c[j][i] = a[i][j];", "double s = 0; for (int k = 0; k < n; k++) s += a[i][k] * b[k][j]; c[i][j] = s;"):
        found = any(TRANSPOSED in r or STAGED in r for r in remarks(tmp_path, iteration, clauses))
        assert found == staged, (clauses, iteration)
