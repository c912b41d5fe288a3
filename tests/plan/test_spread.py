"""Tier 1: inner loops spread across the grid (issue 34 item 2; plan/spread.py,
runtime/device/spread.cuh). A lean SPMD `teams distribute` whose iterations each run one
`parallel for` may split an iteration over several blocks: the kernel takes the launch's scratch,
its distribute and its region's loop take their ranges from spread_*, the region's reduction
partials go through the scratch and the iteration's last block runs the rest. Kernels that may
not be split say why in -Rpass=ompgpu. Run-and-check program: tests/programs/spread_reductions.c."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ompgpu.driver import translate
from ompgpu.options import Options

PRELUDE = """#include <math.h>
#include <omp.h>
float w[1 << 20], in[1 << 16], hidden[16];
int main(void) {
  const int n = 1 << 16;
  int m = 0;
"""

BACKPROP_LIKE = """
#pragma omp target teams distribute thread_limit(256) map(to: w, in) map(from: hidden)
  for (int j = 0; j < 16; j++) {
    float s = 0;
#pragma omp parallel for reduction(+: s)
    for (int i = 0; i < n; i++) s += w[(long)i * 16 + j] * in[i];
    hidden[j] = 1.0f / (1.0f + expf(-s));
  }"""


def translated(tmp_path: Path, kernel: str, mode: str = "auto"):
    src = tmp_path / "p.c"
    src.write_text(PRELUDE + kernel + "\n  return 0;\n}\n")
    return translate(str(src), Options(mode=mode))


def test_a_short_distribute_of_long_regions_is_spread(tmp_path):
    t = translated(tmp_path, BACKPROP_LIKE)
    cu = t.device_cu
    # the block's items: its own iterations, its chunk of one split at the launch, other blocks' jobs
    assert "ompgpu::spread_distribute_begin(__n, __omp_scratch, __omp_scratch_epoch, blockIdx.x, gridDim.x, &__lo, &__hi);" in cu
    assert "if (!ompgpu::spread_help(&__lo)) break;" in cu and "ompgpu::spread_own(__iv - __base);" in cu
    # the launch's epoch marks its jobs valid (runtime/host/device.cpp numbers the launches)
    assert ", void *__omp_scratch, unsigned __omp_scratch_epoch)" in cu and ", cfg->scratch, cfg->scratch_epoch);" in cu
    # each block a contiguous slice of the region's loop; the threads' stride stays the team size
    assert "ompgpu::spread_slice(__n, threadIdx.x, 256u, &__first, &__end);\n  const long long __stride = (long long)(256u);" in cu
    # partials: the identity in every block but the first, through the scratch, the last block gathers
    assert "s = ompgpu_red_identity<std::remove_reference_t<decltype(s)>>(ompgpu::RED_ADD);" in cu
    assert "ompgpu::spread_put(&s, 1u, 0u);" in cu
    # a chunk that is not the last goes on with the block's next item
    assert "if (!ompgpu::spread_arrive()) continue;" in cu
    assert "\n    ompgpu::spread_gather(ompgpu::RED_ADD, &s, 1u, 0u);\n    ompgpu::spread_done();" in cu
    # the rest of the iteration comes after the gather
    assert cu.index("spread_gather") < cu.index("hidden[j] = ")
    # per team: a job (32 bytes), a count (8), a cell per reduction item (8) and 32 job chunks' cells
    assert ', "target teams distribute", 304, 0, 0, 0 };' in t.host_c   # no combine roles, no grid tiles or waves
    assert any("inner loops promoted across the grid" in r for r in t.remarks)


def test_writes_through_a_pointer_local_are_spread(tmp_path):
    # memory outside the team: every block's writes reach it
    t = translated(tmp_path, BACKPROP_LIKE.replace("float s = 0;", "float s = 0; float *out = hidden;")
                   .replace("s += w[(long)i * 16 + j] * in[i];", "{ s += w[(long)i * 16 + j] * in[i]; if (i == 0) out[0] = 1; }"))
    assert any("inner loops promoted across the grid" in r for r in t.remarks), t.remarks


def test_a_collapsed_region_and_atomics_after_it_are_spread(tmp_path):
    t = translated(tmp_path, BACKPROP_LIKE.replace("reduction(+: s)", "collapse(2) reduction(+: s)")
                   .replace("for (int i = 0; i < n; i++) s += w[(long)i * 16 + j] * in[i];",
                            "for (int i = 0; i < 256; i++) for (int q = 0; q < 256; q++) s += in[i * 256 + q];")
                   .replace("hidden[j] = 1.0f / (1.0f + expf(-s));", "#pragma omp atomic\n hidden[0] += s;"))
    assert "ompgpu::spread_distribute_begin" in t.device_cu and "ompgpu::spread_slice(__n, threadIdx.x, 256u, &__first, &__end)" in t.device_cu
    assert any("inner loops promoted across the grid" in r for r in t.remarks), t.remarks


def test_generic_mode_keeps_a_block_per_iteration(tmp_path):
    t = translated(tmp_path, BACKPROP_LIKE, mode="generic")
    assert "spread_" not in t.device_cu and "__omp_scratch" not in t.device_cu
    assert ', "target teams distribute", 0, 0, 0, 0 };' in t.host_c


@pytest.mark.parametrize("kernel, why", [
    (BACKPROP_LIKE.replace("thread_limit(256)", "thread_limit(256) num_teams(16)"), "num_teams sizes the league"),
    (BACKPROP_LIKE.replace("float s = 0;", "float s = 0; hidden[j] = 0;"),
     "the serial code before the region writes memory or calls a function"),
    (BACKPROP_LIKE.replace("reduction(+: s)", "reduction(+: s) schedule(static)"), "the region has a 'schedule' clause"),
    (BACKPROP_LIKE.replace("reduction(+: s)", "reduction(+: s) num_threads(128)"), "the region has a 'num_threads' clause"),
    (BACKPROP_LIKE.replace("hidden[j] = 1.0f", "hidden[omp_get_team_num() % 16] = 1.0f"),
     "the kernel calls omp_get_team_num"),
    (BACKPROP_LIKE.replace("s += w", "{\n#pragma omp critical\n s += w").replace("in[i];", "in[i]; }"),
     "the region holds 'critical'"),
    (BACKPROP_LIKE.replace("float s = 0;", "float s = 0;\n#pragma omp atomic\n hidden[0] += 1;"),
     "the serial code before the region holds 'atomic'"),
    # the region writes storage the team holds a copy of (one per block once split)
    (BACKPROP_LIKE.replace("float s = 0;", "float s = 0; int flag = 0;")
     .replace("s += w[(long)i * 16 + j] * in[i];", "{ s += w[(long)i * 16 + j] * in[i]; if (in[i] > 2) flag = 1; }")
     .replace("hidden[j] = 1.0f", "hidden[j] = flag + 1.0f"), "the region writes 'flag'"),
    (BACKPROP_LIKE.replace("float s = 0;", "float s = 0; float part[2] = {0, 0};")
     .replace("s += w[(long)i * 16 + j] * in[i];", "{ s += w[(long)i * 16 + j] * in[i]; part[i % 2] = 1; }")
     .replace("hidden[j] = 1.0f", "hidden[j] = part[0] + 1.0f"), "the region writes 'part'"),
    # blocks of one iteration do not wait for each other: a read before the region could see
    # another block's store
    (BACKPROP_LIKE.replace("map(to: w, in)", "map(tofrom: w, in)").replace("float s = 0;", "float s = in[j];")
     .replace("s += w[(long)i * 16 + j] * in[i];", "{ s += w[(long)i * 16 + j]; in[i] = 0; }"),
     "the serial code before the region reads memory and the region writes memory"),
    (BACKPROP_LIKE.replace("map(from: hidden)", "map(from: hidden) firstprivate(m)")
     .replace("s += w[(long)i * 16 + j] * in[i];", "{ s += w[(long)i * 16 + j] * in[i]; m = 1; }")
     .replace("hidden[j] = 1.0f", "hidden[j] = m + 1.0f"), "the kernel is not lean SPMD"),   # (the mode planner's)
])
def test_kernels_that_may_not_be_spread_say_why(tmp_path, kernel, why):
    t = translated(tmp_path, kernel)
    assert "spread_distribute_begin" not in t.device_cu and "__omp_scratch" not in t.device_cu
    assert any(f"inner loops not promoted across the grid: {why}" in r for r in t.remarks), t.remarks


def test_a_reduction_into_a_variable_outside_the_loop_is_not_spread(tmp_path):
    t = translated(tmp_path, """
  float total = 0;
#pragma omp target teams distribute map(to: in) map(tofrom: total)
  for (int j = 0; j < 4; j++) {
#pragma omp parallel for reduction(+: total)
    for (int i = 0; i < n; i++) total += in[i];
  }""")
    assert "spread_distribute_begin" not in t.device_cu
    assert any("inner loops not promoted" in r for r in t.remarks), t.remarks


SPARSE_ROWS = """
#pragma omp target teams distribute thread_limit(256) map(to: w, in) map(from: hidden)
  for (int r = 0; r < 16; r++) {
    const long b = (long)in[r], e = (long)in[r + 1];
    float s = 0;
#pragma omp parallel for reduction(+: s)
    for (long k = b; k < e; k++) s += w[k];
    hidden[r] = s;
  }"""


def test_loops_of_trip_counts_read_from_memory_get_packed_warp_teams_that_share_out_long_ones(tmp_path):
    """sparserows' shape: each iteration's loop bounds come from memory, so no team size fits all
    of them; warp teams, four to a block, with the long iterations shared out among the teams."""
    t = translated(tmp_path, SPARSE_ROWS)
    cu = t.device_cu
    assert any("trip count is read from memory at each distribute iteration: teams of one warp, not "
               "thread_limit's 256" in r for r in t.remarks), t.remarks
    assert any("packed teams, 4 teams of 32 threads per block" in r for r in t.remarks), t.remarks
    assert "OMPGPU_LAUNCH_BOUNDS(128)" in cu
    # the spread calls name the warp team's state; the distribute deals iterations to teams
    assert "ompgpu::spread_distribute_begin<32>(__n, __omp_scratch, __omp_scratch_epoch, __omp_team, __omp_league, " \
           "&__lo, &__hi);" in cu
    assert "ompgpu::spread_slice<32>(__n, ompgpu::lane_id(), 32u, &__first, &__end);" in cu
    assert "if (!ompgpu::spread_arrive<32>()) continue;" in cu
    # the league, then the scratch, after the captures, and both passed at the launch
    assert "unsigned __omp_league, void *__omp_scratch, unsigned __omp_scratch_epoch)" in cu
    assert ", cfg->num_teams, cfg->scratch, cfg->scratch_epoch);" in cu
    assert "threadIdx" not in cu[cu.index("__omp_offloading_main"):cu.index("__ompgpu_launch___omp_offloading_main")]


@pytest.mark.parametrize("kernel", [
    SPARSE_ROWS.replace("reduction(+: s)", "reduction(+: s) schedule(static)"),   # not spread: stays a block
    SPARSE_ROWS.replace("(long)in[r]", "(long)r * 8").replace("(long)in[r + 1]", "(long)r * 8 + n"),   # regular
    SPARSE_ROWS.replace("s += w[k];", "for (int q = 0; q < 4; q++) s += w[k + q];"),   # long iterations
])
def test_other_loops_keep_their_teams(tmp_path, kernel):
    t = translated(tmp_path, kernel)
    assert not any("teams of one warp" in r for r in t.remarks), t.remarks
    assert "OMPGPU_LAUNCH_BOUNDS(256)" in t.device_cu


@pytest.mark.toolchain
@pytest.mark.parametrize("sms", ["4", "132"])
def test_long_iterations_are_shared_out_and_the_results_are_exact(tmp_path, sms):
    """spread_jobs.c under the emulator, blocks on four OS threads: with 4 emulated SMs (a grid of
    128 blocks for 3000 rows) a block publishes a long row after shorter ones of its own (the cost
    rule's average); with 132 (4224 blocks) rows are a block's only one, split at the launch or,
    for 3000 rows, published with no earlier ones."""
    program = Path(__file__).resolve().parents[1] / "programs" / "spread_jobs.c"
    exe = tmp_path / "spread_jobs"
    r = subprocess.run([sys.executable, "-m", "ompgpu", "cc", "--offload=emu", str(program), "-o", str(exe)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=600,
                         env=dict(os.environ, OMPGPU_EMU_SMS=sms, OMPGPU_EMU_THREADS="4"))
    assert run.returncode == 0, run.stderr
    assert run.stdout == program.with_suffix(".expected").read_text()


@pytest.mark.parametrize("inner, spread", [
    ("for (int i = 0; i < 128; i++)", False),        # streamcluster's 128 coordinates: a team of 32, 4 each
    ("for (int i = 100; i > 0; i--)", False),        # counted down: the same count
    ("for (int i = 0; i < 1 << 20; i++)", True),     # a constant long enough to share out
    ("for (int i = 0; i < n; i++)", True),           # not a constant
])
def test_a_constant_loop_too_short_to_share_is_not_spread(tmp_path, inner, spread):
    kernel = BACKPROP_LIKE.replace("for (int i = 0; i < n; i++)", inner).replace("w[(long)i * 16 + j] * in[i]", "w[j] * 2")
    t = translated(tmp_path, kernel)
    promoted = any("inner loops promoted across the grid" in r for r in t.remarks)
    assert promoted == spread, t.remarks
    if not spread:
        assert any("iterations, too few for another block to share" in r for r in t.remarks), t.remarks
        assert "spread_distribute_begin" not in t.device_cu
