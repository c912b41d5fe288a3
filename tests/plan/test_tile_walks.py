"""Tier 1: the tile walks that run as flat nests (analysis/tile_walks.py) and the ones left as
written, and the stencils whose teams take tiles of rows. tests/programs/tile_walks.c and
stencil_tiles.c check the answers."""
from pathlib import Path

import pytest

from ompgpu.driver import translate
from ompgpu.options import Options

FLAT = "runs as the flat nest over 'i' and 'j'"


def remarks(tmp_path: Path, nest: str, clauses: str = "") -> tuple[str, ...]:
    src = tmp_path / "w.c"
    src.write_text(f"""#define MIN(a, b) ((a) < (b) ? (a) : (b))
double a[64][64], b[64][64], *p, *q;
double f(double x) {{ return x; }}
#pragma omp declare target to(f)
int main(int argc, char **argv) {{
  int n = argc * 64, t = 16;
  double s = 0;
#pragma omp target teams distribute parallel for collapse(2) {clauses}
{nest}
  return (int)s;
}}
""")
    return translate(str(src), Options()).remarks


def walk(body: str, i_end: str = "MIN(n, it + t)", j_end: str = "MIN(n, jt + t)", step: str = "t") -> str:
    return (f"for (int it = 0; it < n; it += {step})\n for (int jt = 0; jt < n; jt += {step})\n"
            f"  for (int i = it; i < {i_end}; i++)\n   for (int j = jt; j < {j_end}; j++) {{ {body} }}")


@pytest.mark.parametrize("nest, condition", [
    (walk("b[j][i] += a[i][j];"), None),                                   # a dimension each: always
    (walk("b[j][i] = a[i][j]; a[i][j] += 1;", "it + t", "jt + t"), None),
    (walk("double x = a[i][j] * 2; b[i][j] = x;"), None),                  # a scalar of the iteration
    (walk("q[j * n + i] += p[i * n + j]; p[i * n + j] += 1.0;"), "(t) <= (n)"),   # PRK's transpose
    (walk("q[(long)j * n + i] += p[(long)i * n + j];", "it + t", "jt + t"), "(t) <= (n)"),
    (walk("q[i * 64 + j] = 1;", "it + 16", "jt + 16", "16"), None),        # a constant row longer than the tile
])
def test_tile_walks_run_flat(tmp_path, nest, condition):
    found = [r for r in remarks(tmp_path, nest) if FLAT in r]
    assert len(found) == 1, remarks(tmp_path, nest)
    assert (f"where {condition}" in found[0]) if condition else "where" not in found[0]


@pytest.mark.parametrize("nest, clauses", [
    (walk("s += a[i][j];"), ""),                                   # a shared scalar
    (walk("s += a[i][j];"), "reduction(+: s)"),                    # (a reduction: left as written)
    (walk("b[i][0] += a[i][j];"), ""),                             # j's elements meet in one element
    (walk("b[i][j] = b[i][j - 1] + a[i][j];"), ""),                # b reached through two subscripts
    (walk("b[i][j] = (j > jt ? b[i][j] : 0) + a[i][j];"), ""),     # the body names a tile variable
    (walk("b[i][j] = f(a[i][j]);"), ""),                           # a call
    (walk("if (a[i][j] > 0) b[i][j] = 1;"), ""),                   # control flow
    (walk("q[j * n + i] = 1;", "MIN(n, it + t)", "MIN(n, jt + 8)"), ""),   # j's tile is not jt's step
    (walk("q[j * i] = 1;"), ""),                                   # no unit term
    (walk("b[i][j] = 1;", "it + t + 1"), ""),                      # an element loop past its tile
    (walk("b[i][j] = 1;", "MIN(n - 1, it + t)"), ""),              # ... or short of the walk's end
])
def test_other_nests_stay_as_written(tmp_path, nest, clauses):
    assert not [r for r in remarks(tmp_path, nest, clauses) if FLAT in r]


def test_two_tile_loops_only(tmp_path):
    nest = "for (int it = 0; it < n; it += t)\n for (int j = 0; j < n; j++)\n  for (int i = it; i < MIN(n, it + t); i++) b[i][j] = 1;"
    assert not [r for r in remarks(tmp_path, nest) if FLAT in r]


# -- stencils: teams of 8 x 32 iterations (footprint.TEAM_TILE and reads_neighbouring_rows)

ROWS = "reads neighbouring rows"


@pytest.mark.parametrize("body, tiled", [
    ("b[i][j] = a[i - 1][j] + a[i + 1][j];", True),                        # rows of a 2-D array
    ("q[i * n + j] = p[(i - 1) * n + j] + p[(i + 1) * n + j];", True),     # of a linearised one
    ("q[i * n + j] = p[i * n + j - 1] + p[i * n + j + 1];", False),        # one row only
    ("b[i][j] = a[i][j] + a[j][i];", False),                              # a transpose, not a stencil
    ("b[i][j] = a[i - 1][j] + p[(i + 1) * n + j];", False),               # two arrays, a row each
    # the tiles emit the body once a path: not a body with a label or a static local
    ("double s = a[i - 1][j]; if (s > 0) goto out; s += a[i + 1][j]; out: b[i][j] = s;", False),
    ("static const int w = 2; b[i][j] = a[i - 1][j] + w * a[i + 1][j];", False),
    ("const int w = 2; b[i][j] = a[i - 1][j] + w * a[i + 1][j];", True),
])
def test_stencils_take_team_tiles(tmp_path, body, tiled):
    nest = f"for (int i = 1; i < n - 1; i++)\n for (int j = 1; j < n - 1; j++) {{ {body} }}"
    found = [r for r in remarks(tmp_path, nest) if ROWS in r]
    assert bool(found) == tiled, remarks(tmp_path, nest)
