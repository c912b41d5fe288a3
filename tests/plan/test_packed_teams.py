"""Tier 1: packed teams (issue 18 part 2). A lean SPMD kernel whose teams are one warp each
(constant thread_limit(32)) runs several teams per block: the team's number from the block's
and the warp's, the thread's from its lane, the team's barrier its warp's, the league's size a
kernel argument. Code that names anything of the block keeps a team per block, and
-Rpass=ompgpu says why. Run-and-check program: tests/programs/packed_teams.c."""
from pathlib import Path

import pytest

from ompgpu.codegen.device import packed_team_blocker
from ompgpu.driver import translate
from ompgpu.options import Options
from ompgpu.plan.mode import PACKED_TEAMS

PRELUDE = """#include <omp.h>
int a[1000][40], b[1000];
int twice(int x) { return 2 * x; }
int main(void) {
"""


def device(tmp_path: Path, kernel: str, mode: str = "auto") -> tuple[str, tuple[str, ...]]:
    src = tmp_path / "p.c"
    src.write_text(PRELUDE + kernel + "\n  return 0;\n}\n")
    t = translate(str(src), Options(mode=mode))
    return t.device_cu, t.remarks


BFS_LIKE = """
#pragma omp target teams distribute thread_limit(32) map(tofrom: a) map(to: b)
  for (int i = 0; i < 1000; i++) {
    if (b[i] == 0) continue;
    const int s = b[i];
#pragma omp parallel for
    for (int j = 0; j < 40; j++) a[i][j] *= s;
  }"""


def test_one_warp_teams_are_packed(tmp_path):
    cu, remarks = device(tmp_path, BFS_LIKE)
    assert f"OMPGPU_LAUNCH_BOUNDS({32 * PACKED_TEAMS}) __omp_offloading_main_l" in cu
    assert "unsigned __omp_league)" in cu
    assert f"const unsigned __omp_team = ompgpu::packed_team_num({PACKED_TEAMS}u);" in cu
    assert "if (__omp_team >= __omp_league) return;" in cu
    assert "distribute_static_block(__n, &__lo, &__hi, __omp_team, __omp_league)" in cu
    assert "__first = (long long)ompgpu::lane_id(), __stride = (long long)(32u)" in cu
    assert "ompgpu::packed_team_barrier();" in cu and "block_barrier" not in cu
    # the launch: whole blocks of PACKED_TEAMS teams, the league's size as the last argument
    assert f"dim3((cfg->num_teams + {PACKED_TEAMS - 1}u) / {PACKED_TEAMS}u), dim3(cfg->threads_per_team * {PACKED_TEAMS}u)" in cu
    assert "cfg->num_teams);" in cu and "if (cfg->threads_per_team != 32u) return (int)cudaErrorInvalidConfiguration;" in cu
    assert f"return blocks * {PACKED_TEAMS};  /* teams */" in cu
    assert any(f"packed teams, {PACKED_TEAMS} teams of 32 threads per block" in r for r in remarks)


def test_chunked_distribute_and_known_loops_take_the_teams_ids(tmp_path):
    cu, _ = device(tmp_path, """
#pragma omp target teams distribute dist_schedule(static, 3) thread_limit(32) map(tofrom: a)
  for (int i = 0; i < 1000; i++) {
#pragma omp parallel for schedule(static, 2)
    for (int j = 0; j < 40; j++) a[i][j] += 1;
  }""")
    assert "distribute_chunk_first(__chunk, __omp_team)" in cu and "distribute_chunk_stride(__chunk, __omp_league)" in cu
    assert "known_static_chunk_first(__chunk, ompgpu::lane_id())" in cu


@pytest.mark.parametrize("kernel, why", [
    ("""#pragma omp target teams distribute thread_limit(32) map(tofrom: a)
  for (int i = 0; i < 1000; i++) {
    const int t = omp_get_team_num();
#pragma omp parallel for
    for (int j = 0; j < 40; j++) a[i][j] = t;
  }""", "it calls 'omp_get_team_num'"),
    ("""#pragma omp target teams distribute thread_limit(32) map(tofrom: a)
  for (int i = 0; i < 1000; i++) {
    const int t = twice(i);
#pragma omp parallel for
    for (int j = 0; j < 40; j++) a[i][j] = t;
  }""", "it calls 'twice'"),
    ("""#pragma omp target teams distribute thread_limit(32) map(tofrom: a)
  for (int i = 0; i < 1000; i++) {
#pragma omp parallel num_threads(16)
    a[i][0] = 1;
  }""", "ompgpu::spmd_team_size"),                                            # a team smaller than the warp
])
def test_code_that_names_the_block_keeps_a_team_per_block(tmp_path, kernel, why):
    cu, remarks = device(tmp_path, kernel)
    assert "__omp_league" not in cu and "packed_team" not in cu
    assert any("teams not packed, a team per block" in r and why in r for r in remarks)


@pytest.mark.parametrize("kernel, mode", [
    # two warps a team (a loop whose trip count is not a constant: plan/team_size.py keeps the team)
    (BFS_LIKE.replace("thread_limit(32)", "thread_limit(64)").replace("j < 40", "j < s"), "auto"),
    (BFS_LIKE.replace("thread_limit(32)", "thread_limit(b[0])"), "auto"),  # not a constant
    (BFS_LIKE, "generic"),
    ("""#pragma omp target teams distribute parallel for thread_limit(32) map(tofrom: b)
  for (int i = 0; i < 1000; i++) b[i] += 1;""", "auto"),                   # one combined region
])
def test_other_kernels_are_not_planned_for_packing(tmp_path, kernel, mode):
    cu, remarks = device(tmp_path, kernel, mode)
    assert "__omp_league" not in cu and not any("packed" in r for r in remarks)


@pytest.mark.parametrize("text", [
    "x = threadIdx.x;", "x = blockIdx.x;", "x = gridDim.x;", "x = blockDim.x;", "OMPGPU_SHARED int t;",
    "ompgpu::block_barrier();", "ompgpu::known_team_barrier<false, true>(32u);", "x = omp_get_num_teams();",
    "ompgpu::spmd_team_size(4);", "ompgpu_reduce_known(op, &s, v, 32u);", "__syncthreads();",
])
def test_the_check_rejects_what_names_the_block(text):
    assert packed_team_blocker([text], []) is not None


def test_the_check_accepts_team_ids_and_atomics():
    text = ("if (ompgpu::distribute_static_block(__n, &__lo, &__hi, __omp_team, __omp_league)) {}\n"
            "ompgpu::known_team_barrier(32u); ompgpu::packed_team_barrier();\n"
            "ompgpu_atomic_update(ompgpu::ATOMIC_ADD, &x, 1); n = ompgpu_trip_count(0, 4, 1, OMPGPU_CMP_LT);")
    assert packed_team_blocker([text], []) is None
    assert packed_team_blocker([text], ["f"]) == "it calls 'f'"
