"""Tier 1: operands that every iteration of a team's worksharing loop reads whole, staged once in
shared memory (analysis/team_staging.py broadcast_operands, templates/broadcast_operands.j2), and
the loops left as written. tests/programs/broadcast_operands.c checks the answers."""
from pathlib import Path

import pytest

from ompgpu.driver import translate
from ompgpu.options import Options

STAGED = "loaded once into shared memory for the team"


def remarks(tmp_path: Path, iteration: str, mode: str = "auto", bound: str = "100") -> tuple[str, ...]:
    src = tmp_path / "b.c"
    src.write_text(f"""#include <math.h>
typedef struct {{ float x, q; }} particle;
particle p[64 * 100];
float grid[64][100], out[64 * 100], w[100];
int idx[64];
int main(int argc, char **argv) {{
  int n = argc * 100;
#pragma omp target teams distribute thread_limit(128) map(tofrom: p, grid, out, w, idx)
  for (int box = 0; box < 64; box++) {{
    for (int k = 0; k < 3; k++) {{
      const int nb = (box + k) % 64;
#pragma omp parallel for
      for (int i = 0; i < {bound}; i++) {{
{iteration}
      }}
    }}
  }}
  return 0;
}}
""")
    return tuple(r for r in translate(str(src), Options(mode=mode)).remarks if STAGED in r)


@pytest.mark.parametrize("iteration", [
    "float f = 0; for (int j = 0; j < 100; j++) { const particle pj = p[nb * 100 + j]; f += pj.q * expf(pj.x); } out[box * 100 + i] += f;",
    "float f = 0; for (int j = 0; j < 100; j++) f += p[j + nb * 100].q * p[j + nb * 100].x; out[box * 100 + i] = f;",
    "float f = 0; for (int j = 99; j >= 0; j--) f += grid[nb][j] * i; out[box * 100 + i] = f;",
    "float f = 0; for (int j = 0; j < 100; j++) f += w[j] * i; out[box * 100 + i] = f;",
    "float f = 0; for (int j = 0; j < 100; j++) { if (f > 3) f = 0; f += w[j]; } out[box * 100 + i] = f;",
    # a nest of inner loops: a 2-D window of a flat array, with rows apart (its copy holds the gaps)
    "float f = 0; for (int a = 0; a < 8; a++) for (int c = 0; c < 8; c++) f += w[a * 8 + c] * i; out[i] = f;",
    "float f = 0; for (int a = 0; a < 4; a++) { f *= 0.5f; for (int c = 0; c < 9; c++) f += p[nb + a * 20 + c].q; } out[i] = f;",
])
def test_operands_that_every_iteration_reads_whole_are_staged(tmp_path, iteration):
    found = remarks(tmp_path, iteration)
    assert len(found) == 1 and "two iterations or more" not in found[0]


def test_a_loop_whose_trip_count_is_not_a_constant_stages_where_it_has_two_iterations(tmp_path):
    found = remarks(tmp_path, "float f = 0; for (int j = 0; j < 100; j++) f += w[j] * i; out[i] = f;", bound="n")
    assert len(found) == 1 and "two iterations or more" in found[0]


@pytest.mark.parametrize("iteration", [
    # an operand the loop stores into, or whose address it passes on
    "float f = 0; for (int j = 0; j < 100; j++) f += w[j] * i; w[i] = f;",
    "float f = 0; for (int j = 0; j < 100; j++) f += w[j] * i; out[i] = f + sinf(f) + (float)(long)&w[0];",
    # a read under a condition, a `?:`, an inner loop that may stop early or is under an if
    "float f = 0; for (int j = 0; j < 100; j++) if (i > j) f += w[j]; out[i] = f;",
    "float f = 0; for (int j = 0; j < 100; j++) f += i > j ? w[j] : 0; out[i] = f;",
    "float f = 0; for (int j = 0; j < 100; j++) { f += w[j]; if (f > 9) break; } out[i] = f;",
    "float f = 0; if (i > 3) for (int j = 0; j < 100; j++) f += w[j]; out[i] = f;",
    # an iteration that may end before the loop
    "if (i == 5) continue; float f = 0; for (int j = 0; j < 100; j++) f += w[j]; out[i] = f;",
    # an offset that differs between iterations, or reads memory
    "float f = 0; for (int j = 0; j < 100; j++) f += p[i + j].q; out[i] = f;",
    "float f = 0; for (int j = 0; j < 100; j++) f += p[idx[box] + j].q; out[i] = f;",
    "float f = 0; int o = i; for (int j = 0; j < 100; j++) f += p[o + j].q; out[i] = f;",
    # a window that moves with the iteration
    "float f = 0; for (int a = 0; a < 8; a++) for (int c = 0; c < 8; c++) f += w[a * 8 + c + i % 4]; out[i] = f;",
    # an inner loop without constant bounds, or longer than the copies take
    "float f = 0; for (int j = 0; j < n; j++) f += w[j % 100]; out[i] = f;",
    "float f = 0; for (int j = 0; j < 6400; j++) f += p[j].q; out[i] = f;",
    "float f = 0; for (int a = 0; a < 40; a++) for (int c = 0; c < 40; c++) f += w[a * 40 + c]; out[i] = f;",
])
def test_loops_that_may_not_stage_are_left_as_written(tmp_path, iteration):
    assert remarks(tmp_path, iteration) == ()


def test_generic_mode_reads_global_memory(tmp_path):
    assert remarks(tmp_path, "float f = 0; for (int j = 0; j < 100; j++) f += w[j] * i; out[i] = f;", mode="generic") == ()


def test_a_for_inside_a_parallel_region_is_left_as_written(tmp_path):
    """The region's locals are each thread's own: `mine` is a different row in every thread."""
    src = tmp_path / "r.c"
    src.write_text("""#include <omp.h>
float grid[16][48], out[64];
int main(void) {
#pragma omp target teams distribute map(to: grid) map(from: out)
  for (int t = 0; t < 1; t++) {
#pragma omp parallel num_threads(8)
    {
      const float *mine = grid[omp_get_thread_num()];
#pragma omp for schedule(static, 1)
      for (int i = 0; i < 64; i++) {
        float s = 0;
        for (int j = 0; j < 48; j++) s += mine[j];
        out[i] = s;
      }
    }
  }
  return 0;
}
""")
    assert not [r for r in translate(str(src), Options()).remarks if STAGED in r]
