"""Tier 1: team size from the parallel loops' trip counts (issue 34 item 1, plan/team_size.py).
A lean SPMD kernel whose parallel loops all run a constant number of short iterations, at most
ITERATIONS_PER_THREAD per lane of a warp, gets one-warp teams (loops of at most 16 or 8
iterations: teams of 16 or 8 lanes, several to a warp), packed several to a block, with their
team-shared locals one per team (or the serial code's reduction results handed to every lane),
shuffle reductions and the warp's (or lanes') barrier.
Run-and-check program: tests/programs/warp_teams.c."""
from pathlib import Path

import pytest

from ompgpu.driver import translate
from ompgpu.options import Options
from ompgpu.plan.mode import PACKED_TEAMS
from ompgpu.plan.team_size import ITERATIONS_PER_THREAD

PRELUDE = """#include <omp.h>
float p[4096 * 256], w[4096], gain[1];
int main(void) {
  const int n = 4096;
"""

STREAMCLUSTER_LIKE = """
#pragma omp target teams distribute thread_limit(128) map(to: p, w) map(tofrom: gain)
  for (int i = 0; i < n; i++) {
    float d = 0;
#pragma omp parallel for reduction(+: d)
    for (int k = 0; k < TRIP; k++) d += p[i * 256 + k] * p[k];
    d *= w[i];
    if (d > 1.0f) {
#pragma omp atomic
      gain[0] += d;
    }
  }"""


def translated(tmp_path: Path, kernel: str, mode: str = "auto"):
    src = tmp_path / "p.c"
    src.write_text(PRELUDE + kernel + "\n  return 0;\n}\n")
    return translate(str(src), Options(mode=mode))


@pytest.mark.parametrize("trip, lanes", [(5, 8), (8, 8), (16, 16), (17, 32), (40, 32), (32 * ITERATIONS_PER_THREAD, 32)])
def test_short_constant_loops_get_small_teams_packed(tmp_path, trip, lanes):
    t = translated(tmp_path, STREAMCLUSTER_LIKE.replace("TRIP", str(trip)))
    cu = t.device_cu
    teams = PACKED_TEAMS * 32 // lanes   # four warps a block
    assert f"OMPGPU_LAUNCH_BOUNDS({32 * PACKED_TEAMS}) __omp_offloading_main_l" in cu
    assert f"if (cfg->threads_per_team != {lanes}u) return (int)cudaErrorInvalidConfiguration;" in cu
    kernel = cu.split("OMPGPU_GLOBAL")[1].split("__ompgpu_launch_")[0]
    assert "block_barrier" not in kernel and "threadIdx" not in kernel
    comma_lanes = "" if lanes == 32 else f", {lanes}u"
    if lanes == 32:
        assert f"const unsigned __omp_team = ompgpu::packed_team_num({teams}u);" in cu
        assert "if (ompgpu::lane_id() == 0) {" in cu and "ompgpu::packed_team_barrier();" in cu
    else:
        assert f"const unsigned __omp_team = ompgpu::packed_team_num({teams}u, {lanes}u);" in cu
        assert f"if (ompgpu::packed_thread({lanes}u) == 0) {{" in cu and f"ompgpu::packed_team_barrier({lanes}u);" in cu
    # the serial code's d is each thread's own, the reduction hands every lane the total (a
    # team-shared local's copy per team of the block: tests/programs/warp_teams.c's `part`)
    assert "d__team" not in cu and "float d = 0;" in cu
    assert f"ompgpu_allreduce_packed(ompgpu::RED_ADD, &d__target, d{comma_lanes});" in cu
    assert any(f"its parallel loops run at most {trip} iterations: a team of {lanes} threads" in r for r in t.remarks)
    assert any(f"packed teams, {teams} teams of {lanes} threads per block" in r for r in t.remarks)


def test_a_team_already_as_small_is_kept(tmp_path):
    t = translated(tmp_path, STREAMCLUSTER_LIKE.replace("TRIP", "30").replace("thread_limit(128)", "thread_limit(32)"))
    assert not any("a team of" in r for r in t.remarks)
    assert any(f"packed teams, {PACKED_TEAMS} teams of 32 threads per block" in r for r in t.remarks)


@pytest.mark.parametrize("kernel", [
    STREAMCLUSTER_LIKE.replace("TRIP", str(32 * ITERATIONS_PER_THREAD + 1)),            # too long
    STREAMCLUSTER_LIKE.replace("TRIP", "n"),                                            # not a constant
    STREAMCLUSTER_LIKE.replace("TRIP", "64").replace("reduction(+: d)", "reduction(+: d) num_threads(64)"),
    STREAMCLUSTER_LIKE.replace("TRIP", "64").replace("d *= w[i];", "d *= w[i] + omp_get_team_num();"),
    STREAMCLUSTER_LIKE.replace("TRIP", "64").replace("thread_limit(128)", ""),          # no constant thread_limit
    # long iterations: a loop in the body
    STREAMCLUSTER_LIKE.replace("TRIP", "64").replace("d += p[i * 256 + k] * p[k];",
                                                     "for (int q = 0; q < 9; q++) d += p[i * 256 + k] * p[q];"),
])
def test_other_kernels_keep_thread_limits_team(tmp_path, kernel):
    t = translated(tmp_path, kernel)
    assert "packed_team" not in t.device_cu and not any("a team of" in r for r in t.remarks)


def test_generic_mode_keeps_thread_limits_team(tmp_path):
    t = translated(tmp_path, STREAMCLUSTER_LIKE.replace("TRIP", "64"), mode="generic")
    assert "packed_team" not in t.device_cu and not any("a team of" in r for r in t.remarks)
