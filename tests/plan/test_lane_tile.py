"""Tier 1: collapsed loops that transpose take their iterations as a tile per warp (issue 34;
analysis/footprint.py lane_tile, loop.j2). The store must run along the outer loop's variable and a
load along the inner one; the tile is a 32-byte sector of the store's elements by the rest of the
warp. Run-and-check program: tests/programs/lane_tiles.c."""
from pathlib import Path

import pytest

from ompgpu.driver import translate
from ompgpu.options import Options

PROGRAM = """
float fa[1 << 16], fb[1 << 16];
double da[1 << 16], db[1 << 16];
int main(void) {
  int n = 128;
#pragma omp target teams distribute thread_limit(256) map(tofrom: fa, fb, da, db)
  for (int j = 0; j < 2; j++) {
#pragma omp parallel for collapse(2)
    for (int i = 0; i < n; i++)
      for (int k = 0; k < n; k++) BODY;
  }
  return 0;
}
"""


def translated(tmp_path: Path, body: str):
    src = tmp_path / "p.c"
    src.write_text(PROGRAM.replace("BODY", body))
    return translate(str(src), Options())


@pytest.mark.parametrize("body, tile", [
    ("fb[k * n + i] = fa[i * n + k]", (8, 4)),
    ("db[k * n + i] = da[i * n + k]", (4, 8)),
    ("fb[(long)k * n * 2 + j * n + i] = fa[(long)i * n * 2 + j * n + k] * 2.0f", (8, 4)),
])
def test_a_transposing_body_gets_tiles(tmp_path, body, tile):
    t = translated(tmp_path, body)
    assert any(f"as a tile of {tile[0]} x {tile[1]} ('i' by 'k')" in r for r in t.remarks), t.remarks
    # the tiles are used only where they fit the nest: the same iterations, another order
    assert f"const bool __lane_tiled = __n0 % {tile[0]} == 0 && __n1 % {tile[1]} == 0;" in t.device_cu
    assert f"__idx0 = __q * {tile[0]} + __tile_lane / {tile[1]};" in t.device_cu


@pytest.mark.parametrize("body", [
    "fb[i * n + k] = fa[i * n + k]",          # a copy: both along k
    "fb[k * n + i] = fa[k * n + i]",          # both along i (the loop order's business, not a tile's)
    "fb[k * n + i] = fa[i * n + 2 * k]",      # the load strides
    "fb[k * n + i] = fa[i * n + k * k]",      # the load moves along k, not by one element
])
def test_other_bodies_keep_the_order(tmp_path, body):
    t = translated(tmp_path, body)
    assert not any("as a tile of" in r for r in t.remarks), t.remarks
    assert "__lane_tiled" not in t.device_cu


def test_a_schedule_clause_keeps_the_order(tmp_path):
    src = tmp_path / "p.c"
    src.write_text(PROGRAM.replace("collapse(2)", "collapse(2) schedule(static, 1)").replace("BODY", "fb[k * n + i] = fa[i * n + k]"))
    t = translate(str(src), Options())
    assert "__lane_tiled" not in t.device_cu
